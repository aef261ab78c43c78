/**
 * Re-pricing across processes (docs/scenarios.md "Re-pricing saved scenarios", "Several processes"), PostgreSQL only:
 * PGlite has one connection and hides races. Two apps on one database re-price each (scenario, version) once; a
 * worker whose transaction dies mid-batch loses nothing; a server process killed mid-batch neither.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { repricePending } from '../../src/modules/repricing/index.ts';
import { freshPostgres, startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL as DEAL, DEMO_PASSWORD } from '../../testkit/demo.ts';
import type { FreshDatabase } from '../../testkit/postgres.ts';
import { cleanUpSpawned, freePort, server, tempDataDir } from '../../testkit/spawned.ts';

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

/**
 * As deployed: a server process on PostgreSQL re-prices in its own thread (SCENARIO_REPRICE_WORKER's default there),
 * at a lower priority than the thread serving requests; killed with SIGKILL mid-batch, it loses nothing: every
 * scenario it committed has its figures and its one notification, the rest stay queued, and the next process re-prices
 * each of those once.
 */
describe.skipIf(!onPostgres)('Off the request thread, and kill -9 mid-batch (PostgreSQL)', () => {
  const COPIES = 600;
  let database: FreshDatabase;
  let sql: pg.Client;
  const count = async (query: string, ...values: unknown[]) =>
    Number((await sql.query<{ n: string }>(query, values)).rows[0].n);

  beforeAll(async () => {
    database = await freshPostgres(process.env.TEST_DATABASE_URL!, 'reprice_thread');
    sql = new pg.Client({ connectionString: database.url });
  });
  afterAll(async () => {
    cleanUpSpawned();
    await sql?.end().catch(() => {});
    await database?.drop();
  });

  async function serve() {
    const port = await freePort();
    const proc = server({
      DATABASE_URL: database.url,
      SERVICE_ENVIRONMENT: 'local',
      PORT: String(port),
      DATA_DIR: tempDataDir(),
      SCENARIO_REPRICE_INTERVAL_MS: '100',
      SCENARIO_REPRICE_PER_PASS: '50',
    });
    await proc.waitForStdout(/serving on/);
    for (let i = 0; !proc.stderr().includes('scenarios.reprice_thread_started'); i++) {
      if (i > 600) throw new Error(`no re-pricing thread:\n${proc.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { proc, url: `http://127.0.0.1:${port}` };
  }

  /** The niceness of each thread of a process (Linux keeps one per thread: /proc/<pid>/task/<tid>/stat, field 19). */
  const niceness = (pid: number) =>
    Object.fromEntries(
      readdirSync(`/proc/${pid}/task`).map((tid) => {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
      }),
    );

  it('re-prices in a thread below the serving one; SIGKILL mid-batch loses nothing and duplicates nothing', async () => {
    const first = await serve();
    const pid = first.proc.child.pid!;
    // The serving thread (tid = pid) keeps the process's priority; one thread runs at niceness 10.
    const threads = niceness(pid);
    expect(threads[pid]).toBe(0);
    expect(Object.values(threads)).toContain(10);

    await sql.connect();
    const signIn = await fetch(`${first.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'broker.admin@demo.test', password: DEMO_PASSWORD }),
    });
    const { access } = (await signIn.json()) as { access: string };
    const run = await fetch(`${first.url}/api/v1/calculator`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
      body: JSON.stringify(DEAL),
    });
    expect(run.status).toBe(200);
    const recent = Number(run.headers.get('x-scenario-id'));
    // The demo load's own changes are drained before the saved copies exist (they would re-price them all too).
    for (let i = 0; (await count('SELECT count(*) AS n FROM catalogue_changes')) > 0; i++) {
      if (i > 600) throw new Error('the demo load was never drained');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sql.query(
      `INSERT INTO scenarios (user_id, tool, kind, name, request, summary)
       SELECT user_id, tool, 'saved', 'Copy ' || g, request, summary FROM scenarios, generate_series(1, $2::int) g
        WHERE id = $1::int`,
      [recent, COPIES],
    );
    const saved = (await sql.query<{ id: number }>(`SELECT id FROM scenarios WHERE kind = 'saved'`)).rows;
    const bracket = Number(
      (await sql.query(`SELECT summary->'cheapest'->>'rate_bracket_id' AS id FROM scenarios WHERE id = $1`, [recent]))
        .rows[0].id,
    );
    // Two points dearer: every copy's cheapest moves by more than a dollar a month, so each is told once.
    await sql.query('UPDATE rate_brackets SET base_min = base_min + 2, base_max = base_max + 2 WHERE id = $1', [
      bracket,
    ]);
    const version = await count('SELECT version AS n FROM catalogue_state WHERE id = 1');
    const repriced = () =>
      count(`SELECT count(*) AS n FROM scenarios WHERE kind = 'saved' AND repriced_version = $1`, version);
    for (let i = 0; (await repriced()) < 20; i++) {
      if (i > 3000) throw new Error(`nothing re-priced:\n${first.proc.stderr().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.proc.child.kill('SIGKILL');
    await first.proc.exit;

    const done = await repriced();
    expect(done).toBeLessThan(COPIES);
    const notices = () => count(`SELECT count(*) AS n FROM notifications WHERE data->>'kind' = 'saved_scenario'`);
    // Committed together: each re-priced scenario has its notification, and only those.
    expect(await notices()).toBe(done);
    const queued = await count('SELECT count(*) AS n FROM scenario_repricings');
    expect(queued + done).toBe(COPIES);

    const second = await serve();
    for (let i = 0; (await count('SELECT count(*) AS n FROM scenario_repricings')) > 0; i++) {
      if (i > 1200) throw new Error(`the queue never drained:\n${second.proc.stderr().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await repriced()).toBe(COPIES);
    expect(await notices()).toBe(COPIES);
    // One notification per scenario: none told twice across the two processes.
    expect(
      await count(
        `SELECT count(DISTINCT data->>'scenario_id') AS n FROM notifications WHERE data->>'kind' = 'saved_scenario'`,
      ),
    ).toBe(COPIES);
    expect(saved.length).toBe(COPIES);
  });
});
