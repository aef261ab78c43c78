/** Spec: ApiToken resource; Authentication 5 (scopes), 6 (environments), 7 (session-only); reliability AK1. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { API_TOKENS_ENDED_LISTED, API_TOKENS_MAX } from '../../src/modules/auth/service.ts';

let t: TestApp;
let session: string;
beforeAll(async () => {
  t = await startTestApp();
  session = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const mint = (scope: 'read' | 'read_write', token = session) =>
  t.rest('POST', '/api/v1/api-tokens', { token, body: { name: `ci ${scope}`, scope } });

describe('POST /api-tokens: the secret is shown once, at creation', () => {
  it('answers 201 with metadata and a service_sk_ secret; the database keeps only a hash', async () => {
    const res = await mint('read');
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^service_sk_/);
    expect(res.body).toMatchObject({
      name: 'ci read',
      scope: 'read',
      environment: 'local',
      origin: 'ui',
      revoked_at: null,
    });
    expect(res.body.last_four).toBe(res.body.token.slice(-4));
    const row = await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: res.body.id } });
    const secretPart = res.body.token.split('_').slice(3).join('_');
    expect(JSON.stringify(row)).not.toContain(secretPart);
    expect(JSON.stringify(row)).not.toContain(res.body.token);
  });

  it('GET /api-tokens lists metadata only, never a secret', async () => {
    const created = await mint('read_write');
    const list = await t.rest('GET', '/api/v1/api-tokens', { token: session });
    expect(list.status).toBe(200);
    const entry = list.body.find((x: any) => x.id === created.body.id);
    expect(Object.keys(entry).sort()).toEqual([
      'created_at',
      'environment',
      'expires_at',
      'id',
      'last_four',
      'last_used_at',
      'name',
      'origin',
      'revoked_at',
      'scope',
      'token_id',
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
  });

  it('refuses a bad scope or a missing name with 400 naming the field', async () => {
    const bad = await t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: 'x', scope: 'admin' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid request.', errors: { scope: ['Must be one of: read, read_write.'] } });
    const noName = await t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: '  ', scope: 'read' } });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ error: 'Invalid request.', errors: { name: ['This field is required.'] } });
  });
});

describe('POST /api-tokens: a user holds at most 100 live tokens; ended ones never block a new one', () => {
  it('concurrent creates fill the last live slot once; revoking one frees it; the list shows live and recent ended', async () => {
    const own = (await t.login('free.broker@demo.test')).access;
    const user = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'free.broker@demo.test' } });
    const now = Date.now();
    const live = { revoked_at: null, expires_at: { gt: new Date(now) } };
    const held = await t.database.prisma.apiToken.count({ where: { user_id: user.id, ...live } });
    const token = (name: string, extra: { revoked_at?: Date; expires_at: Date }) => ({
      user_id: user.id,
      name,
      token_id: name.replace(/ /g, ''),
      secret_hash: 'x',
      last_four: 'xxxx',
      scope: 'read' as const,
      environment: 'local' as const,
      ...extra,
    });
    await t.database.prisma.apiToken.createMany({
      data: [
        // 150 ended tokens (revoked or expired) that must neither count nor all be listed.
        ...Array.from({ length: 75 }, (_, i) =>
          token(`revoked ${i}`, { revoked_at: new Date(now), expires_at: new Date(now + 86_400_000) }),
        ),
        ...Array.from({ length: 75 }, (_, i) => token(`expired ${i}`, { expires_at: new Date(now - 1000) })),
        ...Array.from({ length: API_TOKENS_MAX - 1 - held }, (_, i) =>
          token(`live ${i}`, { expires_at: new Date(now + 86_400_000) }),
        ),
      ],
    });
    const create = () =>
      t.rest('POST', '/api/v1/api-tokens', { token: own, body: { name: 'one more', scope: 'read' } });
    const answers = await Promise.all([create(), create()]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    const refused = answers.find((a) => a.status === 400)!;
    expect(Object.keys(refused.body.errors)).toEqual(['name']);
    expect(refused.body.errors.name[0]).toMatch(/100 live API tokens/);

    const list = await t.rest('GET', '/api/v1/api-tokens', { token: own });
    expect(list.status).toBe(200);
    const ended = list.body.filter(
      (x: { revoked_at: string | null; expires_at: string }) => x.revoked_at || Date.parse(x.expires_at) <= Date.now(),
    );
    expect(list.body.length - ended.length).toBe(API_TOKENS_MAX);
    expect(ended).toHaveLength(API_TOKENS_ENDED_LISTED);
    expect(list.body.map((x: { id: number }) => x.id)).toEqual(
      [...list.body.map((x: { id: number }) => x.id)].sort((p, q) => p - q),
    );

    const oneLive = list.body.find((x: { name: string }) => x.name === 'one more');
    expect((await t.rest('DELETE', `/api/v1/api-tokens/${oneLive.id}`, { token: own })).status).toBe(204);
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(400);
  });
});

describe('Authentication 5: API-token scope', () => {
  it('a read token may GET but may not change data', async () => {
    const read = (await mint('read')).body.token;
    expect((await t.rest('GET', '/api/v1/api-tokens', { token: read })).status).toBe(200);
    expect((await t.rest('GET', '/api/v1/feature-flags', { token: read })).status).toBe(200);
    const me = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } });
    const put = await t.rest('PUT', `/api/v1/users/${me.id}`, { token: read, body: { first_name: 'Changed' } });
    expect(put.status).toBe(403);
    expect((await t.database.prisma.user.findUniqueOrThrow({ where: { id: me.id } })).first_name).not.toBe('Changed');
  });

  it("a read_write token may change data, within its owner's own permissions", async () => {
    const rw = (await mint('read_write')).body.token;
    const me = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } });
    const put = await t.rest('PUT', `/api/v1/users/${me.id}`, { token: rw, body: { first_name: 'Alex' } });
    expect(put.status).toBe(200);
    expect(put.body.first_name).toBe('Alex');
    const other = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'free.broker@demo.test' } });
    expect((await t.rest('PUT', `/api/v1/users/${other.id}`, { token: rw, body: { first_name: 'X' } })).status).toBe(
      404,
    );
  });

  it('no API token can mint another (session only)', async () => {
    const rw = (await mint('read_write')).body.token;
    expect((await mint('read', rw)).status).toBe(403);
  });
});

describe('Authentication 6: a token is accepted only by the environment that issued it', () => {
  it('a token issued in local is 401 once the service runs as prod', async () => {
    const token = (await mint('read')).body.token;
    const row = await t.database.prisma.apiToken.findFirstOrThrow({ where: { last_four: token.slice(-4) } });
    await t.database.prisma.apiToken.update({ where: { id: row.id }, data: { environment: 'prod' } });
    expect((await t.rest('GET', '/api/v1/api-tokens', { token })).status).toBe(401);
  });
});

describe('DELETE /api-tokens/{id}: revocation', () => {
  it("answers 204, the token then gives 401, a second revoke keeps the first time, another user's token is 404", async () => {
    const created = (await mint('read')).body;
    expect((await t.rest('DELETE', `/api/v1/api-tokens/${created.id}`, { token: session })).status).toBe(204);
    expect((await t.rest('GET', '/api/v1/api-tokens', { token: created.token })).status).toBe(401);
    const first = (await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } })).revoked_at;
    expect((await t.rest('DELETE', `/api/v1/api-tokens/${created.id}`, { token: session })).status).toBe(204);
    expect((await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } })).revoked_at).toEqual(
      first,
    );
    const stranger = (await t.login('free.broker@demo.test')).access;
    expect((await t.rest('DELETE', `/api/v1/api-tokens/${created.id}`, { token: stranger })).status).toBe(404);
  });
});

describe('GraphQL: the same operations', () => {
  it('createApiToken returns the secret once and apiTokens never does', async () => {
    const client = t.graphql(session);
    const created = await client.request<any>(`mutation { createApiToken(name: "gql", scope: read) {
      __typename ... on CreatedApiToken { secret token { id token_id } } } }`);
    expect(created.createApiToken.secret).toMatch(/^service_sk_/);
    const listed = await client.request<any>(
      '{ apiTokens { ... on QueryApiTokensSuccess { data { id token_id last_four } } } }',
    );
    expect(JSON.stringify(listed)).not.toContain(created.createApiToken.secret);
  });
});
