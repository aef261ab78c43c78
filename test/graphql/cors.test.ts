/**
 * CORS: one explicit allow-list (CORS_ALLOWED_ORIGINS) for both surfaces, empty by default. Only a listed origin
 * is echoed; nothing allows credentials (tokens travel in a header, not cookies).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { loadConfig } from '../../src/lib/config.ts';

const ALLOWED = 'https://dashboard.example.com.au';
let listed: TestApp;
let unlisted: TestApp;
beforeAll(async () => {
  listed = await startTestApp({
    config: {
      corsAllowedOrigins: loadConfig({
        CORS_ALLOWED_ORIGINS: `${ALLOWED}, https://other.example.com.au`,
        DATA_DIR: ':memory:',
        JWT_SECRET: 'x'.repeat(32),
      }).corsAllowedOrigins,
    },
  });
  unlisted = await startTestApp({ shareDatabaseWith: listed, config: { corsAllowedOrigins: [] } });
});
afterAll(async () => {
  await unlisted?.close();
  await listed?.close();
});

const SURFACES = [
  { name: '/graphql', url: '/graphql', method: 'POST', body: JSON.stringify({ query: '{ __typename }' }) },
  {
    name: '/api/v1',
    url: '/api/v1/auth/login',
    method: 'POST',
    body: JSON.stringify({ email: 'nobody@example.com', password: 'x' }),
  },
];

async function call(t: TestApp, url: string, init: RequestInit & { origin?: string }): Promise<Response> {
  return fetch(`${t.baseUrl}${url}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(init.origin ? { origin: init.origin } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  });
}

for (const s of SURFACES) {
  describe(`CORS allow-list on ${s.name}`, () => {
    it('an allowed origin gets Access-Control-Allow-Origin (its own), never credentials', async () => {
      const res = await call(listed, s.url, { method: s.method, body: s.body, origin: ALLOWED });
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/Origin/);
      // A browser client may read the request id, list totals, back-off, the rate card's version and a run's scenario.
      expect(res.headers.get('access-control-expose-headers')).toBe(
        'X-Request-Id, X-Total-Count, Retry-After, ETag, X-Scenario-Id, X-Scenario-Change-Threshold',
      );
    });

    it('any other origin gets no CORS header', async () => {
      for (const origin of ['https://evil.example.com', 'https://dashboard.example.com.au.evil.com', 'null']) {
        const res = await call(listed, s.url, { method: s.method, body: s.body, origin });
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      }
    });

    it('preflight: an allowed origin is told the methods and headers; another is told nothing', async () => {
      const preflight = (t: TestApp, origin: string) =>
        call(t, s.url, {
          method: 'OPTIONS',
          origin,
          headers: {
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
      const ok = await preflight(listed, ALLOWED);
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(ok.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(ok.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      const refused = await preflight(listed, 'https://evil.example.com');
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect(refused.headers.get('access-control-allow-methods')).toBeNull();
    });

    it('none by default: with no CORS_ALLOWED_ORIGINS no origin is allowed, preflight included', async () => {
      expect(loadConfig({ DATA_DIR: ':memory:', JWT_SECRET: 'x'.repeat(32) }).corsAllowedOrigins).toEqual([]);
      const res = await call(unlisted, s.url, { method: s.method, body: s.body, origin: ALLOWED });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const pre = await call(unlisted, s.url, {
        method: 'OPTIONS',
        origin: ALLOWED,
        headers: { 'access-control-request-method': 'POST' },
      });
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
}

describe('CORS_ALLOWED_ORIGINS is validated at start', () => {
  it('a value that is not exactly an origin stops the start', () => {
    for (const bad of [
      'dashboard.example.com',
      'https://dashboard.example.com/',
      'https://dashboard.example.com/app',
      '*',
    ]) {
      expect(
        () => loadConfig({ CORS_ALLOWED_ORIGINS: bad, DATA_DIR: ':memory:', JWT_SECRET: 'x'.repeat(32) }),
        bad,
      ).toThrow(/CORS_ALLOWED_ORIGINS/);
    }
  });
});
