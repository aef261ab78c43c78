/**
 * Every REST route that reads a request body (a POST, PUT or PATCH of the route table, src/rest/routes/index.ts, that
 * maps the request to variables) refuses a body over the configured limit (MAX_BODY_BYTES, config.maxBodyBytes) with
 * 413, and a body that is not UTF-8 JSON with 415, each with the spec's error body; the operation does not run, so
 * nothing is written. The routes come from the table itself: a route added there is covered here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/rest/define-route.ts';
import { loadOpenApiDocument } from '../../src/rest/openapi/document.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { scopeRefusal } from '../../testkit/route-access.ts';

let t: TestApp;
/** Two admins (every permission within their organisation): between them every route can be performed for real. */
let callers: { name: string; token: string }[];

beforeAll(async () => {
  t = await startTestApp();
  callers = [
    { name: 'broker admin', token: (await t.login('broker.admin@demo.test')).access },
    { name: 'financier admin', token: (await t.login('financier.admin@demo.test')).access },
  ];
});
afterAll(async () => {
  await t?.close();
});

const BODY_METHODS: ReadonlySet<RouteDefinition['method']> = new Set(['post', 'put', 'patch']);
/** A route without `variables` reads nothing from the request (POST /billing/reactivate): it takes no body. */
const bodyRoutes = routes.filter((r) => BODY_METHODS.has(r.method) && r.variables !== undefined);
/** The route's URL with every path parameter an existing-looking id (the operation must not run, whatever it is). */
const urlOf = (route: RouteDefinition) => `/api/v1${route.path.replace(/:\w+/g, '1')}`;
const nameOf = (route: RouteDefinition) => `${route.method.toUpperCase()} ${route.path}`;
/** A public route is tried without credentials; a protected one with each caller (credentials are judged first). */
const credentialsFor = (route: RouteDefinition) => (route.public ? [{ name: 'anonymous', token: null }] : callers);

/**
 * Every table's row count and newest row version (xmin): any insert, update or delete changes it. The demo database
 * is a few hundred rows, so reading it whole before and after each request is cheap.
 */
async function writeFingerprint(): Promise<string> {
  const tables = await t.database.prisma.$queryRawUnsafe<{ name: string }[]>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`,
  );
  const rows = await t.database.prisma.$queryRawUnsafe<unknown[]>(
    tables
      .map(
        ({ name }) =>
          `SELECT '${name}' AS name, count(*)::int AS n, coalesce(max(xmin::text::bigint), 0)::text AS newest FROM ${name}`,
      )
      .join(' UNION ALL '),
  );
  return JSON.stringify(rows);
}

/** Sends the request as each caller the route takes and checks the refusal; the database is unchanged by any of them. */
async function expectRefused(
  route: RouteDefinition,
  status: 413 | 415,
  request: { raw: string; headers: Record<string, string> },
): Promise<void> {
  let judged = 0;
  for (const caller of credentialsFor(route)) {
    const before = await writeFingerprint();
    // A caller the route's scopes refuse gets that 403 before its body is read (docs/operations.md, "Input limits").
    const refused = caller.token ? await scopeRefusal(t, route, caller.token) : null;
    const res = await t.rest(route.method.toUpperCase(), urlOf(route), { token: caller.token, ...request });
    if (refused) {
      expect(res.status, `${caller.name}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body, caller.name).toEqual({ error: refused });
      continue;
    }
    judged += 1;
    expect(res.status, `${caller.name}: ${JSON.stringify(res.body)}`).toBe(status);
    expect(Object.keys(res.body), caller.name).toEqual(['error']);
    expect(res.body.error, caller.name).toMatch(/^[A-Z].*\.$/);
    expect(await writeFingerprint(), `${caller.name}: nothing is written`).toBe(before);
  }
  expect(judged, 'callers the route admits (its body refusal is checked with them)').toBeGreaterThan(0);
}

describe('the route table names the routes that read a body', () => {
  it('POST, PUT and PATCH routes, public and protected', () => {
    const names = bodyRoutes.map(nameOf);
    expect(names).toEqual(expect.arrayContaining(['POST /auth/login', 'POST /products', 'PATCH /products/:id']));
    expect(names).toEqual(expect.arrayContaining(['PUT /approvals/:id', 'POST /rate-cards/import']));
    expect(bodyRoutes.some((r) => r.public)).toBe(true);
    expect(bodyRoutes.some((r) => !r.public)).toBe(true);
  });

  it('they are exactly the operations whose OpenAPI description takes a request body', () => {
    const document = loadOpenApiDocument() as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    const takesBody = routes
      .filter((r) => BODY_METHODS.has(r.method))
      .filter((r) => document.paths[`/api/v1${r.path.replace(/:(\w+)/g, '{$1}')}`]?.[r.method]?.requestBody);
    expect(bodyRoutes.map(nameOf)).toEqual(takesBody.map(nameOf));
  });

  it('the write fingerprint sees a write', async () => {
    const before = await writeFingerprint();
    await t.database.prisma.$executeRawUnsafe('UPDATE users SET first_name = first_name WHERE id = 1');
    expect(await writeFingerprint()).not.toBe(before);
  });
});

describe('413: a body over MAX_BODY_BYTES is refused with the error body; nothing is written', () => {
  /** A JSON object one byte over the limit (the padding is ASCII: one byte a character). */
  const oversized = () => {
    const frame = JSON.stringify({ padding: '' });
    return JSON.stringify({ padding: 'x'.repeat(t.config.maxBodyBytes + 1 - frame.length) });
  };

  it('the oversized body is one byte over the configured limit', () => {
    expect(Buffer.byteLength(oversized())).toBe(t.config.maxBodyBytes + 1);
  });

  for (const route of bodyRoutes) {
    it(nameOf(route), async () => {
      await expectRefused(route, 413, { raw: oversized(), headers: { 'content-type': 'application/json' } });
    });
  }
});

describe('415: a body that is not JSON (text/plain) is refused with the error body; nothing is written', () => {
  // Valid JSON text, sent as text/plain: a server that read it anyway, or ran the operation without it, is caught.
  const text = JSON.stringify({ name: 'x' });

  for (const route of bodyRoutes) {
    it(nameOf(route), async () => {
      await expectRefused(route, 415, { raw: text, headers: { 'content-type': 'text/plain' } });
    });
  }
});

describe('415: a JSON body in a charset other than UTF-8 is refused with the error body; nothing is written', () => {
  for (const route of bodyRoutes) {
    it(nameOf(route), async () => {
      await expectRefused(route, 415, {
        raw: JSON.stringify({ name: 'x' }),
        headers: { 'content-type': 'application/json; charset=latin1' },
      });
    });
  }
});
