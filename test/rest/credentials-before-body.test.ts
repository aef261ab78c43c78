/**
 * Credentials are judged before the body (docs/operations.md, "Input limits"): on every protected route of the table
 * (src/rest/routes/index.ts) and on POST /mcp, a caller without working credentials gets 401 whatever the body is
 * (malformed, wrong, over the limit, not JSON), never the 400, 413 or 415 that body would earn; a working caller the
 * route's scopes refuse gets that 403, again before the body. The routes come from the table: a route added there is
 * covered here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/rest/define-route.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { scopeRefusal } from '../../testkit/route-access.ts';

let t: TestApp;
let session: string;

beforeAll(async () => {
  t = await startTestApp();
  session = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

/** The route's URL with every path parameter an existing-looking id. */
const urlOf = (route: RouteDefinition) => `/api/v1${route.path.replace(/:\w+/g, '1')}`;
const nameOf = (route: RouteDefinition) => `${route.method.toUpperCase()} ${route.path}`;
/** Every protected route that could be sent a body: the table's protected routes but GET. */
const protectedRoutes = routes.filter((r) => !r.public && r.method !== 'get');

/** Credentials that do not work: none, a malformed header, a token that is no JWT, an API token that does not exist. */
const NOT_WORKING: { name: string; headers: Record<string, string> }[] = [
  { name: 'no credentials', headers: {} },
  { name: 'a malformed Authorization header', headers: { authorization: 'Token abc' } },
  { name: 'a bearer that is no token', headers: { authorization: 'Bearer not-a-token' } },
  { name: 'an unknown API token', headers: { authorization: 'Bearer service_sk_tok_nope_nope' } },
];

/** Bodies each earning a refusal of their own from a working caller. */
function badBodies(): { name: string; raw: string; contentType: string }[] {
  return [
    { name: 'malformed JSON (400)', raw: '{"broken": ', contentType: 'application/json' },
    {
      name: 'wrong fields (400)',
      raw: '{"cost":-1,"term":"x","is_active":"nope","name":42}',
      contentType: 'application/json',
    },
    {
      name: 'over MAX_BODY_BYTES (413)',
      raw: JSON.stringify({ padding: 'x'.repeat(t.config.maxBodyBytes) }),
      contentType: 'application/json',
    },
    { name: 'not JSON (415)', raw: '{"name":"x"}', contentType: 'text/plain' },
  ];
}

describe('Authentication: credentials are judged before the body (401, then the scope 403; never 400, 413 or 415)', () => {
  it('the table has protected routes that read a body', () => {
    expect(protectedRoutes.map(nameOf)).toEqual(
      expect.arrayContaining(['POST /calculator', 'POST /matrix/', 'POST /matrix-calculator/', 'PUT /users/:id']),
    );
  });

  it.each(protectedRoutes.map((r) => [nameOf(r), r] as const))('%s: 401 whatever the body', async (_name, route) => {
    for (const credentials of NOT_WORKING)
      for (const body of badBodies()) {
        const res = await t.rest(route.method.toUpperCase(), urlOf(route), {
          raw: body.raw,
          headers: { ...credentials.headers, 'content-type': body.contentType },
        });
        expect(res.status, `${credentials.name}, ${body.name}`).toBe(401);
        expect(res.body, `${credentials.name}, ${body.name}`).toEqual({ error: expect.any(String) });
      }
  });

  it('POST /mcp (beside the table): 401 whatever the body', async () => {
    for (const credentials of NOT_WORKING)
      for (const body of badBodies()) {
        const res = await t.rest('POST', '/mcp', {
          raw: body.raw,
          headers: {
            ...credentials.headers,
            'content-type': body.contentType,
            accept: 'application/json, text/event-stream',
          },
        });
        expect(res.status, `${credentials.name}, ${body.name}`).toBe(401);
        expect(res.body, `${credentials.name}, ${body.name}`).toEqual({ error: expect.any(String) });
      }
  });

  it('a working session gets the body judged: malformed JSON is 400', async () => {
    const res = await t.rest('PUT', '/api/v1/users/1', { token: session, raw: '{{{' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Malformed JSON in request body.', errors: { body: ['Malformed JSON.'] } });
  });

  it('a public route has no credentials to judge: it reads the body (malformed JSON is 400)', async () => {
    expect((await t.rest('POST', '/api/v1/auth/login', { raw: '{{{' })).status).toBe(400);
  });

  it("a read token on a write route gets the route's 403 before its body is read (malformed JSON)", async () => {
    const free = (await t.login('free.broker@demo.test')).access;
    const minted = await t.rest('POST', '/api/v1/api-tokens', { token: free, body: { name: 'read', scope: 'read' } });
    expect(minted.status).toBe(201);
    const read: string = minted.body.token;
    const refused: string[] = [];
    for (const route of protectedRoutes) {
      const refusal = await scopeRefusal(t, route, read);
      if (!refusal) continue;
      refused.push(nameOf(route));
      const res = await t.rest(route.method.toUpperCase(), urlOf(route), { token: read, raw: '{"broken":' });
      expect(res.status, nameOf(route)).toBe(403);
      expect(res.body, nameOf(route)).toEqual({ error: refusal });
    }
    expect(refused).toEqual(expect.arrayContaining(['PUT /approvals/:id', 'POST /products', 'PUT /users/:id']));
  });
});
