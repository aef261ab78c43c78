/**
 * The route table (src/rest/routes/index.ts) and the OpenAPI document (src/rest/openapi/) name the same operations.
 * A route's operationId is its default-export name in the table, read from the table's own imports: no second list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RouteDefinition } from '../../src/rest/define-route.ts';
import { loadOpenApiDocument } from '../../src/rest/openapi/document.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { MCP_PATH } from '../../src/mcp/server.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const routesDir = new URL('../../src/rest/routes/', import.meta.url);
const pathsDir = new URL('../../src/rest/openapi/paths/', import.meta.url);

/** `import matrixCalculator from './matrix/matrix-calculator.route.ts';` → the route object, its name and directory. */
async function namedRoutes(): Promise<{ name: string; directory: string; route: RouteDefinition }[]> {
  const table = readFileSync(new URL('index.ts', routesDir), 'utf8');
  const imports = [...table.matchAll(/^import (\w+) from '\.\/([\w-]+)\/([\w.-]+\.route\.ts)';$/gm)];
  const named = await Promise.all(
    imports.map(async ([, name, directory, file]) => ({
      name,
      directory,
      route: (await import(new URL(`${directory}/${file}`, routesDir).href)).default as RouteDefinition,
    })),
  );
  return routes.map((route) => {
    const found = named.find((n) => n.route === route);
    if (!found) throw new Error(`${route.method} ${route.path}: not imported by name in routes/index.ts`);
    return found;
  });
}

/** The Express path as the document spells it: `/api/v1` prefix, `:id` as `{id}`, trailing slash kept. */
const documentedPath = (route: RouteDefinition) => `/api/v1${route.path.replace(/:(\w+)/g, '{$1}')}`;

const document = loadOpenApiDocument();
type Operation = Record<string, any>;
const operations: { method: string; path: string; operation: Operation }[] = Object.entries(
  document.paths as Record<string, Record<string, Operation>>,
).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ method, path, operation: item[method] })),
);

/** Which paths file documents each `METHOD path`. */
const fileOf = new Map<string, string>();
for (const file of readdirSync(pathsDir).filter((f) => f.endsWith('.yaml'))) {
  const part = parse(readFileSync(new URL(file, pathsDir), 'utf8')) ?? {};
  for (const [path, item] of Object.entries((part.paths ?? {}) as Record<string, Record<string, Operation>>))
    for (const method of METHODS) if (item[method]) fileOf.set(`${method} ${path}`, file);
}

const table = await namedRoutes();
const label = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const publicRoute = (method: string, path: string) =>
  routes.find((r) => r.method === method && documentedPath(r) === path)?.public === true;

describe('every route of the table has exactly one documented operation, named after its export', () => {
  it.each(table.map((t) => [label(t.route.method, documentedPath(t.route)), t] as const))('%s', (_, t) => {
    const operation = document.paths?.[documentedPath(t.route)]?.[t.route.method];
    expect(operation, 'no operation at this method and path').toBeDefined();
    expect(operation.operationId).toBe(t.name);
    expect(operations.filter((o) => o.operation.operationId === t.name)).toHaveLength(1);
  });

  it('no two routes share a method and path', () => {
    const keys = routes.map((r) => label(r.method, documentedPath(r)));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});

describe('every documented operation has a route', () => {
  it('the document names no method and path the table (or the MCP endpoint beside it) does not serve', () => {
    const served = new Set([...routes.map((r) => label(r.method, documentedPath(r))), label('post', MCP_PATH)]);
    expect(operations.map((o) => label(o.method, o.path)).filter((k) => !served.has(k))).toEqual([]);
  });
});

describe('POST /mcp, served beside the table, is documented as it answers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });
  const mcp = () => document.paths?.[MCP_PATH]?.post;
  const documented = (status: number) => Object.keys(mcp()?.responses ?? {}).includes(String(status));
  const call = (token: string | null, body: string, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}${MCP_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body,
    });
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-check', version: '1' } },
  });

  it('has its operation, in the AI assistants tag, with the bearer default', () => {
    expect(mcp()?.operationId).toBe('mcp');
    expect(mcp()?.tags).toEqual(['AI assistants']);
    expect(mcp()?.security).toBeUndefined();
  });

  it('each answer it gives has its status documented: 200, 202, 400, 401, 403, 406', async () => {
    const session = (await app.login('broker.admin@demo.test')).access;
    const minted = await app.rest('POST', '/api/v1/api-tokens', {
      token: session,
      body: { name: 'openapi mcp', scope: 'read', origin: 'mcp' },
    });
    const token = minted.body.token as string;
    const answers = [
      await call(token, initialize),
      await call(token, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
      await call(token, '{"jsonrpc": '),
      await call(null, initialize),
      await call(session, initialize),
      await call(token, initialize, { accept: 'text/html' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 202, 400, 401, 403, 406]);
    for (const a of answers) expect(documented(a.status), `${a.status} is not documented`).toBe(true);
    expect(answers[3].headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe("a route's operation lives in the paths file named after the route's directory", () => {
  it.each(table.map((t) => [label(t.route.method, documentedPath(t.route)), t] as const))('%s', (_, t) => {
    expect(fileOf.get(`${t.route.method} ${documentedPath(t.route)}`)).toBe(`${t.directory}.yaml`);
  });
});

describe('every operation has a summary, a description, a defined tag, a 2xx answer, and a 401 unless public', () => {
  const tags = new Set((document.tags ?? []).map((t: { name: string }) => t.name));
  it.each(operations.map((o) => [label(o.method, o.path), o] as const))('%s', (_, { method, path, operation }) => {
    expect(operation.summary?.trim()).toBeTruthy();
    expect(operation.description?.trim()).toBeTruthy();
    expect(operation.tags?.length).toBeGreaterThan(0);
    for (const tag of operation.tags) expect(tags, `tag "${tag}" is not in the document's tags`).toContain(tag);
    const statuses = Object.keys(operation.responses ?? {});
    expect(statuses.some((s) => /^2\d\d$/.test(s))).toBe(true);
    if (!publicRoute(method, path)) expect(statuses).toContain('401');
  });
});

describe('every answer but 204 and 202 has a JSON body schema; 204 and 202 have none', () => {
  /** A `$ref` to components/responses, followed. */
  const resolved = (response: Record<string, any>) =>
    response.$ref ? document.components.responses[response.$ref.split('/').at(-1)] : response;
  it.each(operations.map((o) => [label(o.method, o.path), o] as const))('%s', (_, { operation }) => {
    for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
      const answer = resolved(response);
      expect(answer, `${status}: unresolved ${response.$ref}`).toBeDefined();
      if (status === '204' || status === '202') expect(answer.content, `${status} has a body`).toBeUndefined();
      else expect(answer.content?.['application/json']?.schema, `${status} has no JSON schema`).toBeDefined();
    }
  });
});

describe('public routes say `security: []`; protected ones keep the bearer default', () => {
  it('the document requires the bearer token by default', () => {
    expect(document.security).toEqual([{ bearer: [] }]);
  });

  it.each(routes.map((r) => [label(r.method, documentedPath(r)), r] as const))('%s', (_, route) => {
    const operation = document.paths?.[documentedPath(route)]?.[route.method];
    expect(operation, 'no operation at this method and path').toBeDefined();
    if (route.public) expect(operation.security).toEqual([]);
    else expect(operation.security ?? document.security).toEqual([{ bearer: [] }]);
  });
});

describe('the served document is the merged one, OpenAPI 3.1', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ seed: 'none' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/v1/openapi.json answers the merged document, without a bearer token', async () => {
    const res = await t.rest('GET', '/api/v1/openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(loadOpenApiDocument());
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
  });
});
