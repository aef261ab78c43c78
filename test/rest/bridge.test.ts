/** The REST bridge: the spec's general error body for everything a client can get wrong; never HTML or a stack. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/rest/routes/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

describe('General error body: error (string) and errors (map from field to list of string)', () => {
  it('malformed JSON answers 400 JSON', async () => {
    const res = await t.rest('POST', '/api/v1/auth/login', { raw: '{"email": ' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(typeof res.body.error).toBe('string');
  });

  it('wrong types answer 400 naming each field', async () => {
    const res = await t.rest('POST', '/api/v1/auth/login', { body: { email: ['x'], password: { a: 1 } } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'password']);
    for (const messages of Object.values(res.body.errors)) expect(Array.isArray(messages)).toBe(true);
  });

  it('a JSON array or scalar body reads as an empty object', async () => {
    expect((await t.rest('POST', '/api/v1/auth/login', { raw: '[1,2]' })).status).toBe(400);
    expect((await t.rest('POST', '/api/v1/auth/login', { raw: '"x"' })).status).toBe(400);
  });

  it('unknown routes answer 404 JSON, inside and outside /api/v1', async () => {
    for (const url of ['/api/v1/nope', '/api/v1/organisations', '/nothing-here']) {
      const res = await t.rest('GET', url, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Not found.' });
    }
  });

  it('an oversized body answers 413 JSON, never HTML', async () => {
    const res = await t.rest('POST', '/api/v1/auth/login', { body: { email: 'x'.repeat(400_000), password: 'y' } });
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe('string');
  });

  it('no response carries a stack trace or HTML', async () => {
    const res = await t.rest('PUT', '/api/v1/users/1', { token, raw: '{{{' });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+|<html|<pre/i);
  });
});

describe('Authentication: credentials are judged before the body', () => {
  it('an anonymous request with a bad body is 401, not 400', async () => {
    expect((await t.rest('PUT', '/api/v1/users/1', { body: { is_active: 'nope' } })).status).toBe(401);
  });
  it('an anonymous request with malformed JSON is 401, on every protected route of the table', async () => {
    for (const route of routes.filter((r) => !r.public && r.method !== 'get')) {
      const url = `/api/v1${route.path.replace(/:[a-z_]+/g, '1')}`;
      const res = await t.rest(route.method.toUpperCase(), url, { raw: '{"broken": ' });
      expect(res.status, `${route.method} ${route.path}`).toBe(401);
      expect(typeof res.body.error).toBe('string');
    }
  });
  it('an invalid token with malformed JSON is 401; a valid one gets the 400', async () => {
    expect((await t.rest('PUT', '/api/v1/users/1', { token: 'not-a-token', raw: '{{{' })).status).toBe(401);
    expect((await t.rest('PUT', '/api/v1/users/1', { token, raw: '{{{' })).status).toBe(400);
  });
  it('a public route still reads the body: malformed JSON is 400', async () => {
    expect((await t.rest('POST', '/api/v1/auth/login', { raw: '{{{' })).status).toBe(400);
  });
  it('a malformed Authorization header is 401', async () => {
    expect((await t.rest('GET', '/api/v1/api-tokens', { headers: { authorization: 'Token abc' } })).status).toBe(401);
  });
});
