import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('POST /auth/login', () => {
  it('answers 200 {access, refresh} for a demo account', async () => {
    const res = await t.rest('POST', '/api/v1/auth/login', {
      body: { email: 'broker.admin@demo.test', password: 'demo-password-1' },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access', 'refresh']);
    const me = await t.graphql(res.body.access).request<{ me: { email: string } }>('{ me { ... on User { email } } }');
    expect(me.me.email).toBe('broker.admin@demo.test');
  });

  it('answers the same 401 for a wrong password, an unknown email and an inactive user', async () => {
    await t.database.prisma.user.update({ where: { email: 'broker.user@demo.test' }, data: { is_active: false } });
    const wrong = await t.rest('POST', '/api/v1/auth/login', {
      body: { email: 'broker.admin@demo.test', password: 'nope-nope' },
    });
    const unknown = await t.rest('POST', '/api/v1/auth/login', {
      body: { email: 'nobody@demo.test', password: 'demo-password-1' },
    });
    const inactive = await t.rest('POST', '/api/v1/auth/login', {
      body: { email: 'broker.user@demo.test', password: 'demo-password-1' },
    });
    await t.database.prisma.user.update({ where: { email: 'broker.user@demo.test' }, data: { is_active: true } });
    expect([wrong.status, unknown.status, inactive.status]).toEqual([401, 401, 401]);
    expect(unknown.body).toEqual(wrong.body);
    expect(inactive.body).toEqual(wrong.body);
  });

  it('answers 400 with the fields named when the body is incomplete', async () => {
    const res = await t.rest('POST', '/api/v1/auth/login', { body: { email: 'broker.admin@demo.test' } });
    expect(res.status).toBe(400);
    expect(res.body.errors.password).toEqual(['This field is required.']);
  });
});

describe('POST /auth/logout', () => {
  it('answers 204 and revokes the sign-in: refresh then gives 401 and the access token stops working', async () => {
    const pair = await t.login('broker.admin@demo.test');
    const out = await t.rest('POST', '/api/v1/auth/logout', { body: { refresh: pair.refresh } });
    expect(out.status).toBe(204);
    expect((await t.rest('POST', '/api/v1/auth/refresh', { body: { refresh: pair.refresh } })).status).toBe(401);
    expect((await t.rest('GET', '/api/v1/api-tokens', { token: pair.access })).status).toBe(401);
  });
});

describe('POST /auth/forgot-password', () => {
  it('always answers the same 200', async () => {
    const known = await t.rest('POST', '/api/v1/auth/forgot-password', { body: { email: 'broker.admin@demo.test' } });
    const unknown = await t.rest('POST', '/api/v1/auth/forgot-password', { body: { email: 'nobody@demo.test' } });
    expect(known.status).toBe(200);
    expect(unknown).toMatchObject({ status: 200, body: known.body });
  });
});

describe('POST /auth/resend-verification', () => {
  it('answers 200 with the same message whether or not the account exists or is verified', async () => {
    await t.database.prisma.user.update({
      where: { email: 'broker.user@demo.test' },
      data: { is_email_verified: false },
    });
    const answers = await Promise.all(
      ['broker.admin@demo.test', 'broker.user@demo.test', 'nobody@demo.test'].map((email) =>
        t.rest('POST', '/api/v1/auth/resend-verification', { body: { email } }),
      ),
    );
    expect(answers[0].body).toEqual({
      message: 'If an account exists for that address and is not yet verified, we have sent a new verification email.',
    });
    for (const a of answers) expect(a).toMatchObject({ status: 200, body: { message: answers[0].body.message } });
    expect(typeof answers[0].body.message).toBe('string');
  });

  it('answers 400 when the value is not a well-formed email address', async () => {
    for (const email of ['not-an-email', '', 'a@b', 42, null]) {
      const res = await t.rest('POST', '/api/v1/auth/resend-verification', { body: { email } });
      expect(res.status, String(email)).toBe(400);
      expect(res.body.errors.email.length).toBeGreaterThan(0);
    }
  });

  it('needs no bearer token', async () => {
    const res = await t.rest('POST', '/api/v1/auth/resend-verification', {
      body: { email: 'x@y.test' },
      token: 'garbage',
    });
    expect(res.status).toBe(200);
  });
});
