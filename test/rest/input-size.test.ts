/**
 * Input checking costs time in proportion to the body and is capped in what it reports (docs/operations.md, "Input
 * limits"; that it comes after authorisation: test/rest/credentials-before-body.test.ts): a body just under the limit
 * holding a 120,000-element list gets a small 4xx at once, on every body-reading route of the table
 * (src/rest/routes/index.ts) and every MCP tool, while /healthz keeps answering. These are the only timed assertions of the suite, as the rule itself is about time; the bounds are
 * generous (five seconds for an answer and a second for /healthz, against milliseconds when the checking is linear
 * and minutes when it was not), so a loaded machine does not fail them.
 */
import { type GraphQLInputType, getNullableType, isInputObjectType, isListType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORTED_ERRORS } from '../../src/rest/bridge.ts';
import type { RouteDefinition } from '../../src/rest/define-route.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { tools } from '../../src/mcp/tools/index.ts';
import { compileTools } from '../../src/mcp/tools/run.ts';
import { schema } from '../../src/graphql-server/schema.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';
import { restTargets } from '../fuzz/targets.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

/** Elements of each list sent: a 240 kB body of `1`s, just under the default 256 kB body limit. */
const ELEMENTS = 120_000;
/** Generous bounds (see above): a request's answer, and the longest /healthz round trip while it ran. */
const ANSWER_MS = 5_000;
const HEALTHZ_MS = 1_000;
/** "A few kB": the largest error body accepted. */
const MAX_ANSWER_BYTES = 4_096;

let t: TestApp;
/** Who sends each body: a Free broker's `read` token (the refused case), and callers that may write. */
let callers: { name: string; token: string }[];
let financierSession: string;

async function mint(session: string, scope: 'read' | 'read_write', origin: 'ui' | 'mcp' = 'ui'): Promise<string> {
  const res = await t.rest('POST', '/api/v1/api-tokens', {
    token: session,
    body: { name: `size ${scope}`, scope, origin },
  });
  if (res.status !== 201) throw new Error(`mint ${scope}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

beforeAll(async () => {
  t = await startTestApp();
  const free = (await t.login('free.broker@demo.test')).access;
  const broker = (await t.login('broker.admin@demo.test')).access;
  financierSession = (await t.login('financier.admin@demo.test')).access;
  callers = [
    { name: "a Free broker's read token", token: await mint(free, 'read') },
    { name: "a broker admin's read_write token", token: await mint(broker, 'read_write') },
    { name: 'a financier admin session', token: financierSession },
  ];
});
afterAll(async () => {
  await t?.close();
});

/**
 * Polls /healthz back to back until stopped; returns the longest round trip. The app runs in this process, so an
 * event loop held by input checking delays these answers exactly as it would delay any other client's.
 */
function pollHealthz(): { stop: () => Promise<number> } {
  let running = true;
  let longest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${t.baseUrl}/healthz`);
      await res.arrayBuffer();
      longest = Math.max(longest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return longest;
    },
  };
}

/** Sends the raw body and measures the answer: status, size and time. */
async function timed(method: string, url: string, token: string, raw: string) {
  const started = performance.now();
  const res = await fetch(`${t.baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: raw,
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started };
}

/** The list-typed fields of an input type (the body's fields when the route's `input` is the whole body). */
function listFields(type: GraphQLInputType | undefined): string[] {
  const inner = type && getNullableType(type);
  if (!inner || !isInputObjectType(inner)) return [];
  return Object.entries(inner.getFields())
    .filter(([, f]) => isListType(getNullableType(f.type)))
    .map(([name]) => name);
}

/** A 120,000-element list written straight into JSON text (no 120,000-element array built to stringify). */
const bigList = (element: string, count = ELEMENTS) => `[${`${element},`.repeat(count - 1)}${element}]`;

/** The body fields a route reads, typed by its operation (the fuzzer's reading of the route table). */
const targets = new Map(restTargets(schema).map((target, i) => [routes[i], target]));

function bodyFieldsOf(route: RouteDefinition): { fields: string[]; lists: string[] } {
  const body = targets.get(route)!.body;
  const lists = [...body].filter(([, type]) => type && isListType(getNullableType(type))).map(([field]) => field);
  return { fields: [...body.keys()], lists };
}

const BODY_METHODS: ReadonlySet<RouteDefinition['method']> = new Set(['post', 'put', 'patch']);
const bodyRoutes = routes.filter((r) => BODY_METHODS.has(r.method) && r.variables !== undefined);
const urlOf = (route: RouteDefinition) => `/api/v1${route.path.replace(/:\w+/g, '1')}`;

describe('REST: a 120,000-element list gets a small 4xx at once, on every body-reading route, /healthz answering', () => {
  it.each(bodyRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    '%s',
    async (_name, route) => {
      const { fields, lists } = bodyFieldsOf(route);
      // Every list field; a route without one gets the list in its first body field (or a field of its own).
      const targets = lists.length ? lists : [fields[0] ?? 'items'];
      const healthz = pollHealthz();
      const answers: { who: string; field: string; status: number; bytes: number; ms: number }[] = [];
      for (const field of targets)
        for (const element of ['1', '"x"']) {
          // `"x",` is four bytes: half as many elements keep the body under the limit.
          const count = element === '1' ? ELEMENTS : ELEMENTS / 2;
          const raw = `{${JSON.stringify(field)}:${bigList(element, count)}}`;
          for (const caller of route.public ? [{ name: 'anonymous', token: '' }] : callers) {
            const res = await timed(route.method.toUpperCase(), urlOf(route), caller.token, raw);
            answers.push({ who: caller.name, field, status: res.status, bytes: res.text.length, ms: res.ms });
          }
        }
      const longestHealthz = await healthz.stop();
      for (const a of answers) {
        expect(a.status, `${a.who}, ${a.field}`).toBeGreaterThanOrEqual(400);
        expect(a.status, `${a.who}, ${a.field}`).toBeLessThan(500);
        expect(a.bytes, `${a.who}, ${a.field}: answer bytes`).toBeLessThan(MAX_ANSWER_BYTES);
        expect(a.ms, `${a.who}, ${a.field}: answer time (ms)`).toBeLessThan(ANSWER_MS);
      }
      expect(longestHealthz, 'longest /healthz round trip (ms)').toBeLessThan(HEALTHZ_MS);
    },
    120_000,
  );
});

describe('REST: the services a body reaches check its lists in linear time', () => {
  it('PUT /approvals/{id}: a whole approval with 120,000 asset ids and 60,000 industries is a small 400 at once', async () => {
    const approval = await t.database.prisma.approval.findFirstOrThrow({
      where: { organisation: { users: { some: { email: 'financier.admin@demo.test' } } } },
    });
    const head = JSON.stringify({ name: 'Large', doc_level: approval.doc_level }).slice(0, -1);
    for (const [field, list] of [
      ['asset_ids', bigList('1')],
      ['industries', bigList('"A"', ELEMENTS / 2)],
    ] as const) {
      const res = await timed(
        'PUT',
        `/api/v1/approvals/${approval.id}`,
        financierSession,
        `${head},"${field}":${list}}`,
      );
      expect(res.status, field).toBe(400);
      expect(res.text.length).toBeLessThan(MAX_ANSWER_BYTES);
      expect(res.ms).toBeLessThan(ANSWER_MS);
    }
  });

  it('POST /calculator: 60,000 preferred_financier strings, or 120,000 ids, are a small 400 at once', async () => {
    const head = JSON.stringify(DEMO_DEAL).slice(0, -1);
    for (const list of [bigList('"7"', ELEMENTS / 2), bigList('7')]) {
      const res = await timed('POST', '/api/v1/calculator', callers[0].token, `${head},"preferred_financier":${list}}`);
      expect(res.status).toBe(400);
      expect(res.text.length).toBeLessThan(MAX_ANSWER_BYTES);
      expect(res.ms).toBeLessThan(ANSWER_MS);
    }
  });

  it(`a 400 names at most ${MAX_REPORTED_ERRORS} problems, however many the body holds`, async () => {
    const head = JSON.stringify(DEMO_DEAL).slice(0, -1);
    const res = await t.rest('POST', '/api/v1/calculator', {
      token: callers[0].token,
      raw: `${head},"preferred_financier":${bigList('"x"', 1_000)}}`,
    });
    expect(res.status).toBe(400);
    const named = Object.values(res.body.errors as Record<string, string[]>).flat();
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThanOrEqual(MAX_REPORTED_ERRORS);
  });
});

describe('POST /mcp: a 120,000-element list in a tool call gets a small answer at once, /healthz answering', () => {
  const compiled = compileTools(schema, tools);
  beforeAll(async () => {
    // The first POST /mcp loads the MCP SDK (docs/mcp.md): a one-off cost of the process, not of the body.
    const broker = (await t.login('broker.admin@demo.test')).access;
    await timed('POST', '/mcp', await mint(broker, 'read', 'mcp'), '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  });
  it.each(compiled.map((c) => [c.tool.name, c] as const))('%s', async (_name, tool) => {
    const variables = tool.operation.variableTypes;
    const lists =
      variables.length === 1 && variables[0].name === 'input'
        ? listFields(variables[0].type)
        : variables.filter((v) => isListType(getNullableType(v.type))).map((v) => v.name);
    const fields = lists.length ? lists : [variables[0]?.name ?? 'items'];
    const broker = (await t.login('broker.admin@demo.test')).access;
    const tokens = [await mint(broker, 'read', 'mcp'), await mint(broker, 'read_write', 'mcp')];
    const healthz = pollHealthz();
    const answers: { field: string; status: number; bytes: number; ms: number; text: string }[] = [];
    for (const field of fields)
      for (const [element, count] of [
        ['1', ELEMENTS - 1_000],
        ['"x"', ELEMENTS / 2 - 1_000],
      ] as const)
        for (const token of tokens) {
          const args = `{${JSON.stringify(field)}:${bigList(element, count)}}`;
          const raw = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(tool.tool.name)},"arguments":${args}}}`;
          const res = await timed('POST', '/mcp', token, raw);
          answers.push({ field, status: res.status, bytes: res.text.length, ms: res.ms, text: res.text.slice(0, 200) });
        }
    const longestHealthz = await healthz.stop();
    for (const a of answers) {
      expect(a.status, `${a.field}: ${a.text}`).toBeLessThan(500);
      expect(a.bytes, `${a.field}: answer bytes`).toBeLessThan(MAX_ANSWER_BYTES);
      expect(a.ms, `${a.field}: answer time (ms)`).toBeLessThan(ANSWER_MS);
    }
    expect(longestHealthz, 'longest /healthz round trip (ms)').toBeLessThan(HEALTHZ_MS);
  });
});
