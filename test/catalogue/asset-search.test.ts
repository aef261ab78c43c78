/**
 * GET /assets/search (spec: "Referenced but unspecified"; the Matrix Calculator's `asset_value` is "asset id from
 * GET /api/v1/assets/search") and GraphQL `assetSearch`. Authentication 5: a read API token may call every GET.
 * Runs against the demo catalogue (prisma/seed/demo-catalogue.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetSearchIndex, searchAssets, validateAssetSearch } from '../../src/modules/catalogue/asset-search.ts';
import type { AssetNode } from '../../src/modules/catalogue/model.ts';
import { ValidationError } from '../../src/lib/errors.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let session: string;
beforeAll(async () => {
  t = await startTestApp();
  session = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const search = (query: string, token: string | null = session) =>
  t.rest('GET', `/api/v1/assets/search${query}`, { token });
const ids = async (q: string, extra = ''): Promise<number[]> => {
  const res = await search(`?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.map((a: any) => a.id);
};

describe('GET /assets/search: finds assets by name, alias or category', () => {
  it('by name, whole or partial words, in any case', async () => {
    expect(await ids('excavator')).toEqual([31, 36]); // Excavator, Mini Excavator (under 6t)
    expect(await ids('excav')).toEqual([31, 36]);
    expect(await ids('EXCAVATOR')).toEqual([31, 36]);
    expect(await ids('eXcAv')).toEqual([31, 36]);
    expect(await ids('forkl')).toEqual([34]);
    expect(await ids('passenger')).toEqual([11]);
  });

  it('by alias (the comma-separated alternative names)', async () => {
    expect(await ids('sedan')).toEqual([11]);
    expect(await ids('hatch')).toEqual([11]);
    expect(await ids('Digger')).toEqual([36, 31]); // both alias-only: by label, "…Compact Equipment › Mini…" first
    expect(await ids('motorbike')).toEqual([13]);
  });

  it('by category name or alias: the leaves beneath it, never the category', async () => {
    // "earthmoving" is an alias of Yellow Goods / Construction (3), which holds Compact Equipment (35).
    expect(await ids('earthmoving')).toEqual([36, 32, 31, 34, 33]);
    expect(await ids('Motor Vehicles')).toEqual([13, 12, 11]); // Motorcycle: a name word starts with "motor"
    const construction = await ids('construction');
    expect(construction.sort()).toEqual([31, 32, 33, 34, 36]);
  });

  it('every token must match, each anywhere in the name, the aliases or the ancestors', async () => {
    expect(await ids('mini dig')).toEqual([36]);
    expect(await ids('farm tractor')).toEqual([41]); // "farm" is the Agricultural category's alias
    expect(await ids('truck light')).toEqual([21]);
    expect(await ids('  tipper    trailer ')).toEqual([24, 22]);
    expect(await ids('excavator nonsense')).toEqual([]);
  });

  it('leaves only: no category is ever returned, whatever the query', async () => {
    const categories = new Set([1, 2, 3, 4, 5, 6, 35]);
    for (const q of ['e', 'a', 'vehicle', 'equipment', 'compact', 'plant', 'trucks', 'medical', 'IT']) {
      const res = await search(`?q=${encodeURIComponent(q)}&limit=50`);
      expect(res.status).toBe(200);
      expect(res.body.length, `${q} found no leaf`).toBeGreaterThan(0);
      for (const asset of res.body) expect(categories.has(asset.id), `${q} returned category ${asset.id}`).toBe(false);
    }
  });

  it('deleted assets are excluded, and so is everything beneath a deleted category', async () => {
    expect(await ids('fax')).toEqual([]); // Fax Machine (64) is deleted
    expect(await ids('laptop')).toEqual([61]);
    await t.database.prisma.asset.update({ where: { id: 6 }, data: { is_deleted: true } });
    try {
      expect(await ids('laptop')).toEqual([]);
      expect(await ids('IT office')).toEqual([]);
    } finally {
      await t.database.prisma.asset.update({ where: { id: 6 }, data: { is_deleted: false } });
    }
    expect(await ids('laptop')).toEqual([61]);
  });
});

describe('GET /assets/search: the answer', () => {
  it('200 with a JSON array of {id, name, alias, parent_id, path, label}', async () => {
    const res = await search('?q=skid');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: 32,
        name: 'Skid Steer Loader',
        alias: 'skid steer, compact track loader, CTL',
        parent_id: 35,
        path: ['Yellow Goods / Construction', 'Compact Equipment'],
        label: 'Yellow Goods / Construction › Compact Equipment › Skid Steer Loader',
      },
    ]);
    const car = await search('?q=passenger');
    expect(car.body[0]).toMatchObject({
      path: ['Motor Vehicles'],
      label: 'Motor Vehicles › Passenger Car',
      parent_id: 1,
    });
  });

  it('best matches first: name starts with q, a name word starts with a token, alias, then category only', async () => {
    // truck: Light Rigid Truck and Medium/Heavy Rigid Truck (a name word), Forklift (alias "forklift truck"),
    // then Prime Mover and Trailer (only their category "Trucks & Trailers" matches).
    expect(await ids('truck')).toEqual([21, 22, 34, 23, 24]);
    // Excavator's name starts with the query; Mini Excavator only has a name word that does.
    expect(await ids('excavator')).toEqual([31, 36]);
    // Medical: Practice Fit-out's alias "medical fit-out" beats the two that only sit under Medical Equipment.
    expect(await ids('medical')).toEqual([53, 51, 52]);
    // Motorcycle and Passenger Car each have a name word starting with a token (ties by label); LCV matches through its category only.
    expect(await ids('car motor')).toEqual([13, 11, 12]);
  });

  it('at most `limit` results: default 20, up to 50', async () => {
    const all = await search('?q=e&limit=50');
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(20);
    expect((await search('?q=e')).body).toEqual(all.body.slice(0, 20));
    expect((await search('?q=earthmoving&limit=2')).body.map((a: any) => a.id)).toEqual([36, 32]);
    expect((await search('?q=earthmoving&limit=1')).body).toHaveLength(1);
  });
});

describe('GET /assets/search: errors', () => {
  it('400 naming q when q is missing, blank or longer than 100 characters', async () => {
    for (const query of ['', '?q=', '?q=%20%20%20', `?q=${'a'.repeat(101)}`, '?q=,,,', '?limit=5']) {
      const res = await search(query);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.errors), query).toEqual(['q']);
      expect(typeof res.body.error).toBe('string');
    }
    expect((await search(`?q=${'a'.repeat(100)}`)).status).toBe(200);
    expect((await search(`?q=${encodeURIComponent(` ${'b'.repeat(100)} `)}`)).status).toBe(200); // trimmed first
  });

  it('400 naming limit when it is not an integer from 1 to 50', async () => {
    for (const limit of ['0', '51', '-1', 'abc', '1.5', '', '99999999999']) {
      const res = await search(`?q=car&limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(Object.keys(res.body.errors), limit).toEqual(['limit']);
    }
    expect((await search('?q=car&limit=50')).status).toBe(200);
  });

  it('401 without a token, even with a bad query', async () => {
    expect((await search('?q=car', null)).status).toBe(401);
    expect((await search('', null)).status).toBe(401);
    expect((await search('?q=car', 'not-a-token')).status).toBe(401);
  });

  it('a read API token may search (Authentication 5: every GET)', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: session,
      body: { name: 'asset search', scope: 'read' },
    });
    expect(minted.status).toBe(201);
    const res = await search('?q=excavator', minted.body.token);
    expect(res.status).toBe(200);
    expect(res.body.map((a: any) => a.id)).toEqual([31, 36]);
  });
});

describe('GraphQL assetSearch', () => {
  it('answers the same list, and typed errors', async () => {
    const client = t.graphql(session);
    const ok = await client.request<any>(`{ assetSearch(q: "skid") { __typename
      ... on QueryAssetSearchSuccess { data { id name alias parent_id path label } }
      ... on ValidationError { errors { field messages } } } }`);
    expect(ok.assetSearch.__typename).toBe('QueryAssetSearchSuccess');
    expect(ok.assetSearch.data).toEqual((await search('?q=skid')).body);
    const bad = await client.request<any>(
      `{ assetSearch(q: "  ", limit: 0) { __typename ... on ValidationError { errors { field } } } }`,
    );
    expect(bad.assetSearch.__typename).toBe('ValidationError');
    expect(bad.assetSearch.errors.map((e: any) => e.field)).toEqual(['q', 'limit']);
    const anonymous = await t.graphql(null).request<any>(`{ assetSearch(q: "car") { __typename } }`);
    expect(anonymous.assetSearch.__typename).toBe('UnauthenticatedError');
  });
});

describe('asset search, in memory (src/modules/catalogue/asset-search.ts)', () => {
  const node = (
    id: number,
    name: string,
    parent_id: number | null,
    is_asset = true,
    alias: string | null = null,
    is_deleted = false,
  ): AssetNode => ({ id, name, alias, parent_id, is_asset, is_deleted });
  const tree: AssetNode[] = [
    node(1, 'Lifting', null, false, 'cranes'),
    node(2, 'Forklift', 1),
    node(3, 'Lift Platform', 1),
    node(4, 'Scissor Platform', 1, true, 'scissor lift, EWP'),
    node(5, 'Boom', 1),
    node(6, 'Old Lifts', 1, false, null, true),
    node(7, 'Lift Truck', 6),
    node(8, 'Cycle A', 9),
    node(9, 'Cycle B', 8, false), // a cycle must not hang the index
  ];

  it('ranks: name starts with q, name word starts with a token, name contains it, alias contains it, category only', () => {
    expect(searchAssets(tree, 'lift').map((a) => a.id)).toEqual([3, 2, 4, 5]);
    expect(searchAssets(tree, 'cranes').map((a) => a.id)).toEqual([5, 2, 3, 4]);
  });

  it('builds the index once per assets array (the snapshot), and a new array gets a new one', () => {
    const first = assetSearchIndex(tree);
    expect(assetSearchIndex(tree)).toBe(first);
    expect(assetSearchIndex([...tree])).not.toBe(first);
    expect(searchAssets(tree, 'cycle').map((a) => a.id)).toEqual([8]);
  });

  it('validates q and limit, naming every bad field', () => {
    expect(validateAssetSearch('  car ', null)).toEqual({ q: 'car', limit: 20 });
    expect(validateAssetSearch('car', 50)).toEqual({ q: 'car', limit: 50 });
    try {
      validateAssetSearch(' ', 51);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).fieldErrors.map((f) => f.field)).toEqual(['q', 'limit']);
    }
  });
});
