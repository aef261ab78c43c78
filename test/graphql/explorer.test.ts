/**
 * GraphiQL works with no internet: a small page whose scripts, styles and editor workers are separate files from the
 * service itself, compressed and cacheable; it opens with an example that runs against this schema, and is not served
 * in prod. That prod never even loads its bundle is checked on spawned servers (test/operations/server-process.test.ts).
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql-server/schema.ts';
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

/** The page's JSON block: the options GraphiQL is rendered with, and the editor workers' URLs. */
function explorerConfig(html: string): {
  options: { defaultQuery: string; headers: string };
  workers: Record<string, string>;
} {
  const block = /<script id="graphiql-config" type="application\/json">([^<]*)<\/script>/.exec(html);
  expect(block).not.toBeNull();
  return JSON.parse(block![1]);
}
const explorerOptions = (html: string) => explorerConfig(html).options;

/** Every URL the page loads: scripts, stylesheets, icons, and the workers its start script names. */
function pageAssets(html: string): string[] {
  const attributes = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  return [...attributes, ...Object.values(explorerConfig(html).workers)];
}

/** GET with exactly these headers (fetch would add its own Accept-Encoding and unpack the body). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('GraphiQL loads every script, style and worker from the service itself', () => {
  it('names only files under /graphiql/assets/ on this origin, nothing on another host', async () => {
    const res = await openExplorer(app);
    expect(res.status).toBe(200);
    const html = await res.text();
    const assets = pageAssets(html);
    // The bundle, its stylesheet, the start script, the icon and Monaco's three workers.
    expect(assets).toHaveLength(7);
    for (const url of assets) expect(url).toMatch(/^\/graphiql\/assets\/[a-z-]+-[A-Za-z0-9_-]{12}\.(js|css|ico)$/);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs/i);
  });
});

describe('GraphiQL is a small page; its assets are separate, compressed and cached for a year', () => {
  it('the page is under 8 kB and revalidated on every load', async () => {
    const page = await rawGet(`${app.baseUrl}/graphql`, { accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body.length).toBeLessThan(8 * 1024);
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('every asset is immutable for a year, with an ETag that answers 304', async () => {
    const html = (await rawGet(`${app.baseUrl}/graphql`, { accept: 'text/html' })).body.toString();
    for (const url of pageAssets(html)) {
      const first = await rawGet(`${app.baseUrl}${url}`);
      expect(first.status, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(first.headers.etag, url).toBeTruthy();
      const again = await rawGet(`${app.baseUrl}${url}`, { 'if-none-match': first.headers.etag! });
      expect(again.status, url).toBe(304);
    }
  });

  it('scripts and styles are sent brotli- or gzip-compressed, the same bytes once unpacked; all of it under 2.5 MB', async () => {
    const html = (await rawGet(`${app.baseUrl}/graphql`, { accept: 'text/html' })).body.toString();
    let brotliTotal = 0;
    for (const url of pageAssets(html).filter((u) => !u.endsWith('.ico'))) {
      const plain = await rawGet(`${app.baseUrl}${url}`);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      const br = await rawGet(`${app.baseUrl}${url}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(br.headers.vary, url).toBe('Accept-Encoding');
      expect(brotliDecompressSync(br.body).equals(plain.body), url).toBe(true);
      const gz = await rawGet(`${app.baseUrl}${url}`, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body), url).toBe(true);
      expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size, url).toBe(3);
      brotliTotal += br.body.length;
    }
    // Yoga's inline page was about 9 MB on every load.
    expect(brotliTotal).toBeLessThan(2.5 * 1024 * 1024);
  });

  it('an unknown asset name is the JSON 404', async () => {
    const res = await fetch(`${app.baseUrl}/graphiql/assets/graphiql-AAAAAAAAAAAA.js`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found.' });
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
  it('answers no explorer page and no asset', async () => {
    const res = await openExplorer(prod);
    expect(await res.text()).not.toContain('graphiql');
    const assets = pageAssets(await (await openExplorer(app)).text());
    for (const url of assets) expect((await fetch(`${prod.baseUrl}${url}`)).status, url).toBe(404);
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
