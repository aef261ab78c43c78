/**
 * GraphiQL works with no internet: the page carries its own scripts and styles, opens with an example that runs
 * against this schema, and is not served in prod, where its bundle is never even loaded.
 */
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/schema.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let app: TestApp;
let prod: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  prod = await startTestApp({ shareDatabaseWith: app, config: { graphqlExplorer: false } });
});
afterAll(async () => {
  await prod?.close();
  await app?.close();
});

function openExplorer(t: TestApp): Promise<Response> {
  return fetch(`${t.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
}

/** The options object GraphiQL is rendered with (the last JSON argument of renderYogaGraphiQL). */
function explorerOptions(html: string): { defaultQuery: string; headers: string } {
  const call = html.lastIndexOf('renderYogaGraphiQL(');
  const start = html.indexOf('{', call);
  const end = html.lastIndexOf('}', html.indexOf('</script>', call));
  return JSON.parse(html.slice(start, end + 1));
}

describe('GraphiQL loads every script and style from the service itself', () => {
  it('references no script, stylesheet or worker on another host', async () => {
    const res = await openExplorer(app);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('YogaGraphiQL');
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+rel="?stylesheet/i);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs/i);
  });
});

describe('GraphiQL opens with an example operation and a note on the Authorization header', () => {
  it('the example validates against the schema and the headers name Authorization', async () => {
    const options = explorerOptions(await (await openExplorer(app)).text());
    expect(validate(schema, parse(options.defaultQuery))).toEqual([]);
    expect(options.defaultQuery).toContain('Authorization');
    expect(JSON.parse(options.headers)).toHaveProperty('Authorization');
  });
});

describe('GraphiQL stays off when the explorer is off (prod)', () => {
  it('answers no explorer page', async () => {
    const res = await openExplorer(prod);
    expect(await res.text()).not.toContain('YogaGraphiQL');
  });
});

describe('GET / links a newcomer to GraphQL, GraphiQL and the REST contract', () => {
  it('answers the links, without GraphiQL when the explorer is off', async () => {
    const body = await (await fetch(`${app.baseUrl}/`)).json();
    expect(body.links).toMatchObject({ graphql: '/graphql', rest: '/api/v1', readiness: '/readyz' });
    expect(body.links.graphiql).toBeDefined();
    const prodBody = await (await fetch(`${prod.baseUrl}/`)).json();
    expect(prodBody.links.graphiql).toBeUndefined();
  });
});

describe('GraphiQL costs prod nothing: its bundle loads on the first page asked for, not at start', () => {
  it('starting the app resolves no module of @graphql-yoga/render-graphiql; importing it does', async () => {
    const { execFileSync } = await import('node:child_process');
    // A resolve hook (in Node's loader thread) that reports every module of the bundle as it is resolved.
    const hook = `data:text/javascript,${encodeURIComponent(
      "import { writeSync } from 'node:fs';" +
        'export async function resolve(specifier, context, next) {' +
        '  const resolved = await next(specifier, context);' +
        "  if (resolved.url.includes('render-graphiql')) writeSync(1, 'RESOLVED render-graphiql\\n');" +
        '  return resolved;' +
        '}',
    )}`;
    const script =
      "import { register } from 'node:module';" +
      `register(${JSON.stringify(hook)});` +
      "await import('./src/app.ts');" +
      "console.log('APP LOADED');" +
      "await import('@graphql-yoga/render-graphiql');" +
      "console.log('BUNDLE IMPORTED');";
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const lines = out.split('\n').filter(Boolean);
    // Nothing of the bundle before the app is loaded; the hook does see it when it is imported.
    expect(lines[0]).toBe('APP LOADED');
    expect(lines.slice(1, -1)).toContain('RESOLVED render-graphiql');
    expect(lines.at(-1)).toBe('BUNDLE IMPORTED');
  }, 60_000);
});
