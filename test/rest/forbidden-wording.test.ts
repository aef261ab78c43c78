/**
 * Every 403 the REST routes can produce is a worded sentence that follows X-Service-Client (Authentication 11), and
 * no refusal body names a GraphQL type or field (scope-auth's "Not authorized to resolve Mutation.updateUser").
 * The catalogue-maintenance routes' success messages follow X-Service-Client too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { schema } from '../../src/graphql-server/schema.ts';
import { newApiTokenSecret, sha256 } from '../../src/modules/auth/tokens.ts';
import { WORDING, say, type WordingKey } from '../../src/lib/wording.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let admin: string; // broker.admin@demo.test, a session
let financier: string; // financier.admin@demo.test, who maintains financier 1's rate card
let member: string; // broker.user@demo.test, not an admin
let readToken: string;
let readWriteToken: string;
let mcpToken: string;
let memberId: number;
let adminId: number;

async function mint(scope: 'read' | 'read_write'): Promise<string> {
  const res = await t.rest('POST', '/api/v1/api-tokens', { token: admin, body: { name: `403 ${scope}`, scope } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.token;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('broker.admin@demo.test')).access;
  member = (await t.login('broker.user@demo.test')).access;
  financier = (await t.login('financier.admin@demo.test')).access;
  readToken = await mint('read');
  readWriteToken = await mint('read_write');
  const prisma = t.database.prisma;
  adminId = (await prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
  memberId = (await prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
  const secret = newApiTokenSecret();
  await prisma.apiToken.create({
    data: {
      user_id: adminId,
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
});
afterAll(async () => {
  await t?.close();
});

/**
 * Runs `send` with every mobile sentence of the wording catalogue marked ("On mobile: ..."), so an answer that carries
 * the mark was worded by the catalogue for the mobile client, and one without it was not. Restored afterwards.
 */
async function withMobileMarked<T>(send: () => Promise<T>): Promise<T> {
  type Wording = (p: Record<string, string | number>) => string;
  const entries = WORDING as unknown as Record<WordingKey, { mobile: Wording }>;
  const saved = new Map<WordingKey, Wording>();
  for (const key of Object.keys(entries) as WordingKey[]) {
    const mobile = entries[key].mobile;
    saved.set(key, mobile);
    entries[key].mobile = (p) => `On mobile: ${mobile(p)}`;
  }
  try {
    return await send();
  } finally {
    for (const [key, mobile] of saved) entries[key].mobile = mobile;
  }
}
const MARK = /^On mobile: /;

const DEAL = { cost: 50000, asset_value: 11, term: 48, advance_arrears: 'arrears', repayment_frequency: 'monthly' };

/** Every 403 a REST route can answer, with the request that provokes it. */
const REFUSALS: [name: string, request: () => [method: string, url: string, token: string, body?: unknown]][] = [
  ['read-scope token changes a user', () => ['PUT', `/api/v1/users/${memberId}`, readToken, { first_name: 'X' }]],
  ['read-scope token revokes a token', () => ['DELETE', '/api/v1/api-tokens/1', readToken]],
  [
    'read-scope token promotes a scenario',
    () => ['POST', '/api/v1/calculator/scenarios/1/promote', readToken, { name: 'x' }],
  ],
  [
    'read-scope token creates a token (session only)',
    () => ['POST', '/api/v1/api-tokens', readToken, { name: 'x', scope: 'read' }],
  ],
  [
    'read_write token creates a token (session only)',
    () => ['POST', '/api/v1/api-tokens', readWriteToken, { name: 'x', scope: 'read' }],
  ],
  ['MCP token reads', () => ['GET', '/api/v1/api-tokens', mcpToken]],
  ['MCP token computes', () => ['POST', '/api/v1/calculator/', mcpToken, DEAL]],
  ['MCP token changes a user', () => ['PUT', `/api/v1/users/${adminId}`, mcpToken, { first_name: 'X' }]],
  ['a member edits another user', () => ['PUT', `/api/v1/users/${adminId}`, member, { first_name: 'X' }]],
  ['a member raises their own rights', () => ['PUT', `/api/v1/users/${memberId}`, member, { is_admin: true }]],
  ['an admin deactivates themself', () => ['PUT', `/api/v1/users/${adminId}`, admin, { is_active: false }]],
  // Catalogue maintenance: a broker (even an admin, who holds every permission) maintains no financier's catalogue.
  [
    'a broker member edits an approval',
    () => ['PUT', '/api/v1/approvals/1', member, { name: 'x', doc_level: 'low_doc' }],
  ],
  ['a broker admin creates a product', () => ['POST', '/api/v1/products', admin, { product_name: 'x' }]],
  ['a broker admin changes a product', () => ['PATCH', '/api/v1/products/1', admin, { product_name: 'x' }]],
  ['a read-scope token changes a product', () => ['PATCH', '/api/v1/products/1', readToken, { product_name: 'x' }]],
  ['a broker member renames an asset', () => ['PATCH', '/api/v1/assets/1', member, { name: 'x' }]],
  ['a broker member reads a rate-card version diff', () => ['GET', '/api/v1/rate-card-versions/1/diff', member]],
  ['a broker admin restores a rate-card version', () => ['POST', '/api/v1/rate-card-versions/1/restore', admin, {}]],
  [
    'a broker admin imports a rate card',
    () => ['POST', '/api/v1/rate-cards/import', admin, { format: 'csv', content: 'x', expected_version: 0 }],
  ],
  [
    'a broker admin previews a rate-card import',
    () => ['POST', '/api/v1/rate-cards/import/preview', admin, { format: 'csv', content: 'x' }],
  ],
];

/** GraphQL vocabulary a client must never see: multi-word type names, camelCase field names, `Type.field`. */
const graphqlWords = (() => {
  const words = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (/[a-z][A-Z]/.test(type.name)) words.add(type.name);
    if (isObjectType(type)) for (const f of Object.keys(type.getFields())) if (/[a-z][A-Z]/.test(f)) words.add(f);
  }
  return [...words];
})();

function expectWorded(text: unknown): void {
  expect(typeof text).toBe('string');
  const sentence = text as string;
  expect(sentence, 'a sentence').toMatch(/^[A-Z].*[.!]$/);
  expect(sentence).not.toMatch(/not authorized to resolve|\b(Query|Mutation)\.\w+/i);
  for (const word of graphqlWords) expect(sentence, `names ${word}`).not.toMatch(new RegExp(`\\b${word}\\b`));
}

describe('403 bodies: a worded sentence, for web and for ios, naming no GraphQL type or field', () => {
  it('the schema vocabulary this test guards against is not empty', () => {
    expect(graphqlWords).toEqual(expect.arrayContaining(['updateUser', 'MutationUpdateUserResult']));
  });

  for (const [name, request] of REFUSALS) {
    it(name, async () => {
      const [method, url, token, body] = request();
      const bodies: Record<string, any> = {};
      for (const client of ['web', 'ios'] as const) {
        const res = await t.rest(method, url, {
          token,
          body,
          headers: client === 'web' ? {} : { 'X-Service-Client': client },
        });
        expect(res.status, `${client}: ${JSON.stringify(res.body)}`).toBe(403);
        expectWorded(res.body.error);
        bodies[client] = res.body;
      }
      // Mobile sentences state a fact only.
      expect(JSON.stringify(bodies.ios)).not.toMatch(/plan|upgrade|\$|https?:|\/settings/i);
      // The sentence comes from the catalogue, for the client the header names.
      const marked = await withMobileMarked(async () => ({
        web: await t.rest(method, url, { token, body }),
        ios: await t.rest(method, url, { token, body, headers: { 'X-Service-Client': 'ios' } }),
      }));
      expect(marked.ios.body.error, 'ios: the catalogue’s mobile sentence').toBe(`On mobile: ${bodies.ios.error}`);
      expect(marked.web.body.error, 'web: the catalogue’s web sentence').toBe(bodies.web.error);
      expect(marked.web.body.error).not.toMatch(MARK);
    });
  }

  it('the read-scope sentence follows the client: web names the scope, ios states the fact', async () => {
    const web = await t.rest('PUT', `/api/v1/users/${memberId}`, { token: readToken, body: { first_name: 'X' } });
    const ios = await t.rest('PUT', `/api/v1/users/${memberId}`, {
      token: readToken,
      body: { first_name: 'X' },
      headers: { 'X-Service-Client': 'ios' },
    });
    expect(web.body.error).toMatch(/read_write/);
    expect(ios.body.error).not.toBe(web.body.error);
  });

  it('GraphQL answers the same sentences (a typed ForbiddenError)', async () => {
    const data = await t
      .graphql(readToken)
      .request<any>(
        `mutation($id: Int!) { updateUser(id: $id, input: {first_name: "X"}) { __typename ... on ForbiddenError { message } } }`,
        { id: memberId },
      );
    expect(data.updateUser.__typename).toBe('ForbiddenError');
    expectWorded(data.updateUser.message);
  });
});

describe('catalogue maintenance: the success message follows X-Service-Client', () => {
  const cardVersion = async () =>
    (await t.database.prisma.rateCardState.findUnique({ where: { organisation_id: 1 } }))?.version ?? 0;

  it('POST /products: 201 message is the catalogue’s product_created for the client', async () => {
    const answers = await withMobileMarked(async () => ({
      web: await t.rest('POST', '/api/v1/products', { token: financier, body: { product_name: 'Worded web' } }),
      ios: await t.rest('POST', '/api/v1/products', {
        token: financier,
        body: { product_name: 'Worded ios' },
        headers: { 'X-Service-Client': 'ios' },
      }),
    }));
    expect([answers.web.status, answers.ios.status]).toEqual([201, 201]);
    expect(answers.web.body.message).toBe(say('product_created', 'web'));
    expect(answers.ios.body.message).toBe(`On mobile: ${say('product_created', 'mobile')}`);
  });

  it('PATCH /products/{id}: 200 message is the catalogue’s product_updated for the client', async () => {
    const { id } = await t.database.prisma.product.findFirstOrThrow({ where: { organisation_id: 1 } });
    const answers = await withMobileMarked(async () => ({
      web: await t.rest('PATCH', `/api/v1/products/${id}`, { token: financier, body: { monthly_fee: 5 } }),
      ios: await t.rest('PATCH', `/api/v1/products/${id}`, {
        token: financier,
        body: { monthly_fee: 6 },
        headers: { 'X-Service-Client': 'ios' },
      }),
    }));
    expect([answers.web.status, answers.ios.status]).toEqual([200, 200]);
    expect(answers.web.body.message).toBe(say('product_updated', 'web'));
    expect(answers.ios.body.message).toBe(`On mobile: ${say('product_updated', 'mobile')}`);
  });

  it('POST /rate-card-versions/{id}/restore: 200 message is the catalogue’s rate_card_version_restored for the client', async () => {
    const change = await t.rest('POST', '/api/v1/products', { token: financier, body: { product_name: 'To restore' } });
    expect(change.status).toBe(201);
    const { id } = await t.database.prisma.rateCardVersion.findFirstOrThrow({
      where: { organisation_id: 1, resource: 'rate_card' },
      orderBy: { id: 'desc' },
    });
    const restore = (headers: Record<string, string>) =>
      t.rest('POST', `/api/v1/rate-card-versions/${id}/restore`, { token: financier, body: {}, headers });
    const before = await cardVersion();
    const answers = await withMobileMarked(async () => ({
      web: await restore({}),
      ios: await restore({ 'X-Service-Client': 'ios' }),
    }));
    expect([answers.web.status, answers.ios.status]).toEqual([200, 200]);
    expect(answers.web.body.message).toBe(say('rate_card_version_restored', 'web'));
    expect(answers.ios.body.message).toBe(`On mobile: ${say('rate_card_version_restored', 'mobile')}`);
    expect(await cardVersion()).toBe(before + 2);
  });
});
