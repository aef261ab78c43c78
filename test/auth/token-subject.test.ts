/**
 * Access tokens: the subject is the canonical decimal of a positive int4 user id. Anything else in a validly signed
 * token (an exponent, a sign, a leading zero, a fraction, beyond int4) is 401, never a 500 from the database.
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/modules/auth/tokens.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let sid: string;
let sub: string;
beforeAll(async () => {
  t = await startTestApp();
  const claims = jwt.decode((await t.login('broker.admin@demo.test')).access) as { sub: string; sid: string };
  ({ sid, sub } = claims);
});
afterAll(async () => {
  await t?.close();
});

const sign = (claims: { sub: string; sid: string }) =>
  signAccessToken(t.config.jwtSecret, claims, new Date(), new Date(Date.now() + 600_000));
const me = (token: string) => t.rest('GET', '/api/v1/api-tokens', { token });

describe('Access token subject: a canonical positive int4 decimal string', () => {
  it("the app's own token (same sub and sid, re-signed) is accepted: the check is not a blanket refusal", async () => {
    expect((await me(sign({ sub, sid }))).status).toBe(200);
  });

  it.each([
    '1e20',
    '-1',
    '0',
    '01',
    `0${'0'.repeat(3)}1`,
    '2147483648',
    '99999999999',
    '1.0',
    ' 1',
    '1 ',
    '+1',
    '0x1',
    '',
    'NaN',
    'Infinity',
    '1\u0000',
  ])('sub %j is 401', async (bad) => {
    const res = await me(sign({ sub: bad, sid }));
    expect(res.status).toBe(401);
    expect(typeof res.body.error).toBe('string');
  });

  it('sub 2147483647 (the largest int4, no such user) is 401', async () => {
    expect((await me(sign({ sub: '2147483647', sid }))).status).toBe(401);
  });

  it('a sid that is not a session id (a NUL byte included) is 401', async () => {
    for (const badSid of ['x\u0000', '\ud800', 'nope']) expect((await me(sign({ sub, sid: badSid }))).status).toBe(401);
  });

  it('GraphQL answers the same: UnauthenticatedError, not INTERNAL_SERVER_ERROR', async () => {
    const data = await t.graphql(sign({ sub: '1e20', sid })).request<any>('{ apiTokens { __typename } }');
    expect(data.apiTokens.__typename).toBe('UnauthenticatedError');
  });
});
