/**
 * Sign-in throttle (docs/auth.md): failed sign-ins per account and per client address, exponential lockouts,
 * counted alike over REST and GraphQL, alias by alias. Time is a ManualClock; the client address comes from
 * X-Forwarded-For because this app trusts the loopback proxy (TRUST_PROXY=loopback), so each rule gets its own.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPasswordHash } from '../../testkit/passwords.ts';
import { SIGN_IN_POLICY } from '../../src/modules/auth/sign-in-throttle.ts';
import { ManualClock, startTestApp, type TestApp } from '../../testkit/app.ts';

const PASSWORD = 'right-password-1';
let t: TestApp;
let plain: TestApp;
const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
let hash: string;
let addresses = 0;

beforeAll(async () => {
  t = await startTestApp({ clock, config: { trustProxy: 'loopback' } });
  plain = await startTestApp({ seed: 'none' }); // TRUST_PROXY unset
  hash = await testPasswordHash(PASSWORD);
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
});

/** A fresh active account and a fresh client address for each rule. */
async function account(): Promise<string> {
  const email = `throttle.${randomBytes(4).toString('hex')}@demo.test`;
  await t.database.prisma.user.create({
    data: { email, password_hash: hash, organisation_id: 8, is_active: true, is_email_verified: true },
  });
  return email;
}
const newAddress = () => `203.0.113.${(addresses += 1)}`;

const signIn = (email: string, password: string, address: string) =>
  t.rest('POST', '/api/v1/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': address } });

const LOGIN_FIELDS = `__typename ... on TokenPair { access } ... on Error { message } ... on RateLimitedError { retry_after }`;
async function graphqlSignIns(address: string, attempts: { email: string; password: string }[]) {
  const fields = attempts.map(
    (a, i) =>
      `a${i}: login(email: ${JSON.stringify(a.email)}, password: ${JSON.stringify(a.password)}) { ${LOGIN_FIELDS} }`,
  );
  const data = await t
    .graphql(null, { 'x-forwarded-for': address })
    .request<Record<string, { __typename: string; retry_after?: number }>>(`mutation { ${fields.join(' ')} }`);
  return attempts.map((_, i) => data[`a${i}`]);
}

/**
 * Wrong-password sign-ins from one address over `emails`, all sent at once: each is checked and counted before its
 * password is looked at, so together they count as many failures as one after another, and their password checks
 * (most of a sign-in's time) run side by side.
 */
async function spray(emails: string[], address: string): Promise<number[]> {
  return Promise.all(emails.map(async (email) => (await signIn(email, 'wrong-password', address)).status));
}

async function fail(email: string, address: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i += 1) statuses.push((await signIn(email, 'wrong-password', address)).status);
  return statuses;
}

describe('Five failures in a row lock the account; the next attempt answers 429 with Retry-After', () => {
  it('failures 1-5 answer 401, the sixth 429 with Retry-After: 30 and the rate-limit body', async () => {
    const email = await account();
    const address = newAddress();
    expect(await fail(email, address, SIGN_IN_POLICY.accountAllowance)).toEqual([401, 401, 401, 401, 401]);
    const sixth = await signIn(email, 'wrong-password', address);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('30');
    expect(sixth.body).toEqual({ error: expect.stringMatching(/too many/i) });
  });

  it('the right password during the lockout is refused alike (no oracle), from another address too', async () => {
    const email = await account();
    const address = newAddress();
    await fail(email, address, 5);
    const wrong = await signIn(email, 'wrong-password', address);
    const right = await signIn(email, PASSWORD, address);
    const elsewhere = await signIn(email, PASSWORD, newAddress());
    for (const res of [wrong, right, elsewhere]) expect(res.status).toBe(429);
    expect(right.body).toEqual(wrong.body);
  });
});

describe('After the lockout, sign-in works; each further failure doubles the lockout, up to 15 minutes', () => {
  it('the right password works once Retry-After has passed', async () => {
    const email = await account();
    const address = newAddress();
    await fail(email, address, 5);
    clock.advance(29_000);
    const early = await signIn(email, PASSWORD, address);
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('1');
    clock.advance(1_000);
    expect((await signIn(email, PASSWORD, address)).status).toBe(200);
  });

  it('lockouts grow 30 s, 60 s, 120 s, … and stop growing at 900 s', async () => {
    const email = await account();
    const address = newAddress();
    await fail(email, address, 5);
    const waits: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const refused = await signIn(email, 'wrong-password', address);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get('retry-after'));
      waits.push(wait);
      clock.advance(wait * 1000);
      expect((await signIn(email, 'wrong-password', address)).status).toBe(401); // one probe per lockout
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
  });
});

describe('A successful sign-in resets the account counter', () => {
  it('4 failures, a success, then 5 more failures all answer 401 before the lockout', async () => {
    const email = await account();
    const address = newAddress();
    expect(await fail(email, address, 4)).toEqual([401, 401, 401, 401]);
    expect((await signIn(email, PASSWORD, address)).status).toBe(200);
    expect(await fail(email, address, 5)).toEqual([401, 401, 401, 401, 401]);
    expect((await signIn(email, PASSWORD, address)).status).toBe(429);
  });
});

describe('Unknown emails are counted per email exactly like accounts', () => {
  it('an unknown email locks after 5 failures with the same answers as a known one', async () => {
    const address = newAddress();
    const known = await account();
    const unknown = `nobody.${randomBytes(4).toString('hex')}@demo.test`;
    expect(await fail(unknown, address, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(await fail(known, address, 5)).toEqual([401, 401, 401, 401, 401]);
    const a = await signIn(unknown, 'wrong-password', address);
    const b = await signIn(` ${known.toUpperCase()} `, 'wrong-password', address); // the same email, normalised
    expect([a.status, b.status]).toEqual([429, 429]);
    expect(a.body).toEqual(b.body);
    expect(a.headers.get('retry-after')).toBe(b.headers.get('retry-after'));
  });
});

describe('Thirty failures from one address lock that address for every account', () => {
  it('30 failures over 30 emails, then a right password from that address is 429; another address signs in', async () => {
    const address = newAddress();
    const victim = await account();
    const emails = Array.from({ length: SIGN_IN_POLICY.addressAllowance }, (_, i) => `spray.${i}.${address}@demo.test`);
    expect(await spray(emails, address)).toEqual(Array(SIGN_IN_POLICY.addressAllowance).fill(401));
    const refused = await signIn(victim, PASSWORD, address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await signIn(victim, PASSWORD, newAddress())).status).toBe(200);
  });

  it('a success from the address neither counts against it nor clears its failures', async () => {
    const address = newAddress();
    const mine = await account();
    const emails = Array.from({ length: SIGN_IN_POLICY.addressAllowance - 1 }, (_, i) => `spray2.${i}@demo.test`);
    expect(await spray(emails, address)).toEqual(Array(SIGN_IN_POLICY.addressAllowance - 1).fill(401));
    expect((await signIn(mine, PASSWORD, address)).status).toBe(200); // 29 failures still counted, this one not
    expect((await signIn('spray2.last@demo.test', 'wrong-password', address)).status).toBe(401); // the 30th failure
    expect((await signIn(mine, PASSWORD, address)).status).toBe(429);
  });
});

describe('Every aliased login in one GraphQL request is an attempt', () => {
  it('15 aliased logins with a wrong password: 5 UnauthenticatedError, then 10 RateLimitedError with retry_after', async () => {
    const email = await account();
    const results = await graphqlSignIns(
      newAddress(),
      Array.from({ length: 15 }, () => ({ email, password: 'wrong-password' })),
    );
    expect(results.map((r) => r.__typename)).toEqual([
      ...Array(5).fill('UnauthenticatedError'),
      ...Array(10).fill('RateLimitedError'),
    ]);
    expect(results[5].retry_after).toBe(30);
  });

  it('the right password hidden among aliases after the allowance is refused', async () => {
    const email = await account();
    const attempts = [
      ...Array.from({ length: 5 }, () => ({ email, password: 'wrong-password' })),
      { email, password: PASSWORD },
    ];
    const results = await graphqlSignIns(newAddress(), attempts);
    expect(results[5].__typename).toBe('RateLimitedError');
  });
});

describe('REST and GraphQL share one counter', () => {
  it('3 REST failures and 2 GraphQL failures lock the account on both surfaces', async () => {
    const email = await account();
    const address = newAddress();
    expect(await fail(email, address, 3)).toEqual([401, 401, 401]);
    expect(
      (
        await graphqlSignIns(address, [
          { email, password: 'x' },
          { email, password: 'y' },
        ])
      ).map((r) => r.__typename),
    ).toEqual(['UnauthenticatedError', 'UnauthenticatedError']);
    expect((await signIn(email, PASSWORD, address)).status).toBe(429);
    expect((await graphqlSignIns(address, [{ email, password: PASSWORD }]))[0]).toMatchObject({
      __typename: 'RateLimitedError',
      retry_after: 30,
    });
  });
});

describe('Expired counters do not accumulate', () => {
  it('an hour after its last attempt a counter starts again and its row is pruned by a later attempt', async () => {
    const email = await account();
    const address = newAddress();
    await fail(email, address, 4);
    const before = await t.database.prisma.signInThrottle.count();
    expect(before).toBeGreaterThan(2);
    clock.advance(SIGN_IN_POLICY.forgetAfterMs + 1_000);
    expect(await fail(email, address, 5)).toEqual([401, 401, 401, 401, 401]); // four old failures forgotten
    // Every other rule's rows are an hour old now; one attempt prunes them (a bounded batch, here all).
    expect(await t.database.prisma.signInThrottle.count()).toBe(2);
  });
});

describe('TRUST_PROXY unset: X-Forwarded-For is ignored', () => {
  it('the address counted is the peer, not the header', async () => {
    await plain.rest('POST', '/api/v1/auth/login', {
      body: { email: 'x@demo.test', password: 'p' },
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    const keys = (await plain.database.prisma.signInThrottle.findMany()).map((r) => r.key);
    expect(keys).toContain('address:127.0.0.1');
    expect(keys.some((k) => k.includes('198.51.100.7'))).toBe(false);
  });
});
