/**
 * A big rate-card import (25 products x 200 brackets) keeps the event loop free: while it is applied, /healthz (which
 * touches nothing but the loop) keeps answering within a bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

const PRODUCTS = 25;
const BRACKETS = 200;
/**
 * How long /healthz may wait while the import runs: at most half as long as the apply itself takes, and it is answered
 * again and again meanwhile. The apply used to hold the loop from its first statement to its last (/healthz waited
 * as long as the apply, answered once or twice). What still runs in one piece (reading the file, comparing the cards,
 * building the restore point) takes a fraction of it; a ratio, not milliseconds, because the test machines' load
 * (many suites on two cores) stretches both alike. On an idle machine that is a few hundred milliseconds.
 */
const HEALTHZ_SHARE_OF_APPLY = 0.6;
const MIN_HEALTHZ_ANSWERS = 10;

function bigCard(rateOffset: number): string {
  const lines = ['product_name,monthly_fee,name,min_term,max_term,base_min,base_max'];
  for (let p = 0; p < PRODUCTS; p += 1)
    for (let b = 0; b < BRACKETS; b += 1) {
      const rate = (5 + ((p + b + rateOffset) % 100) / 10).toFixed(2);
      lines.push(`Product ${p},5,Bracket ${b},12,60,${rate},${rate}`);
    }
  return lines.join('\n');
}

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  const financier = await seedKit(t.database.prisma).financier();
  admin = (await t.login((await financier.user({ is_admin: true })).email)).access;
});
afterAll(async () => {
  await t?.close();
});

/** Applies `content` while polling /healthz back to back; answers the import's reply and the slowest /healthz. */
async function applyWhilePolling(content: string) {
  const { expected_version } = (
    await t.rest('POST', '/api/v1/rate-cards/import/preview', { token: admin, body: { format: 'csv', content } })
  ).body;
  let done = false;
  const waits: number[] = [];
  const poll = (async () => {
    while (!done) {
      const start = performance.now();
      const res = await fetch(`${t.baseUrl}/healthz`);
      await res.arrayBuffer();
      waits.push(performance.now() - start);
    }
  })();
  const start = performance.now();
  const reply = await t.rest('POST', '/api/v1/rate-cards/import', {
    token: admin,
    body: { format: 'csv', content, expected_version },
  });
  const applyMs = performance.now() - start;
  done = true;
  await poll;
  return { reply, applyMs, slowest: Math.max(...waits), polls: waits.length };
}

describe('applying a 25 x 200 import keeps the event loop free', () => {
  const expectLoopFree = ({ reply, applyMs, slowest, polls }: Awaited<ReturnType<typeof applyWhilePolling>>) => {
    expect(reply.status).toBe(200);
    expect(polls).toBeGreaterThanOrEqual(MIN_HEALTHZ_ANSWERS);
    expect(slowest).toBeLessThan(HEALTHZ_SHARE_OF_APPLY * applyMs);
  };

  it('a new card (5,000 brackets inserted): /healthz keeps answering', { timeout: 180_000 }, async () => {
    expectLoopFree(await applyWhilePolling(bigCard(0)));
  });

  it('every bracket changed (5,000 updated): /healthz keeps answering', { timeout: 180_000 }, async () => {
    expectLoopFree(await applyWhilePolling(bigCard(1)));
  });
});
