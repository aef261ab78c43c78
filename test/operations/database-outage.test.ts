/**
 * Reliability FI1, on PostgreSQL (skipped without TEST_DATABASE_URL): the app reaches its database through a TCP proxy
 * of the test's own, which goes silent (a hung database), then refuses (the database went away), then heals.
 * While it is broken every answer is a bounded 503 with Retry-After (REST `{error}`, GraphQL `extensions.code`), never
 * a 500 or a hang; /healthz stays 200 and /readyz says 503. Afterwards the app recovers by itself, and every write it
 * acknowledged (201) is in the database.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { LOCK_POLL, lockWaiters } from '../../testkit/lock-waits.ts';
import { startTcpProxy, type ProxyMode, type TcpProxy } from './tcp-proxy.ts';
import { DATABASE_UNAVAILABLE_CODE } from '../../src/lib/database-errors.ts';

const PG = process.env.TEST_DATABASE_URL;
const timeouts = {
  databaseConnectTimeoutMs: 500,
  databaseStatementTimeoutMs: 500, // the client gives up on a silent server 1 s later: 1500 ms
  databaseIdleInTransactionTimeoutMs: 2000,
  readinessTimeoutMs: 1000,
};
/** Correctness bound, not a speed goal: a connect plus a read timeout, times 3 for a loaded 2-core machine. */
const BOUND_MS = 3 * (timeouts.databaseConnectTimeoutMs + timeouts.databaseStatementTimeoutMs + 1000);

describe.skipIf(!PG)(
  'FI1: a database that hangs or goes away answers bounded 503s, recovers by itself, loses no acknowledged write',
  () => {
    let proxy: TcpProxy;
    let t: TestApp;
    let session: string;
    beforeAll(async () => {
      const url = new URL(PG!);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      t = await startTestApp({ config: timeouts, databaseAddress: { host: '127.0.0.1', port: proxy.port } });
      session = (await t.login('broker.admin@demo.test')).access;
    });
    afterAll(async () => {
      await proxy?.set('forward');
      await t?.close();
      await proxy?.close();
    });

    async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
      const start = performance.now();
      const value = await fn();
      return { value, ms: performance.now() - start };
    }

    const graphql = async (query: string, token: string | null) => {
      const res = await fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query }),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    };

    /** Every way in: REST and GraphQL, with a caller (the context's query fails) and anonymous (a resolver's query fails). */
    const probes = {
      'REST GET /api-tokens (caller lookup)': () => t.rest('GET', '/api/v1/api-tokens', { token: session }),
      'REST POST /auth/login (resolver)': () =>
        t.rest('POST', '/api/v1/auth/login', {
          body: { email: 'broker.admin@demo.test', password: 'demo-password-1' },
        }),
      'GraphQL apiTokens (context)': () => graphql('{ apiTokens { __typename } }', session),
      'GraphQL login (resolver)': () =>
        graphql(
          'mutation { login(email: "broker.admin@demo.test", password: "demo-password-1") { __typename } }',
          null,
        ),
    };

    /** Writers running through every phase; only a 201 counts as acknowledged. */
    const acknowledged: number[] = [];
    const answers: { status: number; ms: number; mode: ProxyMode }[] = [];
    let writing = true;
    let writers: Promise<void>[] = [];
    const writer = async (n: number) => {
      for (let i = 0; writing; i += 1) {
        const mode = proxy.mode();
        const { value: res, ms } = await timed(() =>
          t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: `outage ${n}.${i}`, scope: 'read' } }),
        );
        answers.push({ status: res.status, ms, mode });
        if (res.status === 201) acknowledged.push(res.body.id);
        else await new Promise((r) => setTimeout(r, 50));
      }
    };

    async function expectUnavailable(phase: ProxyMode) {
      for (const [name, probe] of Object.entries(probes)) {
        const { value: res, ms } = await timed(probe);
        expect({ phase, name, status: res.status }).toEqual({ phase, name, status: 503 });
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(ms).toBeLessThan(BOUND_MS);
        if (name.startsWith('REST')) expect(res.body).toEqual({ error: expect.stringMatching(/database/i) });
        else expect(res.body.errors[0].extensions.code).toBe(DATABASE_UNAVAILABLE_CODE);
      }
      const ready = await timed(() => t.rest('GET', '/readyz'));
      expect(ready.value.status).toBe(503);
      expect(ready.ms).toBeLessThan(BOUND_MS);
      expect((await t.rest('GET', '/healthz')).status).toBe(200);
    }

    it('healthy: 200s, and writes are acknowledged', async () => {
      writers = [writer(1), writer(2)];
      expect((await t.rest('GET', '/readyz')).status).toBe(200);
      for (let i = 0; i < 100 && acknowledged.length < 4; i += 1) await new Promise((r) => setTimeout(r, 50));
      expect(acknowledged.length).toBeGreaterThanOrEqual(4);
    });

    /**
     * Keeps the phase until a writer's request that started in it has been answered: a writer still waiting out the
     * previous phase's timeout would otherwise never send one, however long the phase, on a loaded machine.
     */
    async function untilWritersMeet(phase: ProxyMode) {
      for (let i = 0; i < 200 && !answers.some((a) => a.mode === phase); i += 1)
        await new Promise((r) => setTimeout(r, 50));
    }

    it('silent (accepts, never answers): every surface answers 503 within the bound', async () => {
      await proxy.set('silent');
      await expectUnavailable('silent');
      await untilWritersMeet('silent');
    });

    it('refusing (the database went away): every surface answers 503 within the bound', async () => {
      await proxy.set('refuse');
      await expectUnavailable('refuse');
      await untilWritersMeet('refuse');
    });

    it('healthy again: recovers by itself, 200s, and every acknowledged write is there', async () => {
      await proxy.set('forward');
      let ready = 0;
      for (let i = 0; i < 80 && ready !== 200; i += 1) {
        ready = (await t.rest('GET', '/readyz')).status;
        if (ready !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(ready).toBe(200);
      expect((await probes['REST GET /api-tokens (caller lookup)']()).status).toBe(200);
      expect((await probes['GraphQL apiTokens (context)']()).status).toBe(200);
      const before = acknowledged.length;
      for (let i = 0; i < 100 && acknowledged.length < before + 4; i += 1) await new Promise((r) => setTimeout(r, 50));
      writing = false;
      await Promise.all(writers);
      expect(acknowledged.length).toBeGreaterThanOrEqual(before + 4);

      // Writers never saw anything but 201 or a bounded 503.
      expect(answers.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
      expect(answers.filter((a) => a.ms >= BOUND_MS)).toEqual([]);
      expect(answers.some((a) => a.status === 503 && a.mode === 'silent')).toBe(true);
      expect(answers.some((a) => a.status === 503 && a.mode === 'refuse')).toBe(true);

      const stored = await t.database.prisma.apiToken.findMany({
        where: { id: { in: acknowledged } },
        select: { id: true },
      });
      expect(stored.map((r) => r.id).sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
    });
  },
);

/**
 * The bound on a whole transaction (docs/operations.md, "Database timeouts"): a write whose transaction is in flight
 * when the database falls silent answers 503 within statement timeout + 1 s of its start, like an outage, and nothing
 * of it is kept. Without the bound the statement in flight and then the ROLLBACK queued behind it on the same
 * connection each waited out their own read timeout (twice the bound, and more with every statement left).
 */
describe.skipIf(!PG)('a write in flight when the database falls silent ends within the transaction bound', () => {
  const bounded = {
    databaseConnectTimeoutMs: 1000,
    databaseStatementTimeoutMs: 2000,
    databaseIdleInTransactionTimeoutMs: 10_000,
    readinessTimeoutMs: 1000,
  };
  /** The whole transaction's bound, and what a loaded 2-core machine may add to the answer. */
  const TRANSACTION_BOUND_MS = bounded.databaseStatementTimeoutMs + 1000;
  const SLACK_MS = 1500;
  let proxy: TcpProxy;
  let t: TestApp;
  let holder: pg.Client;
  beforeAll(async () => {
    const url = new URL(PG!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    t = await startTestApp({ config: bounded, databaseAddress: { host: '127.0.0.1', port: proxy.port } });
    // The lock holder reaches the database directly, not through the proxy.
    const direct = new URL(t.config.databaseUrl!);
    direct.hostname = url.hostname;
    direct.port = url.port || '5432';
    holder = new pg.Client({ connectionString: direct.toString() });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end().catch(() => {});
    await proxy?.set('forward');
    await t?.close();
    await proxy?.close();
  });

  it('POST /products waiting inside its transaction: 503 with Retry-After within the bound; nothing written', async () => {
    const prisma = t.database.prisma;
    const session = (await t.login('financier.admin@demo.test')).access;
    const { organisation_id } = await prisma.user.findFirstOrThrow({ where: { email: 'financier.admin@demo.test' } });
    const productsBefore = await prisma.product.count();
    // Hold the card's lock, so the write stops inside its transaction, on its first statement.
    await holder.query('BEGIN');
    await holder.query(
      `INSERT INTO rate_card_states (organisation_id, version) VALUES ($1, 0)
       ON CONFLICT (organisation_id) DO UPDATE SET version = rate_card_states.version`,
      [organisation_id],
    );
    const start = performance.now();
    const write = t.rest('POST', '/api/v1/products', { token: session, body: { product_name: 'In flight' } });
    await vi.waitUntil(async () => (await lockWaiters(prisma)) > 0, LOCK_POLL);
    await proxy.set('silent');
    // The lock is released, the database goes on with the write, and its answers are lost on the way back.
    await holder.query('ROLLBACK');
    const res = await write;
    const ms = performance.now() - start;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.body).toEqual({ error: expect.stringMatching(/database/i) });
    expect(ms).toBeLessThan(TRANSACTION_BOUND_MS + SLACK_MS);

    await proxy.set('forward');
    await vi.waitUntil(async () => (await t.rest('GET', '/readyz')).status === 200, { timeout: 20_000, interval: 250 });
    expect(await prisma.product.count()).toBe(productsBefore);
    expect(await prisma.product.count({ where: { product_name: 'In flight' } })).toBe(0);
  });
});
