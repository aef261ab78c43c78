/**
 * POST /api/v1/products and PATCH /api/v1/products/{id} (spec: Product, Endpoints, Errors): every status each answers.
 * Writes are the caller's own financier's (change_rate_card, write access); another organisation's product answers
 * 404 exactly like a missing one; every change records a restore point in the same transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let admin: string; // financier.admin@demo.test: admin of financier 1
let noPermission: string; // a user of financier 1 without change_rate_card
let otherFinancier: string; // admin of financier 2
let broker: string; // broker.admin@demo.test: an admin, but of a broker
let readToken: string;
let readWriteToken: string;
let otherProductId: number;

async function mint(scope: 'read' | 'read_write'): Promise<string> {
  const res = await t.rest('POST', '/api/v1/api-tokens', { token: admin, body: { name: `products ${scope}`, scope } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.token;
}

beforeAll(async () => {
  t = await startTestApp();
  const kit = seedKit(t.database.prisma);
  await kit.user({ email: 'plain@fin1.test', organisation: 1 });
  await kit.user({ email: 'admin@fin2.test', organisation: 2, is_admin: true });
  admin = (await t.login('financier.admin@demo.test')).access;
  noPermission = (await t.login('plain@fin1.test')).access;
  otherFinancier = (await t.login('admin@fin2.test')).access;
  broker = (await t.login('broker.admin@demo.test')).access;
  readToken = await mint('read');
  readWriteToken = await mint('read_write');
  otherProductId = (await t.database.prisma.product.findFirstOrThrow({ where: { organisation_id: 2 } })).id;
});
afterAll(async () => {
  await t?.close();
});

const post = (token: string | null, body: unknown, headers?: Record<string, string>) =>
  t.rest('POST', '/api/v1/products', { token, body, headers });
const patch = (token: string | null, id: number | string, body: unknown, headers?: Record<string, string>) =>
  t.rest('PATCH', `/api/v1/products/${id}`, { token, body, headers });
const cardVersion = async (organisationId = 1) =>
  (await t.database.prisma.rateCardState.findUnique({ where: { organisation_id: organisationId } }))?.version ?? 0;

describe('POST /products: 201 {id, product_name, message}, the product owned by the caller’s organisation', () => {
  it('creates the product, sets organisation_id from the caller (a body organisation_id is ignored) and records a restore point', async () => {
    const before = await cardVersion();
    const res = await post(admin, { product_name: 'Gold Equipment', organisation_id: 2, min_range: 12, max_range: 60 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'product_name', 'message']);
    expect(res.body.product_name).toBe('Gold Equipment');
    expect(res.headers.get('etag')).toBe(`"${before + 1}"`);
    const stored = await t.database.prisma.product.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.organisation_id).toBe(1);
    const version = await t.database.prisma.rateCardVersion.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(version).toMatchObject({
      organisation_id: 1,
      resource: 'rate_card',
      actor_email: 'financier.admin@demo.test',
      origin: 'app',
      connection_id: null,
      parts_present: ['products', 'rate_brackets'],
    });
    expect(version.reason).toContain(`(id ${res.body.id})`);
    expect((version.payload as any).products.map((p: any) => p.id)).toContain(res.body.id);
    expect(await cardVersion()).toBe(before + 1);
  });

  it('a read_write API token may create; the restore point says it came through an API token', async () => {
    const res = await post(readWriteToken, { product_name: 'Via token' });
    expect(res.status).toBe(201);
    const version = await t.database.prisma.rateCardVersion.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(version.origin).toBe('api_token');
  });
});

describe('POST /products: 400 names every bad field, and nothing is written', () => {
  const cases: [string, unknown, string[]][] = [
    ['product_name missing', { min_range: 1 }, ['product_name']],
    ['product_name blank', { product_name: '   ' }, ['product_name']],
    ['product_name oversized', { product_name: 'x'.repeat(201) }, ['product_name']],
    [
      'a minimum above its maximum (both sent: both named)',
      { product_name: 'P', min_amount: 5000, max_amount: 100 },
      ['min_amount', 'max_amount'],
    ],
    ['unknown compounding_frequency', { product_name: 'P', compounding_frequency: 'd' }, ['compounding_frequency']],
    ['unknown tri-state', { product_name: 'P', home_owner: 'maybe' }, ['home_owner']],
    [
      'negative money',
      { product_name: 'P', monthly_fee: -1, documentation_fee: -0.01 },
      ['monthly_fee', 'documentation_fee'],
    ],
    ['brokerage_cap above 100 percent', { product_name: 'P', brokerage_cap: 101 }, ['brokerage_cap']],
    ['negative term', { product_name: 'P', min_range: -3 }, ['min_range']],
    ['a term that is not an integer', { product_name: 'P', max_range: 12.5 }, ['max_range']],
    ['a number sent as text', { product_name: 'P', max_amount: 'lots' }, ['max_amount']],
  ];
  it.each(cases)('%s', async (_name, body, fields) => {
    const before = await t.database.prisma.product.count();
    const res = await post(admin, body);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
    expect(await t.database.prisma.product.count()).toBe(before);
  });

  it('a non-finite number (1e999 in the JSON) is a 400 on that field', async () => {
    const res = await t.rest('POST', '/api/v1/products', {
      token: admin,
      raw: '{"product_name":"P","max_amount":1e999}',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['max_amount']);
  });

  it('a malformed If-Match is a 400 naming expected_version', async () => {
    const res = await post(admin, { product_name: 'P' }, { 'if-match': '"seven"' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['expected_version']);
  });
});

describe('POST /products: 403 without the right to change this card', () => {
  it.each([
    ['a financier user without change_rate_card', () => noPermission],
    ['a broker admin (brokers keep no rate card)', () => broker],
    ['a read-scope API token', () => readToken],
  ])('403 for %s', async (_name, token) => {
    const before = await t.database.prisma.product.count();
    const res = await post(token(), { product_name: 'P' });
    expect(res.status).toBe(403);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(await t.database.prisma.product.count()).toBe(before);
  });
});

describe('POST /products: 409 {error, current_version} when the expected card version is stale', () => {
  it('body expected_version and If-Match both checked; the current one succeeds', async () => {
    const current = await cardVersion();
    const stale = await post(admin, { product_name: 'Stale', expected_version: current - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'version_conflict', current_version: current });
    const staleHeader = await post(admin, { product_name: 'Stale' }, { 'if-match': `"${current + 5}"` });
    expect(staleHeader.status).toBe(409);
    expect(await t.database.prisma.product.count({ where: { product_name: 'Stale' } })).toBe(0);
    const fresh = await post(admin, { product_name: 'Fresh' }, { 'if-match': `"${current}"` });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('etag')).toBe(`"${current + 1}"`);
  });
});

describe('PATCH /products/{id}: 200 {message, data: Product}', () => {
  it('changes only the fields sent, null clears one, and answers the whole product', async () => {
    const created = await post(admin, { product_name: 'Silver', monthly_fee: 9.5, compounding_frequency: 'q' });
    const res = await patch(admin, created.body.id, {
      product_name: 'Silver Plus',
      monthly_fee: null,
      home_owner: 'both',
    });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.data).toMatchObject({
      id: created.body.id,
      product_name: 'Silver Plus',
      organisation_id: 1,
      monthly_fee: null,
      compounding_frequency: 'q',
      home_owner: 'both',
    });
    for (const field of ['min_range', 'brokerage_cap', 'doc_fee_financed', 'created_at', 'updated_at'])
      expect(res.body.data).toHaveProperty(field);
    const version = await t.database.prisma.rateCardVersion.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(version.reason).toContain('product_name, monthly_fee, home_owner');
  });

  it('400 when a new minimum is above the stored maximum, naming the field sent', async () => {
    const created = await post(admin, { product_name: 'Bounded', max_credit_score: 600 });
    const res = await patch(admin, created.body.id, { min_credit_score: 700 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['min_credit_score']);
  });

  it('400 when product_name is sent blank or null', async () => {
    const created = await post(admin, { product_name: 'Named' });
    expect((await patch(admin, created.body.id, { product_name: null })).status).toBe(400);
    expect((await patch(admin, created.body.id, { product_name: '' })).status).toBe(400);
  });

  it('404, identical, for another organisation’s product and for one that does not exist; nothing changes', async () => {
    const other = await patch(admin, otherProductId, { product_name: 'Taken over' });
    const missing = await patch(admin, 99_999, { product_name: 'Nobody' });
    expect(other.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(other.body).toEqual(missing.body);
    const stored = await t.database.prisma.product.findUniqueOrThrow({ where: { id: otherProductId } });
    expect(stored.product_name).not.toBe('Taken over');
  });

  it('the other financier edits its own product (and only it)', async () => {
    const res = await patch(otherFinancier, otherProductId, { documentation_fee: 250 });
    expect(res.status).toBe(200);
    expect(res.body.data.organisation_id).toBe(2);
  });

  it('403 (no permission, read-scope token) and 409 (stale If-Match)', async () => {
    const created = await post(admin, { product_name: 'Guarded' });
    expect((await patch(noPermission, created.body.id, { product_name: 'X' })).status).toBe(403);
    expect((await patch(readToken, created.body.id, { product_name: 'X' })).status).toBe(403);
    const current = await cardVersion();
    const stale = await patch(admin, created.body.id, { product_name: 'X' }, { 'if-match': `W/"${current - 1}"` });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'version_conflict', current_version: current });
  });

  it('400 for an id that is not an integer', async () => {
    expect((await patch(admin, 'abc', { product_name: 'X' })).status).toBe(400);
  });
});
