/**
 * Spec: ApiToken `origin`; Authentication 5, 7, 8; States "AI-assistant connection"; DELETE /mcp-connections/{id} and
 * its Errors rows; POST /mcp (docs/mcp.md). Driven with the MCP SDK's own client over real HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLInputObjectType } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newApiTokenSecret, sha256 } from '../../src/modules/auth/tokens.ts';
import { say } from '../../src/lib/wording.ts';
import { CLIENT_NAME_MAX_LENGTH } from '../../src/modules/mcp-connections/service.ts';
import { schema } from '../../src/graphql-server/schema.ts';
import { MAX_TOOL_CALLS_PER_REQUEST, MCP_SERVER_NAME, NOT_AN_ASSISTANT_TOKEN } from '../../src/mcp/server.ts';
import { ManualClock, startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';

const clock = new ManualClock(new Date());
let t: TestApp;
let session: string; // broker.admin@demo.test (Pro: the Matrix is on the plan)
let otherSession: string; // broker.user@demo.test
let adminId: number;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp({ clock });
  session = (await t.login('broker.admin@demo.test')).access;
  otherSession = (await t.login('broker.user@demo.test')).access;
  adminId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});
afterAll(async () => {
  await t?.close();
});

const DEAL = DEMO_DEAL;

async function mint(
  scope: 'read' | 'read_write',
  origin: 'ui' | 'mcp' = 'mcp',
  token = session,
): Promise<{ id: number; token: string }> {
  const res = await t.rest('POST', '/api/v1/api-tokens', { token, body: { name: `mcp test ${scope}`, scope, origin } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { id: res.body.id, token: res.body.token };
}

async function connect(token: string, name = 'Test Assistant'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

const connectionOf = (tokenId: number) => t.database.prisma.mcpConnection.findUnique({ where: { token_id: tokenId } });

/** A raw JSON-RPC POST, for what the SDK client never sends. */
function post(token: string | null, body: unknown) {
  return t.rest('POST', '/mcp', {
    token,
    body,
    headers: { accept: 'application/json, text/event-stream' },
  });
}
const initialize = (name: unknown, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } },
});

async function usage(userId: number): Promise<Record<string, number>> {
  const rows = await t.database.prisma.dailyUsage.findMany({ where: { user_id: userId } });
  const out: Record<string, number> = { calculator: 0, matrix: 0 };
  for (const r of rows) out[r.metric] += r.count;
  return out;
}

describe('Authentication 8: only tokens with origin mcp are accepted at POST /mcp', () => {
  it('no token, a malformed one and an unknown one answer 401 with a JSON body', async () => {
    for (const token of [null, 'not-a-token', `service_sk_tok_AAAAAAAAAAAA_${'A'.repeat(43)}`]) {
      const res = await post(token, initialize('x'));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it('a JWT session answers 403, and the SDK client cannot connect with one', async () => {
    const res = await post(session, initialize('x'));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: NOT_AN_ASSISTANT_TOKEN });
    await expect(connect(session)).rejects.toMatchObject({ code: 403 });
  });

  it('a ui API token, read or read_write, answers 403', async () => {
    for (const scope of ['read', 'read_write'] as const) {
      const ui = await mint(scope, 'ui');
      const res = await post(ui.token, initialize('x'));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: NOT_AN_ASSISTANT_TOKEN });
      expect(await connectionOf(ui.id)).toBeNull();
    }
  });

  it('an mcp token issued by another environment answers 401 (tokens are environment-bound)', async () => {
    const secret = newApiTokenSecret();
    await t.database.prisma.apiToken.create({
      data: {
        user_id: adminId,
        name: 'prod assistant',
        token_id: secret.tokenId,
        secret_hash: sha256(secret.secret),
        last_four: secret.token.slice(-4),
        scope: 'read',
        environment: 'prod',
        origin: 'mcp',
        expires_at: new Date(Date.now() + 86_400_000),
      },
    });
    expect((await post(secret.token, initialize('x'))).status).toBe(401);
  });

  it('an mcp token is refused everywhere else (/api/v1 and /graphql answer 403)', async () => {
    const { token } = await mint('read_write');
    expect((await t.rest('GET', '/api/v1/api-tokens', { token })).status).toBe(403);
    const res = await t.graphql(token).request<{ me: { __typename: string } }>('{ me { __typename } }');
    expect(res.me.__typename).toBe('ForbiddenError');
  });

  it('POST /api-tokens mints one with origin mcp; the origin is read-only metadata', async () => {
    const res = await t.rest('POST', '/api/v1/api-tokens', {
      token: session,
      body: { name: 'assistant', scope: 'read', origin: 'mcp' },
    });
    expect(res.status).toBe(201);
    expect(res.body.origin).toBe('mcp');
    const bad = await t.rest('POST', '/api/v1/api-tokens', {
      token: session,
      body: { name: 'assistant', scope: 'read', origin: 'robot' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.origin).toBeDefined();
  });

  it('GET and DELETE /mcp answer 405 (a stateless server keeps no stream and no session)', async () => {
    const { token } = await mint('read');
    for (const method of ['GET', 'DELETE']) {
      const res = await t.rest(method, '/mcp', { token });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('a body over MAX_BODY_BYTES answers 413', async () => {
    const { token } = await mint('read');
    const big = { ...initialize('x'), padding: 'x'.repeat(t.config.maxBodyBytes) };
    expect((await post(token, big)).status).toBe(413);
  });
});

describe('AI-assistant connection: the handshake records it, one per token', () => {
  it('the first handshake creates the connection with the client name; the user lists it in GraphQL', async () => {
    const { id, token } = await mint('read');
    await connect(token, 'Claude Desktop');
    const row = await connectionOf(id);
    expect(row).toMatchObject({ client_name: 'Claude Desktop', user_id: adminId, revoked_at: null });
    const res = await t.graphql(session).request<any>(`{ mcpConnections(first: 100) { __typename
      ... on QueryMcpConnectionsSuccess { data { edges { node { id client_name created_at revoked_at scope } } } } } }`);
    const nodes = res.mcpConnections.data.edges.map((e: any) => e.node);
    expect(nodes).toContainEqual(
      expect.objectContaining({ id: row!.id, client_name: 'Claude Desktop', revoked_at: null, scope: 'read' }),
    );
    // Another user's list never shows it.
    const theirs = await t.graphql(otherSession).request<any>(`{ mcpConnections { __typename
      ... on QueryMcpConnectionsSuccess { data { edges { node { id } } } } } }`);
    expect(theirs.mcpConnections.data.edges.map((e: any) => e.node.id)).not.toContain(row!.id);
  });

  it('a later handshake renames the same connection (still one row)', async () => {
    const { id, token } = await mint('read');
    await connect(token, 'Cursor');
    const first = await connectionOf(id);
    await connect(token, 'Cursor Nightly');
    const rows = await t.database.prisma.mcpConnection.findMany({ where: { token_id: id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first!.id, client_name: 'Cursor Nightly' });
  });

  it('the name is cleaned: control and invisible characters removed, length bounded, empty is "unknown"', async () => {
    const { id, token } = await mint('read');
    expect((await post(token, initialize('Evil\u0000\u001b[31m\u202eName\n\t Bot'))).status).toBe(200);
    expect((await connectionOf(id))!.client_name).toBe('Evil [31m Name Bot');
    expect((await post(token, initialize('é'.repeat(5000)))).status).toBe(200);
    expect((await connectionOf(id))!.client_name).toBe('é'.repeat(CLIENT_NAME_MAX_LENGTH));
    expect((await post(token, initialize('\ud800 \u0007'))).status).toBe(200);
    expect((await connectionOf(id))!.client_name).toBe('unknown');
  });

  it('concurrent handshakes on one token leave exactly one connection', async () => {
    const { id, token } = await mint('read');
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => post(token, initialize(`Racer ${i}`, i))));
    for (const r of replies) expect(r.status).toBe(200);
    const rows = await t.database.prisma.mcpConnection.findMany({ where: { token_id: id } });
    expect(rows).toHaveLength(1);
    expect(rows[0].client_name).toMatch(/^Racer [0-5]$/);
  });
});

describe('Stateless: any process answers any call of a connection', () => {
  it('a handshake on one app instance, then a tool call on another sharing the database', async () => {
    const other = await startTestApp({ clock, shareDatabaseWith: t });
    try {
      const { id, token } = await mint('read');
      expect((await post(token, initialize('Roaming Assistant'))).status).toBe(200);
      const res = await fetch(`${other.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'search_assets', arguments: { q: 'car' } },
        }),
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.result.isError).toBeFalsy();
      expect(body.result.structuredContent.assets.length).toBeGreaterThan(0);
      const rows = await t.database.prisma.mcpConnection.findMany({ where: { token_id: id } });
      expect(rows.map((r) => r.client_name)).toEqual(['Roaming Assistant']);
    } finally {
      await other.close();
    }
  });
});

describe('Tools: listed with a JSON schema and a description an assistant can act on', () => {
  it('a read_write token lists the read tools and the write tools, each with an input schema', async () => {
    const { token } = await mint('read_write');
    const client = await connect(token);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'search_assets',
        'run_calculator',
        'run_matrix',
        'run_matrix_calculator',
        'save_scenario',
      ]),
    );
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
    }
    const mc = tools.find((tool) => tool.name === 'run_matrix_calculator')!;
    expect(Object.keys(mc.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['cost', 'asset_value', 'term', 'advance_arrears', 'repayment_frequency', 'credit_score']),
    );
    expect(mc.inputSchema.required).toEqual(expect.arrayContaining(['cost', 'asset_value']));
    expect(JSON.stringify((mc.inputSchema.properties as any).repayment_frequency)).toContain('"monthly"');
    expect(mc.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === 'save_scenario')!.annotations?.readOnlyHint).toBe(false);
  });

  it('a read token is not offered the write tools', async () => {
    const { token } = await mint('read');
    const client = await connect(token);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('run_matrix_calculator');
    expect(names).not.toContain('save_scenario');
  });
});

describe('Tools: each deal tool requires exactly what its surface requires, and says so', () => {
  // The Calculator and the Matrix Calculator price (term, advance_arrears, repayment_frequency are needed to price);
  // the standalone Matrix needs only cost and asset_value.
  const PRICING = ['advance_arrears', 'asset_value', 'cost', 'repayment_frequency', 'term'];
  const PLACING = ['asset_value', 'cost'];
  const omit = (field: string) => Object.fromEntries(Object.entries(DEAL).filter(([key]) => key !== field));

  it('listTools shows the required fields per tool, and each description names them and what it returns', async () => {
    const { token } = await mint('read');
    const { tools } = await (await connect(token)).listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const [name, required] of [
      ['run_calculator', PRICING],
      ['run_matrix_calculator', PRICING],
      ['run_matrix', PLACING],
    ] as const) {
      const tool = byName.get(name)!;
      expect([...(tool.inputSchema.required ?? [])].sort()).toEqual(required);
      for (const field of required) expect(tool.description).toContain(field);
      expect(tool.description).toContain('Returns');
    }
    expect(byName.get('run_matrix')!.description).toContain('term is optional here');
    expect(byName.get('run_matrix')!.description).not.toMatch(/Required:[^.]*term/);
  });

  it('run_matrix runs without a term: approvals grouped by financier, one Matrix run metered', async () => {
    const { token } = await mint('read');
    const client = await connect(token);
    const before = await usage(adminId);
    const result = await call(client, 'run_matrix', omit('term'));
    expect(result.isError).toBeFalsy();
    const answer = JSON.parse(textOf(result));
    expect(answer).toEqual(result.structuredContent);
    expect(answer.destination_count).toBeGreaterThan(0);
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results[0]).toMatchObject({ organisation_name: expect.any(String), approvals: expect.any(Array) });
    expect(await usage(adminId)).toEqual({ calculator: before.calculator, matrix: before.matrix + 1 });
  });

  it('a call missing a required field is a tool error naming it; nothing runs or is metered', async () => {
    const { token } = await mint('read');
    const client = await connect(token);
    const before = await usage(adminId);
    for (const [name, field] of [
      ['run_matrix_calculator', 'term'],
      ['run_matrix_calculator', 'advance_arrears'],
      ['run_calculator', 'repayment_frequency'],
      ['run_matrix', 'cost'],
      ['run_matrix', 'asset_value'],
    ] as const) {
      const result = await call(client, name, omit(field));
      expect(result.isError, `${name} without ${field}`).toBe(true);
      expect(textOf(result)).toContain(`This field is required. at ${field}`);
    }
    expect(await usage(adminId)).toEqual(before);
  });
});

describe('A tool run is a run like any other: same operation, same caller, same metering and errors', () => {
  it('search_assets finds the asset id a deal needs (not metered)', async () => {
    const { token } = await mint('read');
    const client = await connect(token);
    const before = await usage(adminId);
    const result = await call(client, 'search_assets', { q: 'car' });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as any).assets.length).toBeGreaterThan(0);
    expect(await usage(adminId)).toEqual(before);
  });

  it('run_matrix_calculator answers the rows and uses one run of each daily allowance', async () => {
    const { token } = await mint('read');
    const client = await connect(token);
    const before = await usage(adminId);
    const result = await call(client, 'run_matrix_calculator', DEAL);
    expect(result.isError).toBeFalsy();
    const answer = JSON.parse(textOf(result));
    expect(answer).toEqual(result.structuredContent);
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results[0]).toHaveProperty('organisation_name');
    expect(await usage(adminId)).toEqual({ calculator: before.calculator + 1, matrix: before.matrix + 1 });
  });

  it('a bad argument is a tool error naming the field, and nothing is metered', async () => {
    const { token } = await mint('read');
    const client = await connect(token);
    const before = await usage(adminId);
    const result = await call(client, 'run_matrix_calculator', { ...DEAL, cost: 'lots' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('cost: A valid number is required.');
    const unstorable = await call(client, 'search_assets', { q: 'car\u0000' });
    expect(unstorable.isError).toBe(true);
    expect(textOf(unstorable)).toContain('q:');
    expect(await usage(adminId)).toEqual(before);
  });

  it('a spent allowance is a tool error carrying the cap_hit sentence', async () => {
    const user = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } });
    const used = (await usage(user.id)).matrix;
    await t.database.prisma.organisation.update({
      where: { id: user.organisation_id! },
      data: { plan_overrides: { matrix_allowance: used } },
    });
    try {
      const { token } = await mint('read', 'mcp', otherSession);
      const client = await connect(token);
      const result = await call(client, 'run_matrix_calculator', DEAL);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(say('cap_hit_message', 'web', { limit: used, used, metric: 'matrix' }));
      expect(result.structuredContent).toMatchObject({ error: 'cap_hit', metric: 'matrix', limit: used, used });
    } finally {
      await t.database.prisma.organisation.update({
        where: { id: user.organisation_id! },
        data: { plan_overrides: {} },
      });
    }
  });
});

describe('Authentication 5: write tools need a read_write token', () => {
  it('a read token calling save_scenario gets a tool error with the read-scope sentence; nothing is saved', async () => {
    const { token } = await mint('read');
    const client = await connect(token);
    const run = await call(client, 'run_calculator', DEAL);
    const scenarioId = (run.structuredContent as any).scenario_id as number;
    const result = await call(client, 'save_scenario', { id: scenarioId, name: 'Kept' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(say('forbidden_read_scope', 'web'));
    const scenario = await t.database.prisma.scenario.findUniqueOrThrow({ where: { id: scenarioId } });
    expect(scenario.kind).toBe('recent');
  });

  it('a read_write token saves it', async () => {
    const { token } = await mint('read_write');
    const client = await connect(token);
    const run = await call(client, 'run_calculator', DEAL);
    const scenarioId = (run.structuredContent as any).scenario_id as number;
    const result = await call(client, 'save_scenario', { id: scenarioId, name: 'Kept' });
    expect(result.isError).toBeFalsy();
    const scenario = await t.database.prisma.scenario.findUniqueOrThrow({ where: { id: scenarioId } });
    expect(scenario).toMatchObject({ kind: 'saved', name: 'Kept' });
  });
});

describe('Saved scenarios through an assistant: the same re-pricing fields as GraphQL', () => {
  const REPRICING = `{ scenarios(kind: saved) { __typename ... on QueryScenariosSuccess { data { id
    current_cheapest { organisation_id organisation_name approval_id rate repayment } saved_cheapest_stands
    repayment_change repriced_at repriced_version } } } }`;

  it('save_scenario answers them (null until re-priced); list_saved_scenarios answers what GraphQL shows after a change', async () => {
    const { token } = await mint('read_write');
    const client = await connect(token);
    const run = await call(client, 'run_calculator', DEAL);
    const scenarioId = (run.structuredContent as any).scenario_id as number;
    const saved = await call(client, 'save_scenario', { id: scenarioId, name: 'Watched' });
    expect(saved.isError).toBeFalsy();
    expect((saved.structuredContent as any).scenario).toMatchObject({
      id: scenarioId,
      name: 'Watched',
      current_cheapest: null,
      saved_cheapest_stands: null,
      repayment_change: null,
      repriced_at: null,
      repriced_version: null,
    });

    const row = await t.database.prisma.scenario.findUniqueOrThrow({ where: { id: scenarioId } });
    const bracketId = (row.summary as any).cheapest.rate_bracket_id as number;
    const bracket = await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracketId } });
    await t.app.repricing.runOnce(); // earlier tests' changes
    await t.database.prisma.rateBracket.update({
      where: { id: bracketId },
      data: { base_min: bracket.base_min + 2, base_max: bracket.base_max + 2 },
    });
    try {
      await t.app.repricing.runOnce();
      const listed = await call(client, 'list_saved_scenarios', {});
      expect(listed.isError).toBeFalsy();
      const mine = (listed.structuredContent as any).scenarios.find((s: { id: number }) => s.id === scenarioId);
      const shown = (await t.graphql(session).request<any>(REPRICING)).scenarios.data.find(
        (s: { id: number }) => s.id === scenarioId,
      );
      expect(shown.repriced_version).not.toBeNull();
      expect(shown.current_cheapest).not.toBeNull();
      const { id, ...fields } = shown;
      expect(mine).toMatchObject({ id: scenarioId, name: 'Watched', ...fields });
      expect(mine.summary.cheapest.rate_bracket_id).toBe(bracketId);
    } finally {
      await t.database.prisma.rateBracket.update({
        where: { id: bracketId },
        data: { base_min: bracket.base_min, base_max: bracket.base_max },
      });
    }
  });
});

describe('Approvals and rate-card edits through an assistant', () => {
  it("list_approvals pages one financier's approvals", async () => {
    const financier = await t.database.prisma.organisation.findFirstOrThrow({
      where: { type: 'f', approvals: { some: {} } },
    });
    const { token } = await mint('read');
    const result = await call(await connect(token), 'list_approvals', { organisation_id: financier.id, first: 2 });
    expect(result.isError).toBeFalsy();
    const page = result.structuredContent as { approvals: { organisation_id: number }[]; has_next_page: boolean };
    expect(page.approvals.length).toBeGreaterThan(0);
    expect(page.approvals.every((a) => a.organisation_id === financier.id)).toBe(true);
  });

  it('update_rate_bracket with a read_write token is recorded as a rate-card version with the connection', async () => {
    const financierSession = (await t.login('financier.admin@demo.test')).access;
    const me = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'financier.admin@demo.test' } });
    const bracket = await t.database.prisma.rateBracket.findFirstOrThrow({
      where: { organisation_id: me.organisation_id! },
    });
    const { id: tokenId, token } = await mint('read_write', 'mcp', financierSession);
    const client = await connect(token, 'Rate Desk Assistant');
    const result = await call(client, 'update_rate_bracket', { id: bracket.id, input: { base_min: 7.77 } });
    expect(result.isError).toBeFalsy();
    expect((await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracket.id } })).base_min).toBe(7.77);
    const connection = await connectionOf(tokenId);
    const version = await t.database.prisma.rateCardVersion.findFirstOrThrow({
      where: { organisation_id: me.organisation_id! },
      orderBy: { id: 'desc' },
    });
    expect(version).toMatchObject({ origin: 'assistant', connection_id: connection!.id, actor_email: me.email });
  });

  it('update_rate_bracket with a read token is refused and changes nothing', async () => {
    const financierSession = (await t.login('financier.admin@demo.test')).access;
    const me = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'financier.admin@demo.test' } });
    const bracket = await t.database.prisma.rateBracket.findFirstOrThrow({
      where: { organisation_id: me.organisation_id! },
    });
    const { token } = await mint('read', 'mcp', financierSession);
    const result = await call(await connect(token), 'update_rate_bracket', {
      id: bracket.id,
      input: { base_min: 1.11 },
    });
    expect(result.isError).toBe(true);
    expect((await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracket.id } })).base_min).toBe(
      bracket.base_min,
    );
  });
});

describe("Tool arguments: one naming rule (the REST contract's snake_case), declared exactly, nothing else accepted", () => {
  const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

  /** Every property name an input schema declares, nested objects and list items included, with its path. */
  function declaredNames(schema: any, path = ''): string[] {
    if (!schema || typeof schema !== 'object') return [];
    const names: string[] = [];
    for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
      names.push(`${path}${name}`);
      names.push(...declaredNames(property, `${path}${name}.`));
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf'] as const) {
      const inner = schema[key];
      for (const part of Array.isArray(inner) ? inner : inner ? [inner] : []) names.push(...declaredNames(part, path));
    }
    return names;
  }

  /** The Arguments column of docs/mcp.md's tool table: tool name to argument names (DealInput's fields for the deal tools). */
  function documentedArguments(): Map<string, string[]> {
    const dealFields = Object.keys((schema.getType('DealInput') as GraphQLInputObjectType).getFields());
    const table = new Map<string, string[]>();
    for (const line of readFileSync(path.resolve(import.meta.dirname, '../../docs/mcp.md'), 'utf8').split('\n')) {
      const row = /^\| `([a-z_]+)` \| ([^|]+) \|/.exec(line);
      if (!row) continue;
      const cell = row[2].split(';')[0];
      table.set(
        row[1],
        cell.includes('DealInput')
          ? dealFields
          : [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((n) => n !== 'scenario_id'),
      );
    }
    return table;
  }

  it('every tool declares its arguments, nested input fields included, in snake_case, exactly as docs/mcp.md lists them', async () => {
    const { token } = await mint('read_write');
    const { tools } = await (await connect(token)).listTools();
    const documented = documentedArguments();
    expect([...documented.keys()].sort()).toEqual(tools.map((tool) => tool.name).sort());
    for (const tool of tools) {
      const names = declaredNames(tool.inputSchema);
      expect(names.length, tool.name).toBeGreaterThan(0);
      for (const name of names) expect(name.split('.').at(-1), `${tool.name}: ${name}`).toMatch(SNAKE_CASE);
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort(), tool.name).toEqual(
        [...documented.get(tool.name)!].sort(),
      );
      // The JSON schema says so too: a client that validates before calling refuses extra arguments itself.
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
  });

  it('an argument a tool does not declare is refused naming it, on every tool; nothing runs, is written or metered', async () => {
    const { token } = await mint('read_write');
    const client = await connect(token);
    const { tools } = await client.listTools();
    const before = await usage(adminId);
    const scenariosBefore = await t.database.prisma.scenario.count();
    for (const tool of tools) {
      const result = await call(client, tool.name, { organisationId: 1 });
      expect(result.isError, tool.name).toBe(true);
      expect(textOf(result), tool.name).toMatch(/Unrecognized key.*"organisationId"/);
    }
    // Nested inputs too: a misspelt field of a deal or of a patch is refused, not dropped.
    const deal = await call(client, 'run_matrix_calculator', { ...DEAL, creditScore: 720 });
    expect(deal.isError).toBe(true);
    expect(textOf(deal)).toContain('creditScore');
    expect(await usage(adminId)).toEqual(before);
    expect(await t.database.prisma.scenario.count()).toBe(scenariosBefore);

    const financierSession = (await t.login('financier.admin@demo.test')).access;
    const financierClient = await connect((await mint('read_write', 'mcp', financierSession)).token);
    const bracket = await t.database.prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: 1 } });
    const patch = await call(financierClient, 'update_rate_bracket', { id: bracket.id, input: { base_mn: 1.5 } });
    expect(patch.isError).toBe(true);
    expect(textOf(patch)).toContain('base_mn');
    expect(await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracket.id } })).toEqual(bracket);
  });

  it('list_approvals filters by organisation_id', async () => {
    const last = await t.database.prisma.organisation.findFirstOrThrow({
      where: { type: 'f', approvals: { some: {} } },
      orderBy: { id: 'desc' },
    });
    const { token } = await mint('read');
    const result = await call(await connect(token), 'list_approvals', { organisation_id: last.id, first: 100 });
    expect(result.isError).toBeFalsy();
    const page = result.structuredContent as { approvals: { organisation_id: number }[] };
    expect(page.approvals.length).toBe(await t.database.prisma.approval.count({ where: { organisation_id: last.id } }));
    expect(page.approvals.every((a) => a.organisation_id === last.id)).toBe(true);
  });

  it('save_scenario takes the documented id (the scenario_id of a run); scenario_id is refused naming it', async () => {
    const { token } = await mint('read_write');
    const client = await connect(token);
    const scenarioId = ((await call(client, 'run_calculator', DEAL)).structuredContent as any).scenario_id as number;
    const wrong = await call(client, 'save_scenario', { scenario_id: scenarioId, name: 'Excavator for Smith Civil' });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('scenario_id');
    const saved = await call(client, 'save_scenario', { id: scenarioId, name: 'Excavator for Smith Civil' });
    expect(saved.isError).toBeFalsy();
    expect((saved.structuredContent as any).scenario).toMatchObject({
      id: scenarioId,
      name: 'Excavator for Smith Civil',
    });
  });

  it('a stale expected_version is a version_conflict carrying current_version; retrying with it applies the change', async () => {
    const financierSession = (await t.login('financier.admin@demo.test')).access;
    const client = await connect((await mint('read_write', 'mcp', financierSession)).token);
    const bracket = await t.database.prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: 1 } });
    // A change first, so the card is past version 0 whatever ran before: 0 is then stale.
    expect(
      (await call(client, 'update_rate_bracket', { id: bracket.id, input: { name: bracket.name } })).isError,
    ).toBeFalsy();
    const stale = await call(client, 'update_rate_bracket', {
      id: bracket.id,
      input: { base_max: 12.5 },
      expected_version: 0,
    });
    expect(stale.isError).toBe(true);
    const conflict = stale.structuredContent as { error: string; current_version: number };
    expect(conflict).toMatchObject({ error: 'version_conflict', current_version: expect.any(Number) });
    expect(textOf(stale)).toContain(`current_version: ${conflict.current_version}`);
    expect((await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracket.id } })).base_max).not.toBe(
      12.5,
    );
    const retried = await call(client, 'update_rate_bracket', {
      id: bracket.id,
      input: { base_max: 12.5 },
      expected_version: conflict.current_version,
    });
    expect(retried.isError).toBeFalsy();
    expect((await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracket.id } })).base_max).toBe(12.5);
  });
});

describe('DELETE /api/v1/mcp-connections/{id}: revokes the connection token, idempotently', () => {
  async function connected(token = session) {
    const minted = await mint('read', 'mcp', token);
    const client = await connect(minted.token, 'Revocable');
    const row = (await connectionOf(minted.id))!;
    return { ...minted, client, connectionId: row.id };
  }
  const del = (id: number | string, token: string | null) =>
    t.rest('DELETE', `/api/v1/mcp-connections/${id}`, { token });

  it('204 with no body; the token and the connection are revoked; the assistant is refused on its next call', async () => {
    const c = await connected();
    expect((await c.client.listTools()).tools.length).toBeGreaterThan(0);
    const res = await del(c.connectionId, session);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const token = await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: c.id } });
    const row = (await connectionOf(c.id))!;
    expect(token.revoked_at).toEqual(clock.now());
    expect(row.revoked_at).toEqual(clock.now());
    await expect(c.client.listTools()).rejects.toMatchObject({ code: 401 });
    expect((await post(c.token, initialize('again'))).status).toBe(401);
  });

  it('a second call also answers 204 and never overwrites the first revocation time', async () => {
    const c = await connected();
    expect((await del(c.connectionId, session)).status).toBe(204);
    const first = clock.now();
    clock.advance(60_000);
    expect((await del(c.connectionId, session)).status).toBe(204);
    expect((await connectionOf(c.id))!.revoked_at).toEqual(first);
    expect((await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: c.id } })).revoked_at).toEqual(first);
  });

  it('the first call queues one account event for the user (api_token_revoked); a second call queues none', async () => {
    const c = await connected();
    const { token_id: tokenId } = await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: c.id } });
    const revokedEvents = async () =>
      (await t.database.prisma.notification.findMany({ where: { user_id: adminId, category: 'account' } })).filter(
        (n) =>
          (n.data as { kind?: string; token_id?: string }).kind === 'api_token_revoked' &&
          (n.data as { token_id?: string }).token_id === tokenId,
      );
    expect(await revokedEvents()).toHaveLength(0);
    expect((await del(c.connectionId, session)).status).toBe(204);
    const [event, ...more] = await revokedEvents();
    expect(more).toHaveLength(0);
    expect(event.title).toBe('AI assistant disconnected');
    expect(event.body).toContain('"Revocable"');
    expect(event.data).toMatchObject({ user_id: adminId, connection_id: c.connectionId });
    clock.advance(60_000);
    expect((await del(c.connectionId, session)).status).toBe(204);
    expect(await revokedEvents()).toHaveLength(1);
  });

  it('a token already revoked by DELETE /api-tokens/{id} is not announced twice when disconnected', async () => {
    const c = await connected();
    const { token_id: tokenId } = await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: c.id } });
    expect((await t.rest('DELETE', `/api/v1/api-tokens/${c.id}`, { token: session })).status).toBe(204);
    expect((await del(c.connectionId, session)).status).toBe(204);
    const events = (
      await t.database.prisma.notification.findMany({ where: { user_id: adminId, category: 'account' } })
    ).filter((n) => (n.data as { kind?: string; token_id?: string }).token_id === tokenId);
    expect(events.map((n) => (n.data as { kind: string }).kind).sort()).toEqual([
      'api_token_created',
      'api_token_revoked',
    ]);
  });

  it('concurrent calls all answer 204 and leave one revocation time', async () => {
    const c = await connected();
    const replies = await Promise.all(Array.from({ length: 5 }, () => del(c.connectionId, session)));
    expect(replies.map((r) => r.status)).toEqual([204, 204, 204, 204, 204]);
    const row = (await connectionOf(c.id))!;
    const token = await t.database.prisma.apiToken.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.revoked_at).toEqual(token.revoked_at);
  });

  it('a token revoked earlier (DELETE /api-tokens/{id}) keeps its time; the connection takes it', async () => {
    const c = await connected();
    expect((await t.rest('DELETE', `/api/v1/api-tokens/${c.id}`, { token: session })).status).toBe(204);
    const revokedAt = clock.now();
    clock.advance(60_000);
    expect((await del(c.connectionId, session)).status).toBe(204);
    expect((await connectionOf(c.id))!.revoked_at).toEqual(revokedAt);
  });

  it("404 for a missing connection and for another user's, with the same body", async () => {
    const theirs = await connected(otherSession);
    const missing = await del(999_999_999, session);
    const foreign = await del(theirs.connectionId, session);
    expect(missing.status).toBe(404);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await connectionOf(theirs.id))!.revoked_at).toBeNull();
    expect((await theirs.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('403 for API-token auth (session only), the connection own token included; nothing is revoked', async () => {
    const c = await connected();
    const ui = await mint('read_write', 'ui');
    for (const token of [ui.token, c.token]) {
      const res = await del(c.connectionId, token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: say('forbidden_session_only', 'web') });
    }
    expect((await connectionOf(c.id))!.revoked_at).toBeNull();
  });

  it('401 without credentials; 400 naming the id when it is not an integer', async () => {
    const c = await connected();
    expect((await del(c.connectionId, null)).status).toBe(401);
    const bad = await del('abc', session);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('id');
  });

  it('GraphQL revokeMcpConnection runs the same service: revoked_at set, then kept', async () => {
    const c = await connected();
    const mutation = `mutation($id: Int!) { revokeMcpConnection(id: $id) { __typename
      ... on McpConnection { id revoked_at } ... on Error { message } } }`;
    const first = await t.graphql(session).request<any>(mutation, { id: c.connectionId });
    expect(first.revokeMcpConnection).toEqual({
      __typename: 'McpConnection',
      id: c.connectionId,
      revoked_at: expect.any(String),
    });
    clock.advance(1000);
    const again = await t.graphql(session).request<any>(mutation, { id: c.connectionId });
    expect(again.revokeMcpConnection.revoked_at).toBe(first.revokeMcpConnection.revoked_at);
    const foreign = await t.graphql(otherSession).request<any>(mutation, { id: c.connectionId });
    expect(foreign.revokeMcpConnection.__typename).toBe('NotFoundError');
  });
});

describe('An assistant end to end over HTTP: handshake, tools, a Matrix Calculator run, a refused write, disconnection', () => {
  it('the SDK client connects, lists, runs, is refused a write with a read token, and is refused once disconnected', async () => {
    const { id: tokenId, token } = await mint('read');
    // Handshake: the SDK's own Client over Streamable HTTP; the server names itself and the connection is recorded.
    const client = await connect(token, 'End To End Assistant');
    expect(client.getServerVersion()?.name).toBe(MCP_SERVER_NAME);
    const connection = (await connectionOf(tokenId))!;
    expect(connection).toMatchObject({ client_name: 'End To End Assistant', revoked_at: null });

    // Tool listing: the read tools, not the write tools.
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('run_matrix_calculator');
    expect(names).not.toContain('save_scenario');

    // A Matrix Calculator run, metered on both allowances.
    const before = await usage(adminId);
    const run = await call(client, 'run_matrix_calculator', DEAL);
    expect(run.isError).toBeFalsy();
    expect((run.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(await usage(adminId)).toEqual({ calculator: before.calculator + 1, matrix: before.matrix + 1 });

    // A write with a read token: a tool error with the read-scope sentence, not a protocol error.
    const write = await call(client, 'save_scenario', { id: 1, name: 'Kept' });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toBe(say('forbidden_read_scope', 'web'));

    // Disconnected by the user: the assistant's next call is refused (401), whatever it asks.
    const res = await t.rest('DELETE', `/api/v1/mcp-connections/${connection.id}`, { token: session });
    expect(res.status).toBe(204);
    await expect(client.listTools()).rejects.toMatchObject({ code: 401 });
    await expect(client.callTool({ name: 'run_matrix_calculator', arguments: DEAL })).rejects.toMatchObject({
      code: 401,
    });
    expect(await usage(adminId)).toEqual({ calculator: before.calculator + 1, matrix: before.matrix + 1 });
  });
});

describe('POST /mcp: whatever a token holder sends, a 4xx or a tool error, never a 5xx', () => {
  const toolCall = (id: number, name: string, args: unknown) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });

  it('malformed JSON is a 400 JSON-RPC parse error; bodies that are not messages are 4xx JSON', async () => {
    const { token } = await mint('read');
    const malformed = await t.rest('POST', '/mcp', {
      token,
      raw: '{"jsonrpc":',
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe(-32700);
    for (const body of [null, 'x', 42, [], {}, { jsonrpc: '2.0', id: 1, method: 'no/such/method' }, [null]]) {
      const res = await post(token, body);
      expect(res.status).toBeLessThan(500);
      expect(res.status === 202 || typeof res.body === 'object').toBe(true);
    }
  });

  it('an unknown tool, and arguments of the wrong shape, are answered without running anything', async () => {
    const { token } = await mint('read');
    const before = await usage(adminId);
    for (const body of [
      toolCall(1, 'no_such_tool', {}),
      toolCall(2, 'run_matrix_calculator', 'not an object'),
      toolCall(3, 'run_matrix_calculator', { ...DEAL, asset_value: 'eleven', extra: { deep: [1, 2, 3] } }),
      toolCall(4, 'search_assets', { q: 'x'.repeat(10_000) }),
    ]) {
      const res = await post(token, body);
      expect(res.status).toBe(200);
      expect(res.body.error ?? res.body.result.isError).toBeTruthy();
    }
    expect(await usage(adminId)).toEqual(before);
  });

  it(`a batch carries at most ${MAX_TOOL_CALLS_PER_REQUEST} tool call (so a batch cannot run one metered tool many times)`, async () => {
    const { token } = await mint('read');
    const before = await usage(adminId);
    const batch = Array.from({ length: 5 }, (_, i) => toolCall(i + 1, 'run_matrix_calculator', DEAL));
    const res = await post(token, batch);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
    expect(await usage(adminId)).toEqual(before);
  });
});
