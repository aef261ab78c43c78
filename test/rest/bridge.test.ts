/** The REST bridge: the spec's general error body for everything a client can get wrong; never HTML or a stack. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
