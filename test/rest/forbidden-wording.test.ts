/**
 * Every 403 the REST routes can produce is a worded sentence that follows X-Service-Client (Authentication 11), and
 * no refusal body names a GraphQL type or field (scope-auth's "Not authorized to resolve Mutation.updateUser").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { schema } from '../../src/schema.ts';
import { newApiTokenSecret, sha256 } from '../../src/modules/auth/tokens.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let admin: string; // broker.admin@demo.test, a session
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
    } as never,
  });
  mcpToken = secret.token;
});
afterAll(async () => {
  await t?.close();
});

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
      const bodies: Record<string, unknown> = {};
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
