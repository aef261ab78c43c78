/**
 * Spec (api-v1.md): Limits, daily allowances over REST: 429 cap_hit on POST /api/v1/matrix-calculator/ (either daily
 * allowance is spent; metric names which) and Rule 6 (a run decrements both the calculator and the Matrix allowance),
 * shared with POST /calculator and POST /matrix/, by a session and its API tokens alike. The same allowances on the
 * other surfaces: GraphQL's CapHitError (graphql.http.test.ts), MCP's tool error (test/mcp/mcp.test.ts); counted
 * exactly under concurrency: test/billing/allowances.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t, UNLIMITED, DEAL, SALES_TALK, useMatrixCalculatorApp, run, prisma, usageOf } from './fixtures.ts';

useMatrixCalculatorApp();

/** The contract's 429 body: both texts present (their wording is tested in test/lib/wording.test.ts). */
const capHit = (limit: number, used: number, metric: 'calculator' | 'matrix') => ({
  error: 'cap_hit',
  detail: expect.any(String),
  message: expect.any(String),
  limit,
  used,
  metric,
});

describe('Limits: daily allowances (429 cap_hit; metric names which); Rule 6: a Matrix Calculator run decrements both', () => {
  let userId: number;
  let session: string;
  beforeAll(async () => {
    userId = (await prisma().user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
    session = (await t.login('broker.user@demo.test')).access;
  });
  afterAll(async () => {
    await prisma().organisation.update({ where: { id: 8 }, data: { plan_overrides: UNLIMITED } });
    await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
  });
  const allow = async (calculator_allowance: number, matrix_allowance: number) => {
    await prisma().organisation.update({
      where: { id: 8 },
      data: { plan_overrides: { calculator_allowance, matrix_allowance } },
    });
    await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
  };

  it('Rule 6: one run adds one to each of the calculator and Matrix counters', async () => {
    await allow(100, 100);
    expect((await run(session, DEAL)).status).toBe(200);
    expect(await usageOf(userId)).toEqual({ calculator: 1, matrix: 1 });
    expect((await run(session, DEAL)).status).toBe(200);
    expect(await usageOf(userId)).toEqual({ calculator: 2, matrix: 2 });
  });

  it('calculator allowance spent: 429 with the exact body and metric calculator; the refused run decrements neither', async () => {
    await allow(1, 100);
    expect((await run(session, DEAL)).status).toBe(200);
    const res = await run(session, DEAL);
    expect(res.status).toBe(429);
    expect(res.body).toEqual(capHit(1, 1, 'calculator'));
    expect(await usageOf(userId)).toEqual({ calculator: 1, matrix: 1 });
  });

  it('Matrix allowance spent: 429 with metric matrix; the calculator counter does not move', async () => {
    await allow(100, 2);
    expect((await run(session, DEAL)).status).toBe(200);
    expect((await run(session, DEAL)).status).toBe(200);
    const res = await run(session, DEAL);
    expect(res.status).toBe(429);
    expect(res.body).toEqual(capHit(2, 2, 'matrix'));
    expect(await usageOf(userId)).toEqual({ calculator: 2, matrix: 2 });
  });

  it('the allowances are shared with the other surfaces: Calculator runs spend the calculator one, Matrix runs the Matrix one', async () => {
    await allow(2, 100);
    for (let i = 0; i < 2; i++)
      expect((await t.rest('POST', '/api/v1/calculator', { token: session, body: DEAL })).status).toBe(200);
    expect((await run(session, DEAL)).body).toMatchObject({
      error: 'cap_hit',
      metric: 'calculator',
      limit: 2,
      used: 2,
    });
    await allow(100, 1);
    expect((await t.rest('POST', '/api/v1/matrix/', { token: session, body: DEAL })).status).toBe(200);
    expect((await run(session, DEAL)).body).toMatchObject({ error: 'cap_hit', metric: 'matrix', limit: 1, used: 1 });
    expect(await usageOf(userId)).toEqual({ matrix: 1 });
  });

  it("a read API token spends the same allowance as its owner's session, and is refused alike", async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: session,
      body: { name: 'read', scope: 'read' },
    });
    expect(minted.status).toBe(201);
    const readToken: string = minted.body.token;
    await allow(100, 2);
    expect((await t.rest('POST', '/api/v1/matrix/', { token: session, body: DEAL })).status).toBe(200);
    expect((await t.rest('POST', '/api/v1/matrix/', { token: readToken, body: DEAL })).status).toBe(200);
    for (const token of [session, readToken]) {
      const res = await t.rest('POST', '/api/v1/matrix/', { token, body: DEAL });
      expect(res.status).toBe(429);
      expect(res.body).toEqual(capHit(2, 2, 'matrix'));
    }
    expect(await usageOf(userId)).toEqual({ matrix: 2 });
  });

  it('a run refused for validation reaches neither counter', async () => {
    await allow(1, 1);
    for (const path of ['/api/v1/matrix-calculator/', '/api/v1/matrix/', '/api/v1/calculator']) {
      expect((await t.rest('POST', path, { token: session, body: { ...DEAL, cost: '-5' } })).status).toBe(400);
      expect((await t.rest('POST', path, { token: session, body: { ...DEAL, asset_value: 987654 } })).status).toBe(400);
    }
    expect(await usageOf(userId)).toEqual({});
  });

  it('client wording: web may point at billing; android and an unknown client state the fact only, and name the allowance', async () => {
    await allow(100, 1);
    await run(session, DEAL);
    const web = await run(session, DEAL);
    const android = await run(session, DEAL, { 'X-Service-Client': 'android' });
    const odd = await run(session, DEAL, { 'X-Service-Client': 'blackberry' });
    expect(android.body).toEqual(capHit(1, 1, 'matrix'));
    for (const text of [android.body.detail, android.body.message]) expect(text).not.toMatch(SALES_TALK);
    expect(odd.body).toEqual(android.body);
    expect(web.body.message).not.toBe(android.body.message);
    expect(web.body.message).toMatch(/upgrade/i);
    expect(web.body.message).toContain('/settings/billing');
    expect(android.body.message).toMatch(/Matrix/);
    await allow(1, 100);
    await run(session, DEAL);
    for (const client of ['ios', 'android', 'smart-fridge']) {
      const calc = await run(session, DEAL, { 'X-Service-Client': client });
      expect(calc.body).toMatchObject({ error: 'cap_hit', metric: 'calculator', limit: 1, used: 1 });
      expect(calc.body.message).toMatch(/calculator/i);
      for (const text of [calc.body.detail, calc.body.message]) expect(text).not.toMatch(SALES_TALK);
    }
    const webCalc = await run(session, DEAL, { 'X-Service-Client': 'web' });
    expect(webCalc.body.message).toContain('/settings/billing');
  });

  it('10 concurrent runs with matrix_allowance 3: exactly 3 succeed, 7 are cap_hit matrix, and both counters read 3', async () => {
    await allow(100, 3);
    const answers = await Promise.all(Array.from({ length: 10 }, () => run(session, DEAL)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.body).toMatchObject({ error: 'cap_hit', metric: 'matrix', limit: 3, used: 3 });
    expect(await usageOf(userId)).toEqual({ calculator: 3, matrix: 3 });
  });
});
