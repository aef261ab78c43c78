/**
 * Spec: Approval `asset_state` (enum `none`, `new`, `used`, `demo`), Product tri-state flags (enum `yes`, `no`,
 * `both`) and `compounding_frequency` (enum), ApiToken `expires_at` (datetime): none of them is nullable, so none is
 * ever null, on REST, GraphQL and MCP alike, and each is stored so (docs/api-decisions.md "Types as the spec writes
 * them"). Every REST answer here is also held to the OpenAPI document, which says the same (testkit/conformance.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_DEFAULT_LIFETIME_DAYS, API_TOKEN_MAX_LIFETIME_DAYS } from '../../src/modules/auth/service.ts';
import { ManualClock, startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';

const DAY_MS = 86_400_000;
const clock = new ManualClock(new Date('2026-11-21T02:00:00Z'));
let t: TestApp;
let financier: string; // financier.admin@demo.test: admin of financier 1
let broker: string; // broker.admin@demo.test (Pro)

beforeAll(async () => {
  t = await startTestApp({ clock });
  financier = (await t.login('financier.admin@demo.test')).access;
  broker = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const gql = (token: string, query: string, variables?: Record<string, unknown>): Promise<any> =>
  t.graphql(token).request(query, variables);

async function mcpClient(): Promise<Client> {
  const minted = await t.rest('POST', '/api/v1/api-tokens', {
    token: broker,
    body: { name: 'nullability', scope: 'read', origin: 'mcp' },
  });
  const client = new Client({ name: 'nullability', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } },
    }),
  );
  return client;
}

describe('Approval.asset_state: an enum, `none` = not checked, never null', () => {
  it('every demo approval answers an enum value over REST; those that never said answer none', async () => {
    const res = await t.rest('GET', '/api/v1/approvals', { token: broker });
    expect(res.status).toBe(200);
    const states = res.body.map((a: { asset_state: unknown }) => a.asset_state);
    expect(states.length).toBe(30);
    expect(states.filter((s: unknown) => s === null)).toEqual([]);
    expect(states.filter((s: unknown) => s === 'none').length).toBe(28);
    expect(new Set(states)).toEqual(new Set(['none', 'new', 'used']));
  });

  it('an approval written without it, or with null, stores and answers none (REST and GraphQL)', async () => {
    const put = (body: Record<string, unknown>) => t.rest('PUT', '/api/v1/approvals/3', { token: financier, body });
    const absent = await put({ name: 'Lite Doc, up to $500k', doc_level: 'lite_doc' });
    expect(absent.status).toBe(200);
    expect(absent.body.asset_state).toBe('none');
    const nulled = await put({ name: 'Lite Doc, up to $500k', doc_level: 'lite_doc', asset_state: null });
    expect(nulled.body.asset_state).toBe('none');
    const row = await t.database.prisma.approval.findUniqueOrThrow({ where: { id: 3 } });
    expect(row.asset_state).toBe('none');

    const answer = await gql(
      broker,
      `{ approvals(organisationId: 1, first: 50) { __typename
         ... on QueryApprovalsSuccess { data { edges { node { id asset_state } } } } } }`,
    );
    const nodes = answer.approvals.data.edges.map((e: { node: unknown }) => e.node);
    expect(nodes.find((n: { id: string | number }) => Number(n.id) === 3).asset_state).toBe('none');
    expect(nodes.every((n: { asset_state: unknown }) => n.asset_state !== null)).toBe(true);
  });

  it('GraphQL types it non-null', async () => {
    const type = await gql(broker, `{ __type(name: "Approval") { fields { name type { kind } } } }`);
    const field = type.__type.fields.find((f: { name: string }) => f.name === 'asset_state');
    expect(field.type.kind).toBe('NON_NULL');
  });

  it('MCP list_approvals answers it, none where not checked', async () => {
    const client = await mcpClient();
    try {
      const result = (await client.callTool({ name: 'list_approvals', arguments: { first: 50 } })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const nodes = (result.structuredContent as { approvals: { asset_state: unknown }[] }).approvals;
      expect(nodes.length).toBe(30);
      expect(nodes.filter((n: { asset_state: unknown }) => n.asset_state === 'none').length).toBeGreaterThan(0);
      expect(nodes.every((n: { asset_state: unknown }) => typeof n.asset_state === 'string')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('none is not checked: a deal in any asset state keeps an approval whose asset_state is none', async () => {
    for (const asset_state of ['new', 'used', 'demo', 'none']) {
      const res = await t.rest('POST', '/api/v1/matrix/', { token: broker, body: { ...DEMO_DEAL, asset_state } });
      expect(res.status).toBe(200);
      const ids = res.body.results.flatMap((g: any) => g.approvals.map((a: any) => a.approval_id));
      expect(ids).toContain(3); // written above without asset_state: none
    }
  });
});

describe('Product tri-state flags and compounding_frequency: stated, `both` and `m` where nothing was said', () => {
  const FLAGS = ['doc_fee_financed', 'private_sale', 'sale_hire_back', 'home_owner'] as const;

  it('a product created without them answers both and m (REST), stored so', async () => {
    const created = await t.rest('POST', '/api/v1/products', { token: financier, body: { product_name: 'Unsaid' } });
    expect(created.status).toBe(201);
    const read = await t.rest('PATCH', `/api/v1/products/${created.body.id}`, { token: financier, body: {} });
    expect(read.status).toBe(200);
    for (const flag of FLAGS) expect(read.body.data[flag]).toBe('both');
    expect(read.body.data.compounding_frequency).toBe('m');
    const row = await t.database.prisma.product.findUniqueOrThrow({ where: { id: created.body.id } });
    expect([...FLAGS.map((f) => row[f]), row.compounding_frequency]).toEqual(['both', 'both', 'both', 'both', 'm']);
  });

  it('null sent for one is stored and answered as its default, not as null (REST)', async () => {
    const created = await t.rest('POST', '/api/v1/products', {
      token: financier,
      body: { product_name: 'Said then unsaid', home_owner: 'yes', compounding_frequency: 'q' },
    });
    const res = await t.rest('PATCH', `/api/v1/products/${created.body.id}`, {
      token: financier,
      body: { home_owner: null, compounding_frequency: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.home_owner).toBe('both');
    expect(res.body.data.compounding_frequency).toBe('m');
  });

  it('GraphQL answers them non-null', async () => {
    const res = await gql(
      financier,
      `mutation { createProduct(input: {product_name: "Graph unsaid"}) { __typename
         ... on RateCardChange { product { doc_fee_financed private_sale sale_hire_back home_owner compounding_frequency } } } }`,
    );
    expect(res.createProduct.product).toEqual({
      doc_fee_financed: 'both',
      private_sale: 'both',
      sale_hire_back: 'both',
      home_owner: 'both',
      compounding_frequency: 'm',
    });
    const type = await gql(financier, `{ __type(name: "Product") { fields { name type { kind } } } }`);
    for (const name of [...FLAGS, 'compounding_frequency'])
      expect(type.__type.fields.find((f: { name: string }) => f.name === name).type.kind, name).toBe('NON_NULL');
  });
});

describe('ApiToken.expires_at: every token expires (by default 90 days, at most 365), always a datetime', () => {
  const mint = (body: Record<string, unknown>) =>
    t.rest('POST', '/api/v1/api-tokens', { token: broker, body: { name: 'expiry', scope: 'read', ...body } });

  it('minted without expires_at (or with null): created_at + 90 days', async () => {
    for (const body of [{}, { expires_at: null }]) {
      const res = await mint(body);
      expect(res.status).toBe(201);
      expect(API_TOKEN_DEFAULT_LIFETIME_DAYS).toBe(90);
      expect(new Date(res.body.expires_at).getTime()).toBe(
        new Date(res.body.created_at).getTime() + API_TOKEN_DEFAULT_LIFETIME_DAYS * DAY_MS,
      );
    }
  });

  it('the creator may shorten it, up to the maximum exactly', async () => {
    const week = new Date(clock.now().getTime() + 7 * DAY_MS).toISOString();
    expect((await mint({ expires_at: week })).body.expires_at).toBe(week);
    const max = new Date(clock.now().getTime() + API_TOKEN_MAX_LIFETIME_DAYS * DAY_MS).toISOString();
    const res = await mint({ expires_at: max });
    expect(res.status).toBe(201);
    expect(res.body.expires_at).toBe(max);
  });

  it('beyond the maximum is 400 naming expires_at; nothing is minted', async () => {
    const before = await t.database.prisma.apiToken.count();
    const late = new Date(clock.now().getTime() + API_TOKEN_MAX_LIFETIME_DAYS * DAY_MS + 1000).toISOString();
    const res = await mint({ expires_at: late });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Invalid request.',
      errors: { expires_at: [`Must be at most ${API_TOKEN_MAX_LIFETIME_DAYS} days from now.`] },
    });
    const graphql = await gql(
      broker,
      `mutation($at: DateTime) { createApiToken(name: "late", scope: read, expiresAt: $at) { __typename
         ... on ValidationError { errors { field } } } }`,
      { at: late },
    );
    expect(graphql.createApiToken).toEqual({ __typename: 'ValidationError', errors: [{ field: 'expires_at' }] });
    expect(await t.database.prisma.apiToken.count()).toBe(before);
  });

  it('every listed token has a datetime, on REST and GraphQL, and GraphQL types it non-null', async () => {
    const list = await t.rest('GET', '/api/v1/api-tokens', { token: broker });
    expect(list.body.length).toBeGreaterThan(0);
    for (const token of list.body) expect(Number.isNaN(Date.parse(token.expires_at))).toBe(false);
    const type = await gql(broker, `{ __type(name: "ApiToken") { fields { name type { kind } } } }`);
    expect(type.__type.fields.find((f: { name: string }) => f.name === 'expires_at').type.kind).toBe('NON_NULL');
  });

  it('a token past its expiry is refused (401), an assistant token at POST /mcp included', async () => {
    const ui = await mint({ expires_at: new Date(clock.now().getTime() + DAY_MS).toISOString() });
    const mcp = await mint({ origin: 'mcp' });
    clock.advance(API_TOKEN_DEFAULT_LIFETIME_DAYS * DAY_MS);
    try {
      expect((await t.rest('GET', '/api/v1/feature-flags', { token: ui.body.token })).status).toBe(401);
      const assistant = await t.rest('POST', '/mcp', {
        token: mcp.body.token,
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        headers: { accept: 'application/json, text/event-stream' },
      });
      expect(assistant.status).toBe(401);
    } finally {
      clock.set(new Date('2026-11-21T02:00:00Z'));
    }
  });
});
