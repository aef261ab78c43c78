/**
 * GET /api/v1/rate-card-versions/{id}/diff and POST /api/v1/rate-card-versions/{id}/restore (spec: RateCardVersion,
 * Rate-card versions, Authentication 10): every status each answers. The diff is rate-card versions only: a version
 * of the asset-mapping series, one of another organisation, and one that does not exist answer one identical 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRateCard } from '../../src/modules/rate-cards/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let admin: string; // financier.admin@demo.test: admin of financier 1
let viewer: string; // financier 1, view_rate_card_version only
let noPermission: string; // financier 1, no permission
let otherAdmin: string; // admin of financier 2
let readToken: string;
let firstVersion: number; // financier 1's card after its first recorded change
let otherVersion: number; // financier 2's
let mappingVersion: number; // financier 1's asset-mapping series

const VERSION_KEYS = [
  'id',
  'organisation_id',
  'resource',
  'created_at',
  'reason',
  'pinned',
  'label',
  'parts_present',
  'actor_email',
  'origin',
  'connection',
];

beforeAll(async () => {
  t = await startTestApp();
  const kit = seedKit(t.database.prisma);
  await kit.user({
    email: 'viewer@fin1.test',
    organisation: 1,
    groups: [{ name: 'rc-viewers', permissions: ['view_rate_card_version'] }],
  });
  await kit.user({ email: 'plain@fin1.test', organisation: 1 });
  await kit.user({ email: 'admin@fin2.test', organisation: 2, is_admin: true });
  admin = (await t.login('financier.admin@demo.test')).access;
  viewer = (await t.login('viewer@fin1.test')).access;
  noPermission = (await t.login('plain@fin1.test')).access;
  otherAdmin = (await t.login('admin@fin2.test')).access;
  const minted = await t.rest('POST', '/api/v1/api-tokens', { token: admin, body: { name: 'read', scope: 'read' } });
  readToken = minted.body.token;

  const created = await t.rest('POST', '/api/v1/products', { token: admin, body: { product_name: 'Version one' } });
  firstVersion = (await t.database.prisma.rateCardVersion.findFirstOrThrow({ orderBy: { id: 'desc' } })).id;
  await t.rest('PATCH', `/api/v1/products/${created.body.id}`, { token: admin, body: { product_name: 'Version two' } });
  await t.rest('POST', '/api/v1/products', { token: otherAdmin, body: { product_name: 'Theirs' } });
  otherVersion = (await t.database.prisma.rateCardVersion.findFirstOrThrow({ orderBy: { id: 'desc' } })).id;
  const product = await t.database.prisma.product.findFirstOrThrow({ where: { organisation_id: 1 } });
  const mapped: any = await t
    .graphql(admin)
    .request(
      `mutation { createAssetMapping(input: {asset_id: 11, product_id: ${product.id}}) { __typename ... on RateCardChange { restore_point { id resource } } } }`,
    );
  expect(mapped.createAssetMapping.restore_point.resource).toBe('asset_mapping');
  mappingVersion = mapped.createAssetMapping.restore_point.id;
});
afterAll(async () => {
  await t?.close();
});

const diff = (token: string | null, id: number | string) =>
  t.rest('GET', `/api/v1/rate-card-versions/${id}/diff`, { token });
const restore = (token: string | null, id: number | string, body?: unknown, headers?: Record<string, string>) =>
  t.rest('POST', `/api/v1/rate-card-versions/${id}/restore`, { token, body, headers });

describe('GET /rate-card-versions/{id}/diff: 200 {version, summary_lines, parts, warnings, subtrees}', () => {
  it('answers the version (metadata only, never the payload) and what restoring it would change', async () => {
    const res = await diff(viewer, firstVersion);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['version', 'summary_lines', 'parts', 'warnings', 'subtrees']);
    expect(Object.keys(res.body.version)).toEqual(VERSION_KEYS);
    expect(res.body.version).toMatchObject({
      id: firstVersion,
      organisation_id: 1,
      resource: 'rate_card',
      pinned: false,
      label: '',
      actor_email: 'financier.admin@demo.test',
      origin: 'app',
      connection: null,
    });
    expect(JSON.stringify(res.body)).not.toContain('payload');
    expect(Array.isArray(res.body.summary_lines)).toBe(true);
    expect(res.body.summary_lines.every((l: unknown) => typeof l === 'string')).toBe(true);
    expect(Array.isArray(res.body.warnings)).toBe(true);
    expect(typeof res.body.parts).toBe('object');
    expect(typeof res.body.subtrees).toBe('object');
  });
});

describe('GET /rate-card-versions/{id}/diff: 403 without permission to read version history', () => {
  it.each([['a user without view_rate_card_version', () => noPermission]])('403 for %s', async (_name, token) => {
    const res = await diff(token(), firstVersion);
    expect(res.status).toBe(403);
    expect(Object.keys(res.body)).toEqual(['error']);
  });
  it('401 without credentials', async () => {
    expect((await diff(null, firstVersion)).status).toBe(401);
  });
  it('a read-scope token may read history (a GET)', async () => {
    expect((await diff(readToken, firstVersion)).status).toBe(200);
  });
});

describe('GET /rate-card-versions/{id}/diff: 404, identical, for another series, another organisation, or no version', () => {
  it('asset-mapping version, other financier’s version, missing id: one body', async () => {
    const answers = await Promise.all([diff(admin, mappingVersion), diff(admin, otherVersion), diff(admin, 999_999)]);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404]);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(answers[2].body).toEqual(answers[0].body);
  });
  it('the other financier reads its own version', async () => {
    expect((await diff(otherAdmin, otherVersion)).status).toBe(200);
  });
});

describe('POST /rate-card-versions/{id}/restore: 200 {message, card_version, version, skipped_asset_mappings}', () => {
  it('the card becomes the snapshot, recorded as a new restore point whose reason names the restored one', async () => {
    const stored = await t.database.prisma.rateCardVersion.findUniqueOrThrow({ where: { id: firstVersion } });
    const res = await restore(admin, firstVersion);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['message', 'card_version', 'version', 'skipped_asset_mappings']);
    expect(Object.keys(res.body.version)).toEqual(VERSION_KEYS);
    expect(res.body.version.id).toBeGreaterThan(firstVersion);
    expect(res.body.version.reason).toContain(`version ${firstVersion}`);
    expect(res.headers.get('etag')).toBe(`"${res.body.card_version}"`);
    expect(await readRateCard(t.database.prisma, 1)).toEqual(stored.payload);
    // Restored again: nothing left to change.
    const again = await diff(admin, firstVersion);
    expect(again.body.summary_lines).toEqual((await diff(admin, res.body.version.id)).body.summary_lines);
  });

  it('an asset-mapping version can be restored too', async () => {
    const res = await restore(admin, mappingVersion);
    expect(res.status).toBe(200);
    expect(res.body.version.resource).toBe('asset_mapping');
  });

  it('409 {error, current_version} for a stale expected version (body or If-Match); nothing restored', async () => {
    const current = (await t.database.prisma.rateCardState.findUniqueOrThrow({ where: { organisation_id: 1 } }))
      .version;
    const versions = await t.database.prisma.rateCardVersion.count();
    const stale = await restore(admin, firstVersion, { expected_version: current - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ error: 'version_conflict', current_version: current });
    expect((await restore(admin, firstVersion, undefined, { 'if-match': '"0"' })).status).toBe(409);
    expect(await t.database.prisma.rateCardVersion.count()).toBe(versions);
    expect((await restore(admin, firstVersion, undefined, { 'if-match': `"${current}"` })).status).toBe(200);
  });

  it('403 without restore_rate_card_version (a viewer, a plain user, a read-scope token); 401 without credentials', async () => {
    for (const token of [viewer, noPermission, readToken])
      expect((await restore(token, firstVersion)).status).toBe(403);
    expect((await restore(null, firstVersion)).status).toBe(401);
  });

  it('404, identical, for another organisation’s version and a missing one', async () => {
    const other = await restore(admin, otherVersion);
    const missing = await restore(admin, 999_999);
    expect(other.status).toBe(404);
    expect(missing.body).toEqual(other.body);
  });
});

describe('400 for a malformed id or expected version, after credentials are judged', () => {
  it('diff and restore of a non-integer id, restore with a non-integer expected_version', async () => {
    const badDiff = await diff(viewer, 'abc');
    expect(badDiff.status).toBe(400);
    expect(Object.keys(badDiff.body.errors)).toEqual(['id']);
    expect((await restore(admin, '1.5')).status).toBe(400);
    const badVersion = await restore(admin, firstVersion, { expected_version: 'latest' });
    expect(badVersion.status).toBe(400);
    expect(Object.keys(badVersion.body.errors)).toEqual(['expected_version']);
    expect((await diff(null, 'abc')).status).toBe(401);
  });
});

describe('The diff warns when restoring would remove a bracket an approval still links to', () => {
  it('names the approval in warnings', async () => {
    const before = (
      await t.database.prisma.rateCardVersion.findFirstOrThrow({
        where: { organisation_id: 1, resource: 'rate_card' },
        orderBy: { id: 'desc' },
      })
    ).id;
    const product = await t.database.prisma.product.findFirstOrThrow({ where: { organisation_id: 1 } });
    const created: any = await t
      .graphql(admin)
      .request(
        `mutation { createRateBracket(input: {name: "Linked later", product_id: ${product.id}, base_min: 9, base_max: 11}) { __typename ... on RateCardChange { rate_bracket { id } } } }`,
      );
    const bracketId = created.createRateBracket.rate_bracket.id;
    const approval = await t.database.prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 } });
    await t.database.prisma.approvalRateBracket.create({
      data: { approval_id: approval.id, rate_bracket_id: bracketId },
    });
    const res = await diff(admin, before);
    expect(res.status).toBe(200);
    expect(res.body.warnings.join('\n')).toContain('“Linked later”');
    expect(res.body.warnings.join('\n')).toContain(approval.name);
  });
});
