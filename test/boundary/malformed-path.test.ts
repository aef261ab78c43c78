/**
 * A path parameter that is not valid percent-encoded UTF-8 (`%C0%80`, `%u0041`, a lone `%`) is refused with the
 * service's 400 body; on a protected route credentials are judged first (401), as for any other bad input.
 */
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

const ROUTES: [string, string][] = [
  ['PUT', '/api/v1/users/{id}'],
  ['DELETE', '/api/v1/api-tokens/{id}'],
  ['POST', '/api/v1/calculator/scenarios/{id}/promote'],
  ['GET', '/api/v1/organisations/{id}'],
];
const BROKEN = ['%C0%80', '%u0041', '%', '%E0%A4%A'];

describe('Broken percent-escapes in a path parameter: 401 without credentials, then 400', () => {
  for (const [method, template] of ROUTES) {
    it.each(BROKEN)(`${method} ${template} with %s`, async (id) => {
      const url = template.replace('{id}', id);
      const body = method === 'GET' ? undefined : { name: 'x' };
      const anonymous = await t.rest(method, url, { body });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ error: expect.any(String) });
      const forged = await t.rest(method, url, { token: 'not-a-token', body });
      expect(forged.status).toBe(401);
      const signedIn = await t.rest(method, url, { token, body });
      expect(signedIn.status).toBe(400);
      expect(signedIn.body).toEqual({
        error: expect.stringMatching(/percent-encoded/),
        errors: { path: [expect.any(String)] },
      });
      expect(JSON.stringify(signedIn.body)).not.toContain(id); // the raw input is not echoed
    });
  }

  it('an unknown path with a broken escape is still a 400 JSON body (no route to protect)', async () => {
    const res = await t.rest('GET', '/api/v1/no-such/%C0%80');
    expect([400, 404]).toContain(res.status);
    expect(typeof res.body.error).toBe('string');
  });
});
