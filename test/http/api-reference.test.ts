/**
 * GET /docs: the REST API reference (Swagger UI over /api/v1/openapi.json) works with no internet: the page and every
 * asset it loads come from the service, under a strict Content-Security-Policy, in prod too.
 * The page running in a real browser is test/browser/explorer-and-reference.test.ts.
 */
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startupBanner } from '../../src/lib/startup.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let app: TestApp;
let prod: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  prod = await startTestApp({ shareDatabaseWith: app, config: { environment: 'prod', graphqlExplorer: false } });
});
afterAll(async () => {
  await prod?.close();
  await app?.close();
});

async function page(t: TestApp, path = '/docs'): Promise<{ res: Response; html: string }> {
  const res = await fetch(`${t.baseUrl}${path}`);
  return { res, html: await res.text() };
}

/** Every URL the page loads: scripts' src and links' href. */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/gi)].map((m) => m[1]);
}

function cspDirectives(header: string | null): Map<string, string> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
}

/**
 * node:http, not fetch, for conditional requests: fetch adds `Cache-Control: no-cache` to them, which asks for the body.
 * No Accept-Encoding: the plain bytes and their ETag.
 */
function plainGet(url: string, headers: Record<string, string> = {}): Promise<{ status?: number; etag?: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode, etag: res.headers.etag });
    }).on('error', reject);
  });
}

const FOREIGN_URL = /\bhttps?:\/\//i;

describe('GET /docs answers the reference page with a strict Content-Security-Policy', () => {
  it('answers HTML at /docs and /docs/, scripts and connections limited to this origin', async () => {
    for (const path of ['/docs', '/docs/']) {
      const { res, html } = await page(app, path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(html).toContain('<div id="swagger-ui"></div>');
      const csp = cspDirectives(res.headers.get('content-security-policy'));
      expect(csp.get('default-src')).toBe("'self'");
      expect(csp.get('script-src')).toBe("'self'");
      expect(csp.get('connect-src')).toBe("'self'");
      expect(csp.get('style-src')).toBe("'self'");
      expect(csp.get('img-src')).toBe("'self' data:");
      expect(res.headers.get('content-security-policy')).not.toContain("'unsafe-");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('carries no inline script or style, so the policy needs no unsafe-inline', async () => {
    const { html } = await page(app);
    expect(html).not.toMatch(/<style\b|\sstyle=/i);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(body.trim()).toBe('');
    }
  });
});

describe('every script, style and icon the page references is served by the service itself', () => {
  it('answers each with 200, its content type and a year-long immutable cache', async () => {
    const { html } = await page(app);
    const urls = referencedUrls(html);
    expect(urls.map((u) => u.split('/').pop())).toEqual(
      expect.arrayContaining(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']),
    );
    const types: Record<string, string> = {
      css: 'text/css; charset=utf-8',
      js: 'text/javascript; charset=utf-8',
      png: 'image/png',
    };
    for (const url of urls) {
      expect(url.startsWith('/docs/assets/')).toBe(true);
      const res = await fetch(`${app.baseUrl}${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type'), url).toBe(types[url.split('.').pop()!]);
      expect(res.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
      expect((await res.arrayBuffer()).byteLength, url).toBeGreaterThan(0);
    }
  });

  it('answers 304 to a reader that already holds the asset', async () => {
    const url = referencedUrls((await page(app)).html).find((u) => u.endsWith('/swagger-ui.css'))!;
    const first = await plainGet(`${app.baseUrl}${url}`);
    expect(first.status).toBe(200);
    expect(first.etag).toBeTruthy();
    expect((await plainGet(`${app.baseUrl}${url}`, { 'if-none-match': first.etag! })).status).toBe(304);
  });

  it('sends scripts gzipped to a reader that accepts gzip, the same bytes once unpacked', async () => {
    const url = referencedUrls((await page(app)).html).find((u) => u.endsWith('/swagger-ui-bundle.js'))!;
    const plain = await fetch(`${app.baseUrl}${url}`, { headers: { 'accept-encoding': 'identity' } });
    const packed = await fetch(`${app.baseUrl}${url}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(packed.headers.get('content-encoding')).toBe('gzip');
    expect(packed.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    expect(await packed.text()).toBe(await plain.text()); // fetch unpacks gzip
  });
});

describe("only the page's own files are served from swagger-ui-dist", () => {
  it("answers 404 for the package's petstore page and initializer, its source maps and any other path", async () => {
    const { html } = await page(app);
    const dist = referencedUrls(html)
      .find((u) => u.endsWith('/swagger-ui.css'))!
      .replace(/\/swagger-ui\.css$/, '');
    for (const path of [
      `${dist}/index.html`,
      `${dist}/swagger-initializer.js`,
      `${dist}/swagger-ui-bundle.js.map`,
      `${dist}/swagger-ui-standalone-preset.js`,
      `${dist}/oauth2-redirect.html`,
      `${dist}/package.json`,
      `${dist}/../../../package.json`,
      `${dist}/%2e%2e/%2e%2e/package.json`,
      '/docs/assets/',
      '/docs/index.html',
    ]) {
      const res = await fetch(`${app.baseUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual({ error: 'Not found.' });
    }
  });
});

describe('nothing on the page or in its initializer names another origin', () => {
  it('has no http:// or https:// URL in the HTML or the initializer script', async () => {
    const { html } = await page(app);
    expect(html).not.toMatch(FOREIGN_URL);
    const initializerUrl = referencedUrls(html).find((u) => u.includes('/initializer-'))!;
    const initializer = await (await fetch(`${app.baseUrl}${initializerUrl}`)).text();
    expect(initializer).not.toMatch(FOREIGN_URL);
  });
});

describe("the initializer opens this service's OpenAPI document with Try it out and persistent authorization", () => {
  it('names /api/v1/openapi.json (which answers), turns Try it out and persistAuthorization on, the validator off', async () => {
    const { html } = await page(app);
    const initializer = await (
      await fetch(`${app.baseUrl}${referencedUrls(html).find((u) => u.includes('/initializer-'))!}`)
    ).text();
    expect(initializer).toContain("url: '/api/v1/openapi.json'");
    expect(initializer).toContain('tryItOutEnabled: true');
    expect(initializer).toContain('persistAuthorization: true');
    // swagger-ui's default sends the document's URL to validator.swagger.io (on any host but localhost).
    expect(initializer).toContain('validatorUrl: null');
    expect(html).toMatch(/<title>[^<]*API reference<\/title>/);
    const document = await fetch(`${app.baseUrl}/api/v1/openapi.json`);
    expect(document.status).toBe(200);
    expect((await document.json()).openapi).toMatch(/^3\.1\./);
  });
});

describe('the reference stays on in prod (the contract it shows is public)', () => {
  it('answers /docs, its assets and the link from GET / in prod', async () => {
    const { res, html } = await page(prod);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const url of referencedUrls(html)) expect((await fetch(`${prod.baseUrl}${url}`)).status, url).toBe(200);
    const links = (await (await fetch(`${prod.baseUrl}/`)).json()).links;
    expect(links.docs).toBe('/docs');
    expect(links.graphiql).toBeUndefined();
  });
});

describe('GET / and the start banner point a newcomer to the API reference', () => {
  it('GET / lists /docs beside the OpenAPI document', async () => {
    const links = (await (await fetch(`${app.baseUrl}/`)).json()).links;
    expect(links).toMatchObject({ docs: '/docs', openapi: '/api/v1/openapi.json' });
  });

  it('the banner names /docs in every environment, prod included', () => {
    for (const environment of ['local', 'prod'] as const) {
      const banner = startupBanner({
        environment,
        port: 4000,
        where: 'PGlite',
        graphqlExplorer: environment !== 'prod',
        decision: environment === 'prod' ? 'never-in-prod' : 'load',
        databaseEmpty: true,
        demoAccountsPresent: environment !== 'prod',
      });
      expect(banner.join('\n')).toContain('http://localhost:4000/docs');
    }
  });
});
