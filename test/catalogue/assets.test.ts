/**
 * The asset tree (spec: Asset resource and AssetRateBracketRelation; PATCH /api/v1/assets/{id}; Authentication 10:
 * asset edits need permission to edit equipment). docs/asset-tree.md holds the decisions the spec leaves open.
 * Demo catalogue: financier.admin (organisation 1, admin, in the operator's "Equipment editors" group), broker.user
 * (no permission). Who may edit at all: test/catalogue/asset-tree-rights.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCycle } from '../../src/modules/catalogue/asset-tree.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type SeedKit } from '../../testkit/seed.ts';

let t: TestApp;
let kit: SeedKit;
let editor: string; // financier.admin: change_equipment through the operator's group
let broker: string; // broker.admin (Pro): prices and searches
let brokerEditor: string; // a broker user the operator let edit equipment: sees every financier's mappings
let plain: string; // broker.user: no permission
beforeAll(async () => {
  t = await startTestApp();
  kit = seedKit(t.database.prisma);
  editor = (await t.login('financier.admin@demo.test')).access;
  broker = (await t.login('broker.admin@demo.test')).access;
  const granted = await (await kit.broker()).user({ groups: ['Equipment editors'] });
  brokerEditor = (await t.login(granted.email)).access;
  plain = (await t.login('broker.user@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const patch = (id: number | string, body: unknown, token: string | null = editor, headers?: Record<string, string>) =>
  t.rest('PATCH', `/api/v1/assets/${id}`, { token, body, headers });
const gql = <T = any>(token: string, query: string, variables?: Record<string, unknown>) =>
  t.graphql(token).request<T>(query, variables);
const row = (id: number) => t.database.prisma.asset.findUniqueOrThrow({ where: { id } });
const category = (name?: string) => kit.asset({ is_asset: false, ...(name ? { name } : {}) });

describe('PATCH /assets/{id}: 200 {message, data: Asset}', () => {
  it('renames, re-aliases and moves; data is the spec Asset, its fields in order', async () => {
    const from = await category('From');
    const to = await category('To');
    const leaf = await from.child({ name: 'Leaf', alias: 'old' });
    const res = await patch(leaf.id, { name: '  Renamed leaf ', alias: 'one, two', parent_id: to.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      message: 'Asset updated.',
      data: {
        id: leaf.id,
        name: 'Renamed leaf',
        alias: 'one, two',
        parent: 'To',
        parent_id: to.id,
        is_asset: true,
        is_deleted: false,
        asset_rate_brackets: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(Object.keys(res.body.data)).toEqual([
      'id',
      'name',
      'alias',
      'parent',
      'parent_id',
      'is_asset',
      'is_deleted',
      'asset_rate_brackets',
      'created_at',
      'updated_at',
    ]);
    expect(await row(leaf.id)).toMatchObject({ name: 'Renamed leaf', alias: 'one, two', parent_id: to.id });
  });

  it('only name is required: a field left out stays, null clears alias and moves to the top', async () => {
    const parent = await category();
    const leaf = await parent.child({ name: 'Keeps', alias: 'a, b' });
    const kept = await patch(leaf.id, { name: 'Keeps still' });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ name: 'Keeps still', alias: 'a, b', parent_id: parent.id });
    const cleared = await patch(leaf.id, { name: 'Keeps still', alias: null, parent_id: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ alias: null, parent: null, parent_id: null });
    const empty = await patch(leaf.id, { name: 'Keeps still', alias: '   ' });
    expect(empty.body.data.alias).toBeNull();
  });

  it('unknown body keys are ignored, never stored (is_asset, id, created_at cannot be set here)', async () => {
    const leaf = await kit.asset({ name: 'Mass assignment' });
    const res = await patch(leaf.id, {
      name: 'Mass assignment',
      is_asset: false,
      id: 1,
      created_at: '2000-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(await row(leaf.id)).toMatchObject({
      is_deleted: false,
      is_asset: true,
      id: leaf.id,
      created_at: leaf.created_at,
    });
  });

  it('asset_rate_brackets are AssetRateBracketRelations with names; a financier sees only its own', async () => {
    const res = await patch(1, { name: 'Motor Vehicles' }, brokerEditor);
    expect(res.status).toBe(200);
    const mappings = res.body.data.asset_rate_brackets;
    expect(mappings).toHaveLength(9);
    expect(mappings[0]).toEqual({
      id: 1,
      asset: 'Motor Vehicles',
      asset_id: 1,
      organisation: 'Harbour Equipment Finance',
      organisation_id: 1,
      product: expect.any(String),
      product_id: 1,
      rate_bracket: expect.any(String),
      rate_bracket_id: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const wholeProduct = mappings.find((m: any) => m.id === 15);
    expect(wholeProduct).toMatchObject({ rate_bracket: null, rate_bracket_id: null, product_id: 2 });
    const own = await patch(1, { name: 'Motor Vehicles' }, editor);
    expect(own.body.data.asset_rate_brackets.length).toBeGreaterThan(0);
    expect(own.body.data.asset_rate_brackets.every((m: any) => m.organisation_id === 1)).toBe(true);
    expect(own.body.data.asset_rate_brackets.length).toBeLessThan(mappings.length);
  });

  it('the message is worded for X-Service-Client (ios and android get the same fact)', async () => {
    const leaf = await kit.asset();
    for (const client of ['web', 'ios', 'android', 'something-else']) {
      const res = await patch(leaf.id, { name: 'Worded' }, editor, { 'X-Service-Client': client });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Asset updated.');
    }
  });
});

describe('PATCH /assets/{id}: 400 naming the field; nothing is written', () => {
  const refused = async (id: number, body: unknown, field: string, message?: RegExp) => {
    const before = await row(id);
    const res = await patch(id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect(Object.keys(res.body.errors)).toContain(field);
    if (message) expect(res.body.errors[field].join(' ')).toMatch(message);
    expect(await row(id)).toEqual(before);
    return res.body;
  };

  it('name: missing, null, blank, not a string, longer than 200 characters, control characters', async () => {
    const leaf = await kit.asset({ name: 'Stays' });
    await refused(leaf.id, {}, 'name', /required/);
    await refused(leaf.id, { name: null }, 'name', /required/);
    await refused(leaf.id, { name: '   ' }, 'name', /blank/);
    await refused(leaf.id, { name: 12 }, 'name');
    await refused(leaf.id, { name: 'x'.repeat(201) }, 'name', /200/);
    await refused(leaf.id, { name: 'Line\nbreak' }, 'name', /control/);
    expect((await patch(leaf.id, { name: 'é'.repeat(200) })).status).toBe(200); // characters, not bytes
  });

  it('alias: longer than 1000 characters, not a string', async () => {
    const leaf = await kit.asset();
    await refused(leaf.id, { name: 'n', alias: 'a'.repeat(1001) }, 'alias', /1000/);
    await refused(leaf.id, { name: 'n', alias: ['a'] }, 'alias');
  });

  it('is_deleted: not a boolean (a string, a number, null)', async () => {
    const leaf = await kit.asset();
    for (const is_deleted of ['true', 1, 0, null, {}]) await refused(leaf.id, { name: 'n', is_deleted }, 'is_deleted');
    expect((await row(leaf.id)).is_deleted).toBe(false);
  });

  it('a path id that is not an integer is named `id`', async () => {
    const res = await patch('abc', { name: 'x' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['id']);
  });

  it('every bad field at once', async () => {
    const leaf = await kit.asset();
    const body = await refused(leaf.id, { name: '', alias: 'a'.repeat(1001) }, 'name');
    expect(Object.keys(body.errors).sort()).toEqual(['alias', 'name']);
  });

  it('parent_id: unknown, zero, negative, beyond any id, not an integer', async () => {
    const leaf = await kit.asset();
    for (const parent_id of [999_999, 0, -1, 2_147_483_647])
      await refused(leaf.id, { name: 'n', parent_id }, 'parent_id', /No asset has this id/);
    await refused(leaf.id, { name: 'n', parent_id: 2_147_483_648 }, 'parent_id');
    await refused(leaf.id, { name: 'n', parent_id: '5' }, 'parent_id');
    await refused(leaf.id, { name: 'n', parent_id: 1.5 }, 'parent_id');
  });

  it('parent_id: the asset itself, or one of its descendants (a cycle)', async () => {
    const top = await category('Top');
    const mid = await top.child({ is_asset: false });
    const low = await mid.child();
    await refused(top.id, { name: 'Top', parent_id: top.id }, 'parent_id', /under itself or under one of its own/);
    await refused(top.id, { name: 'Top', parent_id: mid.id }, 'parent_id', /descendants/);
    await refused(top.id, { name: 'Top', parent_id: low.id }, 'parent_id', /descendants/);
    expect(hasCycle(await t.database.prisma.asset.findMany())).toBe(false);
  });

  it('parent_id: a deleted parent, or one beneath a deleted category', async () => {
    const gone = await kit.asset({ is_asset: false, is_deleted: true });
    const under = await gone.child({ is_asset: false });
    const leaf = await kit.asset();
    await refused(leaf.id, { name: 'n', parent_id: gone.id }, 'parent_id', /deleted/);
    await refused(leaf.id, { name: 'n', parent_id: under.id }, 'parent_id', /deleted/);
  });

  it('keeping the current parent is no move: an asset under a deleted category can still be renamed', async () => {
    const gone = await kit.asset({ is_asset: false, is_deleted: true });
    const leaf = await gone.child();
    const res = await patch(leaf.id, { name: 'Renamed while hidden', parent_id: gone.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('a tree deeper than 16 levels is refused (the moved subtree counts)', async () => {
    let node = await category('Level 1');
    for (let level = 2; level <= 15; level++) node = await node.child({ is_asset: false, name: `Level ${level}` });
    const leaf = await node.child(); // level 16: allowed
    const pair = await category('Pair');
    await pair.child();
    await refused(pair.id, { name: 'Pair', parent_id: node.id }, 'parent_id', /16 levels/);
    await refused(leaf.id, { name: 'n', parent_id: leaf.id }, 'parent_id');
    const create = await gql(
      editor,
      `mutation($p: Int) { createAsset(input: { name: "Too deep", parent_id: $p }) {
      __typename ... on ValidationError { errors { field messages } } } }`,
      { p: leaf.id },
    );
    expect(create.createAsset.__typename).toBe('ValidationError');
    expect(create.createAsset.errors[0].field).toBe('parent_id');
  });
});

describe('PATCH /assets/{id}: 401 and 403 (Authentication 5 and 10)', () => {
  it('401 without credentials', async () => {
    const res = await patch(11, { name: 'x' }, null);
    expect(res.status).toBe(401);
  });

  it('403 without permission to edit equipment; nothing written', async () => {
    const leaf = await kit.asset({ name: 'Untouched' });
    const res = await patch(leaf.id, { name: 'Changed' }, plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await row(leaf.id)).name).toBe('Untouched');
  });

  it('a user holding change_equipment through a group (not an admin) may edit', async () => {
    const org = await kit.broker();
    const user = await org.user({ groups: [{ name: 'Equipment editors', permissions: ['change_equipment'] }] });
    const token = (await t.login(user.email)).access;
    const leaf = await kit.asset();
    expect((await patch(leaf.id, { name: 'By a group member' }, token)).status).toBe(200);
  });

  it('403 with a read API token, 200 with a read_write one', async () => {
    const mint = async (scope: string) =>
      (await t.rest('POST', '/api/v1/api-tokens', { token: editor, body: { name: `assets ${scope}`, scope } })).body
        .token as string;
    const leaf = await kit.asset({ name: 'Token target' });
    const read = await patch(leaf.id, { name: 'By read token' }, await mint('read'));
    expect(read.status).toBe(403);
    expect((await row(leaf.id)).name).toBe('Token target');
    expect((await patch(leaf.id, { name: 'By write token' }, await mint('read_write'))).status).toBe(200);
  });
});

describe('PATCH /assets/{id}: 404 for an asset that does not exist', () => {
  it('404 with the general error body', async () => {
    for (const id of [999_999, 0]) {
      const res = await patch(id, { name: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Asset not found.' });
    }
  });

  it('a deleted asset still exists: it can be edited (and restored)', async () => {
    const gone = await kit.asset({ is_deleted: true });
    const res = await patch(gone.id, { name: 'Edited while deleted' });
    expect(res.status).toBe(200);
    expect(res.body.data.is_deleted).toBe(true);
  });
});

describe('PATCH /assets/{id} with is_deleted: deletes (true) and restores (false), as deleteAsset and restoreAsset', () => {
  it('true marks the asset deleted and keeps its row, mappings and children; false restores it', async () => {
    const fin = await kit.financierOf(1);
    const product = await fin.product();
    const cat = await category('Deleted over REST');
    const child = await cat.child();
    await product.mapTo(cat);
    const gone = await patch(cat.id, { name: 'Deleted over REST', is_deleted: true });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body.data).toMatchObject({ id: cat.id, is_deleted: true });
    expect(gone.body.data.asset_rate_brackets).toHaveLength(1);
    expect(await row(cat.id)).toMatchObject({ is_deleted: true, name: 'Deleted over REST' });
    expect(await row(child.id)).toMatchObject({ is_deleted: false, parent_id: cat.id });
    expect(await t.database.prisma.assetRateBracket.count({ where: { asset_id: cat.id } })).toBe(1);
    const back = await patch(cat.id, { name: 'Deleted over REST', is_deleted: false });
    expect(back.status).toBe(200);
    expect(back.body.data.is_deleted).toBe(false);
    expect(await row(cat.id)).toMatchObject({ is_deleted: false });
  });

  it('the other fields are applied in the same change; a refused field leaves the mark as it was', async () => {
    const to = await category('Move target');
    const leaf = await kit.asset({ name: 'Old name' });
    const res = await patch(leaf.id, { name: 'New name', parent_id: to.id, is_deleted: true });
    expect(res.status).toBe(200);
    expect(await row(leaf.id)).toMatchObject({ name: 'New name', parent_id: to.id, is_deleted: true });
    const refused = await patch(leaf.id, { name: 'Other', parent_id: leaf.id, is_deleted: false });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(['parent_id']);
    expect(await row(leaf.id)).toMatchObject({ name: 'New name', is_deleted: true });
  });

  it('sending the current mark changes nothing: the row is not written', async () => {
    const leaf = await kit.asset({ name: 'Steady', is_deleted: true });
    const before = await row(leaf.id);
    const res = await t
      .graphql(editor)
      .request<any>(
        `mutation($id: Int!) { updateAsset(id: $id, input: { is_deleted: true }) { ... on Asset { is_deleted } } }`,
        { id: leaf.id },
      );
    expect(res.updateAsset).toEqual({ is_deleted: true });
    expect(await row(leaf.id)).toEqual(before);
  });

  it('name stays required: is_deleted alone is a 400 naming name, and nothing is deleted', async () => {
    const leaf = await kit.asset();
    const res = await patch(leaf.id, { is_deleted: true });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['name']);
    expect((await row(leaf.id)).is_deleted).toBe(false);
  });

  it('403 without permission to edit equipment, and with a read API token; the asset stays', async () => {
    const leaf = await kit.asset({ name: 'Not yours to delete' });
    const res = await patch(leaf.id, { name: 'Not yours to delete', is_deleted: true }, plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String) });
    const read = (
      await t.rest('POST', '/api/v1/api-tokens', { token: editor, body: { name: 'assets delete read', scope: 'read' } })
    ).body.token as string;
    expect((await patch(leaf.id, { name: 'Not yours to delete', is_deleted: true }, read)).status).toBe(403);
    expect((await row(leaf.id)).is_deleted).toBe(false);
  });
});

describe('GraphQL: createAsset, updateAsset, deleteAsset, restoreAsset need change_equipment', () => {
  const CREATE = `mutation($input: CreateAssetInput!) { createAsset(input: $input) {
    __typename ... on Asset { id name alias parent parent_id is_asset is_deleted ancestors { id } }
    ... on Error { message } ... on ValidationError { errors { field messages } } } }`;

  it('createAsset: a category or a leaf, at the top or under a parent', async () => {
    const top = await gql(editor, CREATE, { input: { name: 'Boats', is_asset: false } });
    expect(top.createAsset).toMatchObject({ __typename: 'Asset', name: 'Boats', is_asset: false, parent: null });
    const leaf = await gql(editor, CREATE, {
      input: { name: 'Jet Ski', alias: 'PWC', parent_id: top.createAsset.id },
    });
    expect(leaf.createAsset).toMatchObject({
      __typename: 'Asset',
      parent: 'Boats',
      is_asset: true,
      is_deleted: false,
      ancestors: [{ id: top.createAsset.id }],
    });
  });

  it('createAsset: refuses a bad name, an unknown or deleted parent', async () => {
    const gone = await kit.asset({ is_deleted: true });
    for (const [input, field] of [
      [{ name: ' ' }, 'name'],
      [{ name: 'x', parent_id: 999_999 }, 'parent_id'],
      [{ name: 'x', parent_id: gone.id }, 'parent_id'],
    ] as const) {
      const res = await gql(editor, CREATE, { input });
      expect(res.createAsset.__typename).toBe('ValidationError');
      expect(res.createAsset.errors.map((e: any) => e.field)).toEqual([field]);
    }
  });

  it('every mutation answers ForbiddenError without the permission, and writes nothing', async () => {
    const leaf = await kit.asset({ name: 'Guarded' });
    const count = await t.database.prisma.asset.count();
    const res = await gql(
      plain,
      `mutation($id: Int!) {
        c: createAsset(input: { name: "No" }) { __typename }
        u: updateAsset(id: $id, input: { name: "No" }) { __typename }
        d: deleteAsset(id: $id) { __typename }
        r: restoreAsset(id: $id) { __typename } }`,
      { id: leaf.id },
    );
    expect(res).toEqual({
      c: { __typename: 'ForbiddenError' },
      u: { __typename: 'ForbiddenError' },
      d: { __typename: 'ForbiddenError' },
      r: { __typename: 'ForbiddenError' },
    });
    expect(await t.database.prisma.asset.count()).toBe(count);
    expect(await row(leaf.id)).toMatchObject({ name: 'Guarded', is_deleted: false });
  });

  it('updateAsset is partial: only the fields sent change', async () => {
    const parent = await category();
    const leaf = await parent.child({ name: 'Partial', alias: 'kept' });
    const res = await gql(
      editor,
      `mutation($id: Int!) { updateAsset(id: $id, input: { alias: "new" }) {
      ... on Asset { name alias parent_id } } }`,
      { id: leaf.id },
    );
    expect(res.updateAsset).toEqual({ name: 'Partial', alias: 'new', parent_id: parent.id });
  });

  it('deleteAsset marks is_deleted and keeps the row, its mappings and its children; restoreAsset undoes it', async () => {
    const fin = await kit.financierOf(1);
    const product = await fin.product();
    const cat = await category('Deletable');
    const child = await cat.child();
    await product.mapTo(cat);
    const DELETE = `mutation($id: Int!) { deleteAsset(id: $id) { __typename ... on Asset { is_deleted } } }`;
    const RESTORE = `mutation($id: Int!) { restoreAsset(id: $id) { __typename ... on Asset { is_deleted } } }`;
    expect((await gql(editor, DELETE, { id: cat.id })).deleteAsset).toEqual({ __typename: 'Asset', is_deleted: true });
    expect((await gql(editor, DELETE, { id: cat.id })).deleteAsset.is_deleted).toBe(true); // again: no change
    expect(await row(cat.id)).toMatchObject({ is_deleted: true });
    expect(await row(child.id)).toMatchObject({ is_deleted: false, parent_id: cat.id });
    expect(await t.database.prisma.assetRateBracket.count({ where: { asset_id: cat.id } })).toBe(1);
    expect((await gql(editor, RESTORE, { id: cat.id })).restoreAsset).toEqual({
      __typename: 'Asset',
      is_deleted: false,
    });
    const missing = await gql(editor, DELETE, { id: 999_999 });
    expect(missing.deleteAsset.__typename).toBe('NotFoundError');
  });
});

describe('Deleted assets leave search and pricing, from the next request on', () => {
  const DEAL = { cost: 50000, term: 48, advance_arrears: 'arrears', repayment_frequency: 'monthly' };
  const price = (asset_value: number) =>
    t.rest('POST', '/api/v1/calculator', { token: broker, body: { ...DEAL, asset_value } });
  const matrix = (asset_value: number) =>
    t.rest('POST', '/api/v1/matrix/', { token: broker, body: { cost: '50000', asset_value } });
  const found = async (q: string) =>
    (await t.rest('GET', `/api/v1/assets/search?q=${encodeURIComponent(q)}`, { token: broker })).body.map(
      (a: any) => a.id,
    );
  const version = async () => (await t.database.prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version;
  const setDeleted = (id: number, deleted: boolean) =>
    gql(editor, `mutation($id: Int!) { ${deleted ? 'deleteAsset' : 'restoreAsset'}(id: $id) { __typename } }`, {
      id,
    });

  it('a deleted leaf: not found by search, refused by the calculator and the Matrix (400 asset_value)', async () => {
    expect(await found('Motorcycle')).toEqual([13]);
    expect((await price(13)).status).toBe(200);
    const before = await version();
    await setDeleted(13, true);
    try {
      expect(await version()).toBeGreaterThan(before); // the trigger bumped it in the mutation's transaction
      expect(await found('Motorcycle')).toEqual([]);
      const priced = await price(13);
      expect(priced.status).toBe(400);
      expect(priced.body.errors).toEqual({ asset_value: ['Unknown asset.'] });
      expect((await matrix(13)).status).toBe(400);
    } finally {
      await setDeleted(13, false);
    }
    expect(await found('Motorcycle')).toEqual([13]);
    expect((await price(13)).status).toBe(200);
  });

  it('a deleted category takes its whole subtree out; restoring brings it back as it was', async () => {
    expect(await found('baler')).toEqual([44]);
    await setDeleted(4, true);
    try {
      expect(await found('baler')).toEqual([]);
      expect(await found('farm')).toEqual([]);
      expect((await price(41)).status).toBe(400);
      expect((await price(4)).status).toBe(400);
      expect(await row(41)).toMatchObject({ is_deleted: false });
    } finally {
      await setDeleted(4, false);
    }
    expect(await found('baler')).toEqual([44]);
    expect((await price(41)).status).toBe(200);
  });

  it('deleted through PATCH is_deleted: gone from the next search and pricing; restored through PATCH, back', async () => {
    const named = { name: 'Motorcycle' };
    expect((await row(13)).name).toBe(named.name);
    expect(await found('Motorcycle')).toEqual([13]);
    expect((await price(13)).status).toBe(200);
    const before = await version();
    const gone = await patch(13, { ...named, is_deleted: true });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    try {
      expect(await version()).toBeGreaterThan(before);
      expect(await found('Motorcycle')).toEqual([]);
      const priced = await price(13);
      expect(priced.status).toBe(400);
      expect(priced.body.errors).toEqual({ asset_value: ['Unknown asset.'] });
    } finally {
      expect((await patch(13, { ...named, is_deleted: false })).status).toBe(200);
    }
    expect(await found('Motorcycle')).toEqual([13]);
    expect((await price(13)).status).toBe(200);
  });

  it('a rename and a move are seen by the next search', async () => {
    const res = await patch(42, { name: 'Combine Harvester Deluxe', parent_id: 3 });
    expect(res.status).toBe(200);
    try {
      const hit = await t.rest('GET', '/api/v1/assets/search?q=deluxe', { token: broker });
      expect(hit.body).toEqual([
        expect.objectContaining({ id: 42, path: ['Yellow Goods / Construction'], parent_id: 3 }),
      ]);
    } finally {
      await patch(42, { name: 'Combine Harvester', parent_id: 4 });
    }
  });
});

describe('assets: a relay connection over one level of the tree', () => {
  const PAGE = `query($parent: Int, $first: Int, $after: String, $deleted: Boolean) {
    assets(parentId: $parent, first: $first, after: $after, includeDeleted: $deleted) {
      __typename ... on QueryAssetsConnection { pageInfo { hasNextPage endCursor } edges { cursor node { id } } } } }`;

  it('without parentId: the top of the tree; deleted nodes only on request', async () => {
    const res = await gql(broker, PAGE, { first: 100 });
    const ids = res.assets.edges.map((e: any) => e.node.id);
    expect(ids.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    const nodes = await t.database.prisma.asset.findMany({ where: { parent_id: null, is_deleted: false } });
    expect(ids.length).toBe(Math.min(nodes.length, 100));
  });

  it('pages through children by cursor, none twice, none missed', async () => {
    const parent = await category('Paged');
    const made: number[] = [];
    for (let i = 0; i < 25; i++) made.push((await parent.child()).id);
    const gone = await parent.child({ is_deleted: true });
    const seen: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res: any = await gql(broker, PAGE, { parent: parent.id, first: 10, after });
      seen.push(...res.assets.edges.map((e: any) => e.node.id));
      if (!res.assets.pageInfo.hasNextPage) break;
      after = res.assets.pageInfo.endCursor;
    }
    expect(seen).toEqual(made);
    const all = await gql(broker, PAGE, { parent: parent.id, first: 100, deleted: true });
    expect(all.assets.edges.map((e: any) => e.node.id)).toEqual([...made, gone.id]);
  });

  it('a page is capped at 100 whatever first asks', async () => {
    const parent = await category('Wide');
    await t.database.prisma.asset.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({ name: `Wide ${i}`, parent_id: parent.id })),
    });
    const res = await gql(broker, PAGE, { parent: parent.id, first: 1000 });
    expect(res.assets.edges).toHaveLength(100);
    expect(res.assets.pageInfo.hasNextPage).toBe(true);
  });

  it('asset(id): one node, deleted or not; NotFoundError otherwise', async () => {
    const res = await gql(
      broker,
      `{ a: asset(id: 64) { ... on Asset { name is_deleted parent ancestors { name } } }
      b: asset(id: 999999) { __typename } }`,
    );
    expect(res.a).toEqual({
      name: 'Fax Machine',
      is_deleted: true,
      parent: 'IT & Office Equipment',
      ancestors: [{ name: 'IT & Office Equipment' }],
    });
    expect(res.b).toEqual({ __typename: 'NotFoundError' });
  });

  it('ancestors are root first; children and parent_asset link the graph', async () => {
    const res = await gql(
      broker,
      `{ asset(id: 36) { ... on Asset {
      ancestors { id } parent_asset { id parent_asset { id parent_asset { id } } }
      children { edges { node { id } } } } } }`,
    );
    expect(res.asset.ancestors).toEqual([{ id: 3 }, { id: 35 }]);
    expect(res.asset.parent_asset).toEqual({ id: 35, parent_asset: { id: 3, parent_asset: null } });
    expect(res.asset.children.edges).toEqual([]);
  });
});

describe('Query counts: ancestors, children and asset_rate_brackets are batched', () => {
  const TREE = `query($parent: Int) { assets(parentId: $parent, first: 100) { ... on QueryAssetsConnection {
    edges { node { id parent parent_asset { name } ancestors { id name parent }
      children(first: 5) { edges { node { id parent ancestors { id } } } }
      asset_rate_brackets { asset organisation product rate_bracket } } } } } }`;

  async function build(size: number): Promise<number> {
    const fin = await kit.financierOf(1);
    const product = await fin.product();
    const bracket = await product.bracket();
    const top = await category(`Counted ${size}`);
    const mid = await top.child({ is_asset: false });
    for (let i = 0; i < size; i++) {
      const node = await mid.child({ is_asset: false });
      await node.child();
      await node.child();
      await bracket.mapTo(node);
      await product.mapTo(node);
    }
    return mid.id;
  }

  const counted = async (parent: number) => {
    const before = t.database.queryCount();
    const res = await gql(broker, TREE, { parent });
    return { queries: t.database.queryCount() - before, res };
  };

  it('30 nodes cost the same queries as 2', async () => {
    const small = await build(2);
    const large = await build(30);
    await counted(small); // warm: caller row and anything first-use
    const a = await counted(small);
    const b = await counted(large);
    expect(a.res.assets.edges).toHaveLength(2);
    expect(b.res.assets.edges).toHaveLength(30);
    const node = b.res.assets.edges[0].node;
    expect(node.ancestors.map((x: any) => x.name)).toEqual(['Counted 30', expect.any(String)]);
    expect(node.children.edges).toHaveLength(2);
    expect(node.asset_rate_brackets).toHaveLength(2);
    expect(node.asset_rate_brackets[0]).toMatchObject({ organisation: 'Harbour Equipment Finance' });
    expect(b.queries).toBe(a.queries);
    // One per relation level and the caller: a constant of the query's shape, not of the rows.
    expect(a.queries).toBeLessThanOrEqual(20);
  });
});

describe('Concurrent re-parents never make a cycle (row locks; PostgreSQL meets the race)', () => {
  it('A under B and B under A at once: one wins, the other is refused with 400 parent_id', async () => {
    for (let round = 0; round < 8; round++) {
      const a = await category(`Race A ${round}`);
      const b = await category(`Race B ${round}`);
      const [x, y] = await Promise.all([
        patch(a.id, { name: a.name, parent_id: b.id }),
        patch(b.id, { name: b.name, parent_id: a.id }),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 400]);
      const loser = x.status === 400 ? x : y;
      expect(Object.keys(loser.body.errors)).toEqual(['parent_id']);
    }
    expect(hasCycle(await t.database.prisma.asset.findMany())).toBe(false);
  });

  it('a longer loop through a chain (A over B over C; C takes A while A moves under C) is refused too', async () => {
    for (let round = 0; round < 6; round++) {
      const a = await category();
      const b = await a.child({ is_asset: false });
      const c = await b.child({ is_asset: false });
      const d = await category();
      const results = await Promise.all([
        patch(d.id, { name: d.name, parent_id: c.id }),
        patch(a.id, { name: a.name, parent_id: d.id }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    }
    expect(hasCycle(await t.database.prisma.asset.findMany())).toBe(false);
  });
});
