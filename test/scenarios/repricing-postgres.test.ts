/**
 * Re-pricing across processes (docs/scenarios.md "Re-pricing saved scenarios", "Several processes"), PostgreSQL only:
 * PGlite has one connection and hides races. Two apps on one database re-price each (scenario, version) once; a
 * worker whose transaction dies mid-batch loses nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { repricePending } from '../../src/modules/repricing/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL as DEAL } from '../../testkit/demo.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const SCENARIOS = 40;

let t1: TestApp;
let t2: TestApp;
let brokerId: number;
let bracketId: number;

describe.skipIf(!onPostgres)('Several processes (PostgreSQL)', () => {
  beforeAll(async () => {
    t1 = await startTestApp();
    t2 = await startTestApp({ shareDatabaseWith: t1 });
    const broker = (await t1.login('broker.admin@demo.test')).access;
    brokerId = (await t1.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
    const run = await t1.rest('POST', '/api/v1/calculator', { token: broker, body: DEAL });
    const id = Number(run.headers.get('x-scenario-id'));
    bracketId = (
      (await t1.database.prisma.scenario.findUniqueOrThrow({ where: { id } })).summary as {
        cheapest: { rate_bracket_id: number };
      }
    ).cheapest.rate_bracket_id;
    // Saved copies of that (recent) run: the same deal, so every one moves (and notifies) on the same change.
    await t1.database.prisma.$executeRawUnsafe(
      `INSERT INTO scenarios (user_id, tool, kind, name, request, summary)
       SELECT user_id, tool, 'saved', 'Copy ' || g, request, summary FROM scenarios, generate_series(1, $2::int) g
        WHERE id = $1::int`,
      id,
      SCENARIOS,
    );
    await t1.app.repricing.runOnce(); // the demo load's changes
  });
  afterAll(async () => {
    await t2?.close();
    await t1?.close();
  });

  beforeEach(async () => {
    await t1.database.prisma.notification.deleteMany({ where: { user_id: brokerId } });
  });

  async function raiseRate(points: number): Promise<void> {
    const b = await t1.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracketId } });
    await t1.database.prisma.rateBracket.update({
      where: { id: bracketId },
      data: { base_min: b.base_min + points, base_max: b.base_max + points },
    });
  }

  const notices = () => t1.database.prisma.notification.count({ where: { user_id: brokerId } });
  const queueLeft = async () =>
    Number(
      (await t1.database.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM scenario_repricings'))[0].n,
    );
  const changesLeft = () => t1.database.prisma.catalogueChange.count();

  it('two processes re-price each saved scenario once: one notification each, nothing left queued', async () => {
    await raiseRate(2);
    const deps = (t: TestApp) => ({ ...t.app.deps, batchSize: 5, perPass: 1000 });
    const [a, b] = await Promise.all([repricePending(deps(t1)), repricePending(deps(t2))]);
    expect(a.repriced + b.repriced).toBe(SCENARIOS);
    expect(a.changes + b.changes).toBe(1);
    expect(await notices()).toBe(SCENARIOS);
    expect([await queueLeft(), await changesLeft()]).toEqual([0, 0]);
  });

  it('a worker killed mid-batch (its backend terminated) loses nothing: the next pass re-prices every one', async () => {
    // Back below where it started: the saved bracket is the cheapest again, lower than last told (a notice each).
    await raiseRate(-4);
    // Hold the owner's row: queueing the notification (a foreign key to users) waits, mid-batch, after the claim.
    const blocker = new pg.Client({ connectionString: t1.config.databaseUrl! });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [brokerId]);
      const victim = repricePending({ ...t1.app.deps, batchSize: 5, perPass: 1000 });
      const outcome = victim.then(
        (summary) => JSON.stringify(summary),
        () => 'failed',
      );
      // Asked through another connection: pg_stat_activity is frozen for the rest of the blocker's transaction.
      const waiting = () =>
        t1.database.prisma.$queryRawUnsafe<{ pid: number }[]>(
          `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%notifications%'`,
        );
      for (let i = 0; (await waiting()).length === 0; i++) {
        if (i > 400) throw new Error(`the worker never reached the notification: ${await outcome}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (const { pid } of await waiting()) await blocker.query('SELECT pg_terminate_backend($1)', [pid]);
      await blocker.query('ROLLBACK');
      expect(await outcome).toBe('failed');
    } finally {
      await blocker.end();
    }
    expect(await notices()).toBe(0);
    const next = await repricePending({ ...t2.app.deps, batchSize: 5, perPass: 1000 });
    expect(next.repriced).toBe(SCENARIOS);
    expect(await notices()).toBe(SCENARIOS);
    expect([await queueLeft(), await changesLeft()]).toEqual([0, 0]);
  });
});
