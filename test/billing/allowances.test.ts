/**
 * Limits: daily calculator and Matrix allowances, counted per user per calendar day in the service's zone,
 * atomically in the database (reliability Q1: allowance L, 3L concurrent runs over two processes, exactly L succeed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/modules/auth/caller.ts';
import type { Caller } from '../../src/lib/caller.ts';
import { meterRun } from '../../src/modules/billing/entitlements.ts';
import type { Metric } from '../../src/lib/vocabulary.ts';
import { CapHitError } from '../../src/modules/billing/errors.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let a: TestApp;
let b: TestApp;
const clock = new ManualClock(new Date('2026-11-21T12:59:00Z')); // 23:59 in Sydney (AEDT, UTC+11)
beforeAll(async () => {
  a = await startTestApp({ clock });
  b = await startTestApp({ clock, shareDatabaseWith: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

async function callerFor(
  app: TestApp,
  email: string,
  limits: { calculator_allowance?: number; matrix_allowance?: number },
): Promise<Caller> {
  const user = await app.database.prisma.user.findUniqueOrThrow({ where: { email } });
  await app.database.prisma.organisation.update({
    where: { id: user.organisation_id! },
    data: { plan_overrides: limits },
  });
  const { access } = await app.login(email);
  const auth = await authenticate(app.database.prisma, app.config, clock.now(), `Bearer ${access}`);
  if (auth.kind !== 'caller') throw new Error('no caller');
  return auth.caller;
}
const consumeAllowances = (ctx: ReturnType<typeof ctxOf>, caller: Caller, metrics: Metric[]) =>
  meterRun(ctx, caller, metrics, { tool: 'calculator', request: { metrics } });
const ctxOf = (app: TestApp) => ({ prisma: app.database.prisma, config: app.config, clock, client: 'web' as const });

describe('Daily allowance: exact under concurrency across processes', () => {
  it('allowance 10, 30 concurrent runs over two app instances: exactly 10 succeed, 20 are cap_hit', async () => {
    const caller = await callerFor(a, 'broker.user@demo.test', { calculator_allowance: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => consumeAllowances(ctxOf(i % 2 ? a : b), caller, ['calculator'])),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(20);
    for (const r of refused) expect(r.reason).toBeInstanceOf(CapHitError);
    expect(refused[0].reason as CapHitError).toMatchObject({ limit: 10, used: 10, metric: 'calculator' });
  });
});

describe('A run decrements both allowances in one step, and a refused run decrements neither', () => {
  it('when the Matrix allowance is spent, the calculator count does not move', async () => {
    const caller = await callerFor(a, 'broker.admin@demo.test', { calculator_allowance: 100, matrix_allowance: 2 });
    const ctx = ctxOf(a);
    await consumeAllowances(ctx, caller, ['calculator', 'matrix']);
    await consumeAllowances(ctx, caller, ['matrix', 'calculator']);
    await expect(consumeAllowances(ctx, caller, ['calculator', 'matrix'])).rejects.toMatchObject({
      metric: 'matrix',
      limit: 2,
      used: 2,
    });
    const rows = await a.database.prisma.dailyUsage.findMany({ where: { user_id: caller.userId } });
    expect(Object.fromEntries(rows.map((r) => [r.metric, r.count]))).toEqual({ calculator: 2, matrix: 2 });
  });

  it('allowances reset at midnight in the service zone (Australia/Sydney), not UTC', async () => {
    const caller = await callerFor(a, 'free.broker@demo.test', { calculator_allowance: 1 });
    const ctx = ctxOf(a);
    await consumeAllowances(ctx, caller, ['calculator']);
    await expect(consumeAllowances(ctx, caller, ['calculator'])).rejects.toBeInstanceOf(CapHitError);
    clock.advance(2 * 60_000); // 00:01 in Sydney, still the same UTC day
    await consumeAllowances(ctx, caller, ['calculator']);
  });
});
