/** Spec: States and transitions, "Refresh token lifecycle", row by row; Limits: refresh grace window and rate limit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import { ManualClock, startTestApp, type TestApp } from '../../testkit/app.ts';

const IDLE = 3600;
const CAP = 4 * 3600;
let t: TestApp;
const clock = new ManualClock(new Date('2026-11-21T00:00:00Z'));

beforeAll(async () => {
  t = await startTestApp({
    clock,
    config: {
      refreshIdleTimeoutSeconds: IDLE,
      refreshHardCapSeconds: CAP,
      accessTokenTtlSeconds: 900,
      refreshRateLimitPerMinute: 60,
    },
  });
});
afterAll(async () => {
  await t?.close();
});

const refresh = (token: string) => t.rest('POST', '/api/v1/auth/refresh', { body: { refresh: token } });
const expOf = (access: string) => (jwt.decode(access) as { exp: number }).exp * 1000;

describe('valid --refresh--> spent: a successor pair is issued', () => {
  it('answers 200 {access, refresh} with a new refresh token that works', async () => {
    const pair = await t.login('broker.admin@demo.test');
    const next = await refresh(pair.refresh);
    expect(next.status).toBe(200);
    expect(Object.keys(next.body).sort()).toEqual(['access', 'refresh']);
    expect(next.body.refresh).not.toBe(pair.refresh);
    expect((await t.rest('GET', '/api/v1/api-tokens', { token: next.body.access })).status).toBe(200);
    expect((await refresh(next.body.refresh)).status).toBe(200);
  });
});

describe('spent --refresh within the 30-second grace window--> returns the same successor', () => {
  it('replays at 0 s, 15 s and 29.9 s return the same successor; at 30 s the answer is 401', async () => {
    const pair = await t.login('broker.admin@demo.test');
    const first = await refresh(pair.refresh);
    expect(first.status).toBe(200);
    for (const ms of [0, 15_000, 14_900]) {
      clock.advance(ms);
      const again = await refresh(pair.refresh);
      expect(again.status).toBe(200);
      expect(again.body.refresh).toBe(first.body.refresh);
    }
    clock.advance(100); // exactly 30 s after the first refresh
    expect((await refresh(pair.refresh)).status).toBe(401);
    clock.advance(60_000);
  });

  it('concurrent refreshes of one token all answer 200 with one successor', async () => {
    const pair = await t.login('broker.user@demo.test');
    const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(pair.refresh)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.body.refresh)).size).toBe(1);
    clock.advance(60_000);
  });

  it('a replay whose clock reads a moment before the spend (a concurrent refresh on another process) gets the successor', async () => {
    const pair = await t.login('broker.user@demo.test');
    const first = await refresh(pair.refresh);
    clock.advance(-250); // this process read its clock just before the other one stamped the token spent
    const again = await refresh(pair.refresh);
    expect(again.status).toBe(200);
    expect(again.body.refresh).toBe(first.body.refresh);
    clock.advance(60_250);
  });

  it('only the immediate parent gets grace: a grandparent whose successor has rotated is refused', async () => {
    const pair = await t.login('broker.admin@demo.test');
    const child = await refresh(pair.refresh);
    const grandchild = await refresh(child.body.refresh);
    expect(grandchild.status).toBe(200);
    expect((await refresh(pair.refresh)).status).toBe(401);
    clock.advance(60_000);
  });
});

describe('spent --refresh after the grace window--> refused (401)', () => {
  it('a replay 31 s after the first refresh is 401 and the session is over for that token', async () => {
    const pair = await t.login('broker.admin@demo.test');
    expect((await refresh(pair.refresh)).status).toBe(200);
    clock.advance(31_000);
    const late = await refresh(pair.refresh);
    expect(late.status).toBe(401);
    expect(typeof late.body.error).toBe('string');
  });
});

describe('valid --logout--> revoked: later refresh gives 401', () => {
  it('refresh after logout is 401, also for a successor issued before the logout', async () => {
    const pair = await t.login('broker.admin@demo.test');
    const next = await refresh(pair.refresh);
    expect((await t.rest('POST', '/api/v1/auth/logout', { body: { refresh: next.body.refresh } })).status).toBe(204);
    expect((await refresh(next.body.refresh)).status).toBe(401);
    expect((await refresh(pair.refresh)).status).toBe(401);
    clock.advance(60_000);
  });
});

describe('POST /auth/refresh 401: token expired, invalid, or its user inactive', () => {
  it('an idle token expires one idle period after issue; refreshing extends it', async () => {
    const pair = await t.login('broker.admin@demo.test');
    clock.advance((IDLE - 60) * 1000);
    const next = await refresh(pair.refresh);
    expect(next.status).toBe(200);
    clock.advance((IDLE - 60) * 1000);
    const again = await refresh(next.body.refresh);
    expect(again.status).toBe(200);
    clock.advance(IDLE * 1000);
    expect((await refresh(again.body.refresh)).status).toBe(401);
  });

  it('the hard cap counts from sign-in and is never extended by refreshing', async () => {
    const signedInAt = clock.now().getTime();
    let token = (await t.login('broker.admin@demo.test')).refresh;
    let lastAccess = '';
    while (clock.now().getTime() + (IDLE / 2) * 1000 < signedInAt + CAP * 1000) {
      clock.advance((IDLE / 2) * 1000);
      const next = await refresh(token);
      expect(next.status).toBe(200);
      token = next.body.refresh;
      lastAccess = next.body.access;
    }
    // An access token never outlives its refresh token, so none outlives the hard cap either.
    expect(expOf(lastAccess)).toBeLessThanOrEqual(signedInAt + CAP * 1000);
    clock.set(new Date(signedInAt + CAP * 1000));
    expect((await refresh(token)).status).toBe(401);
  });

  it('garbage, a tampered secret, a missing body and an inactive user are 401', async () => {
    const pair = await t.login('broker.user@demo.test');
    const tampered = pair.refresh.slice(0, -2) + (pair.refresh.endsWith('AA') ? 'BB' : 'AA');
    expect((await refresh('garbage')).status).toBe(401);
    expect((await refresh(tampered)).status).toBe(401);
    expect((await t.rest('POST', '/api/v1/auth/refresh', { body: {} })).status).toBe(401);
    await t.database.prisma.user.update({ where: { email: 'broker.user@demo.test' }, data: { is_active: false } });
    expect((await refresh(pair.refresh)).status).toBe(401);
    await t.database.prisma.user.update({ where: { email: 'broker.user@demo.test' }, data: { is_active: true } });
  });

  it('an access token signed with alg none or another key is refused', async () => {
    const pair = await t.login('broker.admin@demo.test');
    const claims = jwt.decode(pair.access) as Record<string, unknown>;
    const none = jwt.sign(claims, '', { algorithm: 'none' as never });
    const otherKey = jwt.sign(claims, 'another-key', { algorithm: 'HS256' });
    for (const token of [none, otherKey])
      expect((await t.rest('GET', '/api/v1/api-tokens', { token })).status).toBe(401);
  });
});

describe('POST /auth/refresh 429: too many refreshes for this user', () => {
  it('counts per user: the 61st refresh in a minute is 429, another user is unaffected', async () => {
    clock.set(new Date('2026-11-22T00:00:00Z'));
    const pair = await t.login('free.broker@demo.test');
    let token = pair.refresh;
    for (let i = 0; i < 60; i += 1) {
      const next = await refresh(token);
      expect(next.status).toBe(200);
      token = next.body.refresh;
    }
    const limited = await refresh(token);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Too many requests. Try again shortly.' });
    expect(limited.headers.get('retry-after')).toBe('60'); // the clock stands at the start of the minute's window
    const other = await t.login('broker.admin@demo.test');
    expect((await refresh(other.refresh)).status).toBe(200);
    clock.advance(61_000);
    expect((await refresh(token)).status).toBe(200);
  });
});
