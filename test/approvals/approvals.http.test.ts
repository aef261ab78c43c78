/**
 * GET /api/v1/approvals, PUT /api/v1/approvals/{id}, GET /api/v1/approvals/options over real HTTP on the demo
 * catalogue (spec: Approval resource, Catalogue endpoints, Authentication 10, Errors). Demo: financier.admin (org 1,
 * Harbour Equipment Finance, admin) owns approvals 1..; org 2 is another financier; broker.admin is a broker admin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type UserSeed } from '../../testkit/seed.ts';
import { ANZSIC_DIVISION_CODES, DOC_LEVELS, TRANSACTION_TYPES } from '../../src/lib/vocabulary.ts';
import { say } from '../../src/lib/wording.ts';
import { newApiTokenSecret, sha256 } from '../../src/modules/auth/tokens.ts';

let t: TestApp;
let financier: string; // org 1 admin (session)
let broker: string; // broker admin (session): holds every permission, but of a broker
let plainFinancierUser: string; // org 1, no change_approval
let editor: string; // org 1, change_approval through a group, not an admin
let readToken: string; // org 1 admin's read API token
let writeToken: string; // org 1 admin's read_write API token
let own: number; // an approval of org 1
let foreign: number; // an approval of org 2
let ownBrackets: number[];
let foreignBracket: number;
let otherFinancierEditor: UserSeed;
let mcpToken: string; // an AI assistant's token: accepted only at POST /mcp

const SPEC_FIELDS = [
  'id',
  'name',
  'doc_level',
  'organisation_id',
  'priority',
  'min_deposit_percentage',
  'min_deposit_amount',
  'max_term',
  'min_term',
  'min_abn_age',
  'max_abn_age',
  'min_gst_age',
  'max_gst_age',
  'min_asset_age',
  'max_asset_age',
  'min_asset_cost',
  'max_asset_cost',
  'min_borrower_age',
  'max_borrower_age',
  'min_file_age',
  'max_file_age',
  'min_credit_score',
  'max_credit_score',
  'home_owner',
  'private_sale',
  'sale_hire_back',
  'asset_state',
  'transaction_types',
  'industries',
  'asset_ids',
  'assets',
  'rate_bracket_ids',
];

const put = (id: number | string, body: unknown, token: string | null = financier, headers?: Record<string, string>) =>
  t.rest('PUT', `/api/v1/approvals/${id}`, { token, body, headers });

beforeAll(async () => {
  t = await startTestApp();
  const kit = seedKit(t.database.prisma);
  const prisma = t.database.prisma;
  financier = (await t.login('financier.admin@demo.test')).access;
  broker = (await t.login('broker.admin@demo.test')).access;
  const org1 = await kit.financierOf(1);
  const plain = await org1.user({ email: 'plain@fin1.test' });
  plainFinancierUser = (await t.login(plain.email)).access;
  const ed = await org1.user({
    email: 'editor@fin1.test',
    groups: [{ name: 'Approval editors', permissions: ['change_approval'] }],
  });
  editor = (await t.login(ed.email)).access;
  otherFinancierEditor = await (await kit.financierOf(2)).user({
    email: 'editor@fin2.test',
    groups: ['Approval editors'],
  });
  readToken = (await t.rest('POST', '/api/v1/api-tokens', { token: financier, body: { name: 'r', scope: 'read' } }))
    .body.token;
  writeToken = (
    await t.rest('POST', '/api/v1/api-tokens', { token: financier, body: { name: 'rw', scope: 'read_write' } })
  ).body.token;
  const secret = newApiTokenSecret();
  const financierAdmin = await prisma.user.findUniqueOrThrow({ where: { email: 'financier.admin@demo.test' } });
  await prisma.apiToken.create({
    data: {
      user_id: financierAdmin.id,
      name: 'assistant',
      token_id: secret.tokenId,
      secret_hash: sha256(secret.secret),
      last_four: secret.token.slice(-4),
      scope: 'read_write',
      environment: t.config.environment,
      origin: 'mcp',
      created_at: new Date(),
      expires_at: new Date(Date.now() + 86_400_000),
    } as never,
  });
  mcpToken = secret.token;
  own = (await prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).id;
  foreign = (await prisma.approval.findFirstOrThrow({ where: { organisation_id: 2 }, orderBy: { id: 'asc' } })).id;
  ownBrackets = (await prisma.rateBracket.findMany({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).map(
    (b) => b.id,
  );
  foreignBracket = (await prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: 2 } })).id;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /approvals: a list of Approval, readable by any signed-in caller (Authentication 10)', () => {
  it('answers 200 with every approval in the spec field names, by financier, priority (highest first), id', async () => {
    const res = await t.rest('GET', '/api/v1/approvals', { token: broker });
    expect(res.status).toBe(200);
    const all = await t.database.prisma.approval.findMany();
    expect(res.body).toHaveLength(all.length);
    expect(res.headers.get('x-total-count')).toBe(String(all.length));
    for (const a of res.body) expect(Object.keys(a)).toEqual(SPEC_FIELDS);
    const order = res.body.map((a: any) => [a.organisation_id, -a.priority, a.id]);
    const sorted = [...order].sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    expect(order).toEqual(sorted);
  });

  it('shows money as strings at the column scale, and the lists (asset_ids = assets, rate_bracket_ids)', async () => {
    const res = await t.rest('GET', '/api/v1/approvals?organisation_id=1', { token: financier });
    const first = res.body.find((a: any) => a.id === 1);
    // Demo approval 1: max_asset_cost "150000", asset_ids [1, 2, 3], rate brackets 5 and 6.
    expect(first).toMatchObject({
      name: 'Low Doc, ABN 2 years, asset-backed',
      doc_level: 'low_doc',
      organisation_id: 1,
      priority: 10,
      max_asset_cost: '150000.00',
      min_asset_cost: null,
      min_deposit_percentage: null,
      home_owner: true,
      private_sale: null,
      asset_state: 'none',
      transaction_types: ['purchase', 'refinance'],
      industries: [],
      asset_ids: [1, 2, 3],
      assets: [1, 2, 3],
      rate_bracket_ids: [5, 6],
    });
  });

  it('organisation_id filters to one financier', async () => {
    const res = await t.rest('GET', '/api/v1/approvals?organisation_id=2', { token: broker });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((a: any) => a.organisation_id === 2)).toBe(true);
    const none = await t.rest('GET', '/api/v1/approvals?organisation_id=999999', { token: broker });
    expect(none.body).toEqual([]);
  });

  it('a read API token may read', async () => {
    const res = await t.rest('GET', '/api/v1/approvals?organisation_id=1', { token: readToken });
    expect(res.status).toBe(200);
  });

  it('a bad organisation_id is 400 naming it', async () => {
    for (const bad of ['abc', '1.5', '1e3', '99999999999']) {
      const res = await t.rest('GET', `/api/v1/approvals?organisation_id=${bad}`, { token: broker });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['organisation_id']);
    }
  });

  it('without credentials is 401', async () => {
    const res = await t.rest('GET', '/api/v1/approvals', {});
    expect(res.status).toBe(401);
    expect(res.body.error).toBeTypeOf('string');
  });

  it("an AI assistant's token is 403 here, as everywhere but /mcp (Authentication 8)", async () => {
    const res = await t.rest('GET', '/api/v1/approvals', { token: mcpToken });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: say('forbidden_mcp_token', 'web') });
  });

  it('a path below /approvals that is no endpoint is 404', async () => {
    expect((await t.rest('GET', '/api/v1/approvals/1', { token: broker })).status).toBe(404);
  });
});

describe('GET /approvals: the list is capped at 1000, X-Total-Count says how many matched', () => {
  it('answers the first 1000 in list order when more match', async () => {
    const kit = seedKit(t.database.prisma);
    const big = await kit.financier({ name: 'Many Approvals Finance' });
    await t.database.prisma.approval.createMany({
      data: Array.from({ length: 1005 }, (_, i) => ({
        name: `Bulk ${i}`,
        doc_level: 'full_doc' as const,
        organisation_id: big.id,
        priority: i % 7,
      })),
    });
    const res = await t.rest('GET', `/api/v1/approvals?organisation_id=${big.id}`, { token: broker });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1000);
    expect(res.headers.get('x-total-count')).toBe('1005');
    expect(res.body[0].priority).toBe(6);
    await t.database.prisma.approval.deleteMany({ where: { organisation_id: big.id } });
  });
});

describe('GET /approvals/options: doc levels, transaction types and industries as LabelledOption lists', () => {
  it('answers the vocabulary lists, each value with a label', async () => {
    const res = await t.rest('GET', '/api/v1/approvals/options', { token: readToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['doc_levels', 'transaction_types', 'industries']);
    expect(res.body.doc_levels.map((o: any) => o.value)).toEqual([...DOC_LEVELS]);
    expect(res.body.transaction_types.map((o: any) => o.value)).toEqual([...TRANSACTION_TYPES]);
    expect(res.body.industries.map((o: any) => o.value)).toEqual([...ANZSIC_DIVISION_CODES]);
    expect(res.body.industries[4]).toEqual({ value: 'E', label: 'Construction' });
    expect(res.body.doc_levels[0]).toEqual({ value: 'low_doc', label: 'Low doc' });
    for (const list of Object.values(res.body) as any[])
      for (const o of list) expect(Object.keys(o)).toEqual(['value', 'label']);
  });

  it('without credentials is 401; an assistant token 403', async () => {
    expect((await t.rest('GET', '/api/v1/approvals/options', {})).status).toBe(401);
    expect((await t.rest('GET', '/api/v1/approvals/options', { token: mcpToken })).status).toBe(403);
  });
});

describe('PUT /approvals/{id}: full replacement of the writable fields; 200 answers the Approval', () => {
  it('replaces every field sent and clears every optional field left out (PUT: absent = null, empty or none)', async () => {
    const full = {
      name: '  Full replacement  ',
      doc_level: 'full_doc',
      priority: 3.5,
      min_deposit_percentage: '12.5',
      min_deposit_amount: 2500,
      max_term: 72,
      min_term: 12,
      min_abn_age: 24,
      max_abn_age: 600,
      min_gst_age: 12,
      max_gst_age: 600,
      min_asset_age: 0,
      max_asset_age: 240,
      min_asset_cost: '10000',
      max_asset_cost: '250000.50',
      min_borrower_age: 18,
      max_borrower_age: 80,
      min_file_age: 6,
      max_file_age: 1200,
      min_credit_score: 500,
      max_credit_score: 1200,
      home_owner: false,
      private_sale: true,
      sale_hire_back: null,
      asset_state: 'used',
      transaction_types: ['refinance', 'purchase', 'refinance'],
      industries: ['E', 'A'],
      asset_ids: [2, 1, 2],
      rate_bracket_ids: ownBrackets.slice(0, 2),
    };
    const res = await put(own, full);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SPEC_FIELDS);
    expect(res.body).toMatchObject({
      id: own,
      name: 'Full replacement',
      organisation_id: 1,
      priority: 3.5,
      min_deposit_percentage: '12.5000',
      min_deposit_amount: '2500.00',
      min_asset_cost: '10000.00',
      max_asset_cost: '250000.50',
      home_owner: false,
      private_sale: true,
      sale_hire_back: null,
      asset_state: 'used',
      transaction_types: ['refinance', 'purchase'],
      industries: ['E', 'A'],
      asset_ids: [2, 1],
      assets: [2, 1],
      rate_bracket_ids: ownBrackets.slice(0, 2),
    });
    // The next GET reads what was stored.
    const list = await t.rest('GET', '/api/v1/approvals?organisation_id=1', { token: financier });
    expect(list.body.find((a: any) => a.id === own)).toEqual(res.body);

    const minimal = await put(own, { name: 'Minimal', doc_level: 'lite_doc' });
    expect(minimal.status).toBe(200);
    const {
      id,
      name,
      doc_level,
      organisation_id,
      priority,
      transaction_types,
      industries,
      asset_ids,
      assets,
      rate_bracket_ids,
      asset_state,
      ...criteria
    } = minimal.body;
    expect({ id, name, doc_level, organisation_id, priority }).toEqual({
      id: own,
      name: 'Minimal',
      doc_level: 'lite_doc',
      organisation_id: 1,
      priority: 0,
    });
    expect({ transaction_types, industries, asset_ids, assets, rate_bracket_ids }).toEqual({
      transaction_types: [],
      industries: [],
      asset_ids: [],
      assets: [],
      rate_bracket_ids: [],
    });
    expect(asset_state).toBe('none'); // not checked: the spec's enum has no null (docs/api-decisions.md)
    for (const value of Object.values(criteria)) expect(value).toBeNull();
  });

  it('a read_write API token and a non-admin holding change_approval may write', async () => {
    expect((await put(own, { name: 'By token', doc_level: 'low_doc' }, writeToken)).status).toBe(200);
    expect((await put(own, { name: 'By editor', doc_level: 'low_doc' }, editor)).status).toBe(200);
  });

  it('`assets` alone is read as asset_ids', async () => {
    const res = await put(own, { name: 'Assets', doc_level: 'low_doc', assets: [3] });
    expect(res.status).toBe(200);
    expect(res.body.asset_ids).toEqual([3]);
  });

  it('fields the endpoint does not define (id, created_at) are ignored, never stored', async () => {
    const res = await put(own, { name: 'Ignored', doc_level: 'low_doc', id: 999, created_at: '2000-01-01' });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(own);
  });
});

describe("PUT /approvals/{id}: the organisation is always the caller's; an approval never moves", () => {
  it('accepts organisation_id equal to its own (a GET body sent back as it is)', async () => {
    const current = (await t.rest('GET', '/api/v1/approvals?organisation_id=1', { token: financier })).body.find(
      (a: any) => a.id === own,
    );
    const res = await put(own, current);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(current);
  });

  it('refuses another organisation_id with 400 naming it, and changes nothing', async () => {
    const before = await t.database.prisma.approval.findUniqueOrThrow({ where: { id: own } });
    const res = await put(own, { name: 'Moved', doc_level: 'low_doc', organisation_id: 2 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['organisation_id']);
    expect(await t.database.prisma.approval.findUniqueOrThrow({ where: { id: own } })).toEqual(before);
  });
});

describe('PUT /approvals/{id}: 400 names every bad field; nothing is written', () => {
  it('names every broken rule at once', async () => {
    const before = await t.database.prisma.approval.findUniqueOrThrow({ where: { id: own } });
    const res = await put(own, {
      name: '   ',
      doc_level: 'low_doc',
      priority: 1e9,
      min_deposit_percentage: 101,
      min_deposit_amount: -1,
      min_term: 60,
      max_term: 12,
      min_abn_age: -3,
      min_borrower_age: 200,
      min_asset_cost: '500.555',
      max_credit_score: 100,
      min_credit_score: 900,
      industries: ['Z', 'E'],
      asset_ids: [1, 999999],
      rate_bracket_ids: [ownBrackets[0], foreignBracket, 999999],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBeTypeOf('string');
    expect(Object.keys(res.body.errors).sort()).toEqual(
      [
        'name',
        'priority',
        'min_deposit_percentage',
        'min_deposit_amount',
        'max_term',
        'min_abn_age',
        'min_borrower_age',
        'min_asset_cost',
        'max_credit_score',
        'industries',
        'asset_ids',
        'rate_bracket_ids',
      ].sort(),
    );
    for (const messages of Object.values(res.body.errors) as string[][]) {
      expect(messages.length).toBeGreaterThan(0);
      for (const m of messages) expect(m).toMatch(/^[A-Z].*\.$/);
    }
    expect(res.body.errors.max_term).toEqual(['Must be at least min_term (60).']);
    expect(res.body.errors.rate_bracket_ids[0]).toContain(String(foreignBracket));
    expect(await t.database.prisma.approval.findUniqueOrThrow({ where: { id: own } })).toEqual(before);
  });

  it('name and doc_level are required', async () => {
    const res = await put(own, {});
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['doc_level', 'name']);
  });

  it('unknown enum values and wrong types name the field', async () => {
    const res = await put(own, {
      name: 'x',
      doc_level: 'no_doc',
      asset_state: 'broken',
      max_term: 'ten',
      home_owner: 'yes',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['asset_state', 'doc_level', 'home_owner', 'max_term']);
    const list = await put(own, { name: 'x', doc_level: 'low_doc', transaction_types: ['lease'] });
    expect(list.status).toBe(400);
    expect(Object.keys(list.body.errors)[0]).toMatch(/^transaction_types/);
  });

  it('absurd sizes are refused: long names, long lists', async () => {
    const res = await put(own, {
      name: 'n'.repeat(201),
      doc_level: 'low_doc',
      asset_ids: Array.from({ length: 501 }, (_, i) => i + 1),
      rate_bracket_ids: Array.from({ length: 501 }, (_, i) => i + 1),
      industries: Array.from({ length: 101 }, () => 'A'),
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['asset_ids', 'industries', 'name', 'rate_bracket_ids']);
  });

  it('assets and asset_ids sent together must agree', async () => {
    const res = await put(own, { name: 'x', doc_level: 'low_doc', asset_ids: [1], assets: [2] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['assets']);
  });

  it('a path id that is not an integer is 400 naming id', async () => {
    const res = await put('abc', { name: 'x', doc_level: 'low_doc' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['id']);
  });
});

describe("PUT /approvals/{id}: another organisation's approval is 403, a missing one 404 (Errors table)", () => {
  it("refuses another financier's approval with 403 and leaves it unchanged", async () => {
    const before = await t.database.prisma.approval.findUniqueOrThrow({ where: { id: foreign } });
    const res = await put(foreign, { name: 'Hijacked', doc_level: 'low_doc' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: say('forbidden', 'web') });
    const otherEditor = (await t.login(otherFinancierEditor.email)).access;
    const ownOfOther = await put(own, { name: 'Hijacked', doc_level: 'low_doc' }, otherEditor);
    expect(ownOfOther.status).toBe(403);
    expect(await t.database.prisma.approval.findUniqueOrThrow({ where: { id: foreign } })).toEqual(before);
  });

  it('answers 404 for an approval that does not exist', async () => {
    const res = await put(999999, { name: 'x', doc_level: 'low_doc' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Approval not found.' });
  });
});

describe('PUT /approvals/{id}: needs change_approval, a financier organisation and write access (Authentication 5, 10)', () => {
  it('without credentials is 401', async () => {
    expect((await put(own, { name: 'x', doc_level: 'low_doc' }, null)).status).toBe(401);
  });

  it('a read API token is 403 with the read-scope sentence, worded for X-Service-Client', async () => {
    const web = await put(own, { name: 'x', doc_level: 'low_doc' }, readToken);
    expect(web.status).toBe(403);
    expect(web.body).toEqual({ error: say('forbidden_read_scope', 'web') });
    const ios = await put(own, { name: 'x', doc_level: 'low_doc' }, readToken, { 'X-Service-Client': 'ios' });
    expect(ios.status).toBe(403);
    expect(ios.body).toEqual({ error: say('forbidden_read_scope', 'mobile') });
  });

  it('a financier user without change_approval is 403', async () => {
    const res = await put(own, { name: 'x', doc_level: 'low_doc' }, plainFinancierUser);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: say('forbidden', 'web') });
  });

  it('a broker admin (every permission, but no approvals of its own) is 403', async () => {
    const res = await put(own, { name: 'x', doc_level: 'low_doc' }, broker);
    expect(res.status).toBe(403);
  });
});
