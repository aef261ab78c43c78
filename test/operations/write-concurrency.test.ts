/**
 * The bound on writes in flight per organisation (docs/operations.md, "Write concurrency"): one tenant's burst of
 * writes is answered 429 with Retry-After beyond its bound, never 503 "unavailable" while the database is healthy (a
 * burst's caller lookups are reads: on a saturated pool they may meet 503 "busy", back-pressure, instead), and
 * another tenant's requests are still answered meanwhile. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL,
 * where the pool of 10 connections is real and a burst without the bound overran it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { DATABASE_BUSY_CODE } from '../../src/lib/database-errors.ts';
import { QUEUED_PER_RUNNING, TOO_MANY_WRITES_CODE, WriteSlots } from '../../src/lib/write-slots.ts';

const BURST = 70;

let t: TestApp;
let broker: string;
let financier: string;
beforeAll(async () => {
  t = await startTestApp();
  broker = (await t.login('broker.admin@demo.test')).access;
  financier = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

describe('a burst of writes from one organisation is refused 429 beyond its bound, not reported as an outage', () => {
  it(`${BURST} concurrent REST writes: each is 201 or 429 with Retry-After; never "unavailable"; another tenant is answered`, async () => {
    const limit = t.config.writeConcurrencyPerOrganisation;
    const burst = Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        t.rest('POST', '/api/v1/api-tokens', { token: broker, body: { name: `burst ${i}`, scope: 'read' } }),
      ),
    );
    // Another tenant's reads, sent while the burst is in flight: answered (not timed), never "unavailable". On a machine
    // too loaded to clear the burst's caller lookups within the pool wait, a read may meet back-pressure (503 busy).
    const others = await Promise.all(
      Array.from({ length: 5 }, () => t.rest('GET', '/api/v1/api-tokens', { token: financier })),
    );
    expect(others.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    for (const r of others.filter((r) => r.status !== 200))
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 503, error: expect.stringMatching(/busy/) });
    const answers = await burst;
    const statuses = answers.map((r) => r.status);
    // 201, 429, or at worst the pool's back-pressure (503 "busy"); never "unavailable" from a healthy database.
    const busy = answers.filter((r) => r.status === 503);
    expect(statuses.filter((s) => s !== 201 && s !== 429 && s !== 503)).toEqual([]);
    for (const r of busy) expect(r.body.error).not.toMatch(/unavailable/i);
    const refused = answers.filter((r) => r.status === 429);
    // At most `limit` run and `limit * QUEUED_PER_RUNNING` wait at any moment: the rest of a simultaneous burst is refused.
    expect(refused.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(limit);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body).toEqual({ error: expect.stringMatching(/too many changes/i) });
    }
    // Every acknowledged write is there, and nothing of a refused one.
    const stored = await t.database.prisma.apiToken.count({ where: { name: { startsWith: 'burst ' } } });
    expect(stored).toBe(statuses.filter((s) => s === 201).length);
  });

  it('GraphQL: the refused mutation answers HTTP 429, Retry-After and extensions.code TOO_MANY_WRITES', async () => {
    const send = (i: number) =>
      fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${broker}` },
        body: JSON.stringify({
          query: `mutation { createApiToken(name: "gql burst ${i}", scope: read) { __typename } }`,
        }),
      }).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: await res.json(),
      }));
    const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    // 200, 429, or at worst the pool's back-pressure (503 DATABASE_BUSY: the caller lookups of a burst are reads).
    expect(answers.filter((a) => a.status !== 200 && a.status !== 429 && a.status !== 503)).toEqual([]);
    for (const a of answers.filter((a) => a.status === 503))
      expect((a.body as any).errors[0].extensions.code).toBe(DATABASE_BUSY_CODE);
    for (const a of refused) {
      expect(a.retryAfter).toBe('1');
      expect((a.body as any).errors[0].extensions.code).toBe(TOO_MANY_WRITES_CODE);
    }
  });
});

describe('the write slots: `limit` run, `limit * QUEUED_PER_RUNNING` wait in order, the rest are refused', () => {
  it('queues, hands slots over in order, refuses beyond the queue, and frees the lane', async () => {
    const slots = new WriteSlots(2);
    const gates: (() => void)[] = [];
    const order: number[] = [];
    const write = (n: number) =>
      slots.run('org', async () => {
        order.push(n);
        await new Promise<void>((resolve) => gates.push(resolve));
        return n;
      });
    const capacity = 2 + 2 * QUEUED_PER_RUNNING;
    const accepted = Array.from({ length: capacity }, (_, i) => write(i));
    await expect(write(99)).rejects.toMatchObject({ code: TOO_MANY_WRITES_CODE });
    // Another lane is not affected.
    const other = slots.run('other org', async () => 'other');
    await expect(other).resolves.toBe('other');
    expect(slots.running('org')).toBe(2);
    while (order.length < capacity || gates.length) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    expect(await Promise.all(accepted)).toEqual(order);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(slots.running('org')).toBe(0);
  });
});
