/**
 * Figure 9: saved scenarios re-priced at scale (docs/scenarios.md "Re-pricing saved scenarios"), on the large
 * catalogue's app, with the re-pricing worker running as `src/main.ts` runs it (SCENARIO_REPRICE_WORKER: its own
 * thread on PostgreSQL, the server thread on PGlite; its poll interval and per-pass bound from the environment:
 * SCENARIO_REPRICE_INTERVAL_MS, SCENARIO_REPRICE_PER_PASS).
 *
 * Set-up: BENCH_REPRICING_BROKERS broker users (10 per broker organisation, the bench broker's plan) own
 * BENCH_REPRICING_SCENARIOS saved scenarios, spread round-robin. Each row is a copy of a run the bench broker really
 * made (request, summary and tool exactly as record_run stored them), over the first bench deals and both pricing
 * tools, so assets, amounts and terms vary. The change log is drained before the scenarios are written.
 *
 * Case A: a financier changes one bracket (GraphQL updateRateBracket, as its admin). Case B: a financier imports its
 * whole card, every rate cut (POST /api/v1/rate-cards/import after the preview). For each, the time from the
 * answer (the commit) until the change log and the re-pricing queue are empty (every affected scenario re-priced and
 * its notification queued in the same transaction), and the worker's own counts from its `scenarios.repriced` log
 * lines. Request latency: POST /api/v1/matrix-calculator/ over the bench deals from the load generator, one-second
 * loads pooled, for a fixed window with the worker idle, then from case B's commit until it settles.
 */
import { performance } from 'node:perf_hooks';
import { setLogDestination } from '../src/lib/logger.ts';
import type { DealRequest } from '../src/modules/deal/index.ts';
import { BENCH_USER } from './catalogue.ts';
import { load, type BenchApp } from './harness.ts';

/** How figure lines and notes are printed (bench/index.ts's table). */
export interface FigureReport {
  line(figure: string, value: string, target?: string, verdict?: string): void;
  note(text: string): void;
}

const SCENARIOS = Number(process.env.BENCH_REPRICING_SCENARIOS ?? 10_000);
const BROKERS = Number(process.env.BENCH_REPRICING_BROKERS ?? 1_000);
const USERS_PER_ORGANISATION = 10;
/** Runs recorded per tool and round: the recents a user keeps (RECENT_SCENARIO_LIMIT). */
const RECENTS_PER_ROUND = 20;
const TEMPLATE_ROUNDS = 3;
/** Case A: the demo financier whose mappings reach the fewest assets (an ordinary, narrow change). */
const CASE_A_ORGANISATION = 6;
/** Case B: a demo financier whose mappings reach a quarter of the live assets. */
const CASE_B_ORGANISATION = 4;
const LATENCY_CONNECTIONS = 2;
const LATENCY_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 3) * 2;
const SETTLE_LIMIT_MS = 15 * 60_000;
const POLL_MS = 50;

/** A rate cut by `points` (never below zero), to the cent: a cut makes the financier cheapest for some deals, so
 *  owners are told. */
const cut = (rate: number, points: number) => Math.max(0, Math.round((rate - points) * 100) / 100);
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(0)} ms`;
const seconds = (x: number) => `${(x / 1000).toFixed(1)} s`;

interface Counts {
  passes: number;
  changes: number;
  examined: number;
  queued: number;
  repriced: number;
  notified: number;
}
const zero = (): Counts => ({ passes: 0, changes: 0, examined: 0, queued: 0, repriced: 0, notified: 0 });

/**
 * The worker's `scenarios.repriced` log lines (one per pass that did work), summed from `mark()`; warnings and errors
 * still reach stderr, the per-scenario info lines do not.
 */
function recordPasses() {
  let counts = zero();
  setLogDestination({
    write(line: string) {
      const event = JSON.parse(line) as Record<string, unknown>;
      if (event.event === 'scenarios.repriced') {
        counts.passes += 1;
        for (const key of ['changes', 'examined', 'queued', 'repriced', 'notified'] as const)
          counts[key] += Number(event[key] ?? 0);
      } else if (event.level === 'warn' || event.level === 'error') process.stderr.write(line);
    },
  });
  return {
    mark: () => {
      counts = zero();
    },
    read: () => ({ ...counts }),
    stop: () => setLogDestination(null),
  };
}

export async function repricingFigures(
  bench: BenchApp,
  requests: readonly DealRequest[],
  report: FigureReport,
): Promise<void> {
  const prisma = bench.app.deps.prisma;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const call = async (method: string, path: string, body: unknown, token: string) => {
    const r = await bench.request(method, path, body, bearer(token));
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 300)}`);
    return JSON.parse(r.text) as Record<string, any>;
  };

  // ---- set-up ----------------------------------------------------------------------------------------------------
  process.stderr.write(`bench: (9) ${SCENARIOS} saved scenarios over ${BROKERS} brokers ...\n`);
  const setupStarted = performance.now();
  const benchUser = await prisma.user.findUniqueOrThrow({ where: { email: BENCH_USER.email } });
  const templates: { tool: string; request: any; summary: any }[] = [];
  for (let round = 0; round < TEMPLATE_ROUNDS; round++) {
    for (let k = 0; k < RECENTS_PER_ROUND; k++) {
      const deal = requests[(round * RECENTS_PER_ROUND + k) % requests.length];
      await call('POST', '/api/v1/calculator', deal, bench.token);
      await call('POST', '/api/v1/matrix-calculator/', deal, bench.token);
    }
    const recents = await prisma.scenario.findMany({
      where: { user_id: benchUser.id, kind: 'recent', tool: { in: ['calculator', 'matrix_calculator'] } },
      orderBy: { id: 'desc' },
      take: 2 * RECENTS_PER_ROUND,
      select: { tool: true, request: true, summary: true },
    });
    templates.push(...recents);
  }

  const organisation = await prisma.organisation.findUniqueOrThrow({ where: { id: benchUser.organisation_id! } });
  const organisations = await prisma.organisation.createManyAndReturn({
    data: Array.from({ length: Math.ceil(BROKERS / USERS_PER_ORGANISATION) }, (_, k) => ({
      name: `Re-pricing Brokers ${k + 1}`,
      type: organisation.type,
      plan: organisation.plan,
      plan_overrides: organisation.plan_overrides ?? {},
    })),
    select: { id: true },
  });
  const brokers = await prisma.user.createManyAndReturn({
    data: Array.from({ length: BROKERS }, (_, k) => ({
      email: `repricing.broker.${k + 1}@bench.test`,
      password_hash: benchUser.password_hash,
      first_name: 'Broker',
      last_name: String(k + 1),
      organisation_id: organisations[Math.floor(k / USERS_PER_ORGANISATION)].id,
      is_active: true,
      is_email_verified: true,
    })),
    select: { id: true },
  });
  // The admins who make the changes: the bench broker's password, each in its financier.
  const admins: Record<number, string> = {};
  for (const organisationId of [CASE_A_ORGANISATION, CASE_B_ORGANISATION]) {
    const email = `repricing.financier.${organisationId}@bench.test`;
    await prisma.user.create({
      data: {
        email,
        password_hash: benchUser.password_hash,
        organisation_id: organisationId,
        is_admin: true,
        is_active: true,
        is_email_verified: true,
      },
    });
    const login = await bench.request('POST', '/api/v1/auth/login', { email, password: BENCH_USER.password });
    if (login.status !== 200) throw new Error(`(9) login: ${login.status} ${login.text}`);
    admins[organisationId] = (JSON.parse(login.text) as { access: string }).access;
  }

  // Drain the change log of the catalogue's own load before any scenario exists (it would queue all of them). A
  // pass that fails (a snapshot load over its transaction timeout on a busy machine) is retried, as the worker would.
  for (let failures = 0; ; ) {
    try {
      const pass = await bench.app.repricing.runOnce();
      if (!pass.changes && !pass.repriced) break;
    } catch (error) {
      if (++failures === 3) throw error;
    }
  }

  const batch = 1_000;
  for (let from = 0; from < SCENARIOS; from += batch) {
    await prisma.scenario.createMany({
      data: Array.from({ length: Math.min(batch, SCENARIOS - from) }, (_, j) => {
        const k = from + j;
        // A stride through the templates, so one broker's scenarios are different deals.
        const template = templates[(k * 7) % templates.length];
        return {
          user_id: brokers[k % brokers.length].id,
          tool: template.tool,
          kind: 'saved' as const,
          name: `Scenario ${k + 1}`,
          request: template.request,
          summary: template.summary ?? undefined,
        };
      }),
    });
  }
  const setupMs = performance.now() - setupStarted;

  // ---- the worker, as in production --------------------------------------------------------------------------------
  const passes = recordPasses();
  bench.app.repricing.start();
  try {
    const pending = async () => {
      const [row] = await prisma.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT (SELECT count(*) FROM catalogue_changes) + (SELECT count(*) FROM scenario_repricings) AS n`,
      );
      return Number(row.n);
    };
    /** Milliseconds from now until the change log and the queue are empty. */
    const settle = async (): Promise<number> => {
      const t0 = performance.now();
      while ((await pending()) > 0) {
        if (performance.now() - t0 > SETTLE_LIMIT_MS) throw new Error('(9) re-pricing did not settle in 15 minutes');
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      return performance.now() - t0;
    };
    /** The pass that emptied the queue logs once it has ended: give it a moment. */
    const counted = async (): Promise<Counts> => {
      await new Promise((r) => setTimeout(r, 250));
      return passes.read();
    };

    const bodies = requests.slice(0, 50).map((r) => JSON.stringify(r));
    const headers = { 'content-type': 'application/json', ...bearer(bench.token) };
    /** One-second loads until `done()`, pooled: the latencies of every request sent. */
    const latencies = async (done: () => boolean) => {
      const all: number[] = [];
      let failed = 0;
      while (!done()) {
        const r = await load({
          url: `${bench.baseUrl}/api/v1/matrix-calculator/`,
          method: 'POST',
          headers,
          bodies,
          connections: LATENCY_CONNECTIONS,
          durationMs: 1000,
          samples: true,
        });
        failed += r.failed;
        all.push(...(r.latencies ?? []));
      }
      all.sort((a, b) => a - b);
      const at = (q: number) => all[Math.min(all.length - 1, Math.floor(q * all.length))];
      // Failed answers (a 503 when the database is too slow) stay in the latencies and are counted on the line.
      return { requests: all.length, failed, p50: at(0.5), p99: at(0.99) };
    };
    const forSeconds = (s: number) => {
      const end = performance.now() + s * 1000;
      return () => performance.now() >= end;
    };

    await latencies(forSeconds(1)); // warm the route and the connections
    const quiet = await latencies(forSeconds(LATENCY_SECONDS));

    // Case A: one bracket of one financier, as its admin would change it.
    const bracket = await prisma.rateBracket.findFirstOrThrow({
      where: { organisation_id: CASE_A_ORGANISATION },
      orderBy: { id: 'asc' },
    });
    passes.mark();
    const changed = await call(
      'POST',
      '/graphql',
      {
        query: `mutation($id: Int!, $input: RateBracketPatchInput!) { updateRateBracket(id: $id, input: $input) { __typename } }`,
        variables: {
          id: bracket.id,
          input: { base_min: cut(bracket.base_min, 3), base_max: cut(bracket.base_max, 3) },
        },
      },
      admins[CASE_A_ORGANISATION],
    );
    if (changed.data?.updateRateBracket?.__typename !== 'RateCardChange')
      throw new Error(`(9) updateRateBracket: ${JSON.stringify(changed).slice(0, 300)}`);
    const caseA = { ms: await settle(), counts: await counted() };

    // Case B: the financier's whole card imported, every rate cut.
    const [products, brackets] = await Promise.all([
      prisma.product.findMany({ where: { organisation_id: CASE_B_ORGANISATION }, orderBy: { id: 'asc' } }),
      prisma.rateBracket.findMany({ where: { organisation_id: CASE_B_ORGANISATION }, orderBy: { id: 'asc' } }),
    ]);
    const defined = (o: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
    const file = {
      products: products.map(({ id, organisation_id: _o, created_at: _c, updated_at: _u, ...p }) =>
        defined({ key: id, ...p }),
      ),
      rate_brackets: brackets.map(
        ({ id: _i, organisation_id: _o, product_id, created_at: _c, updated_at: _u, base_min, base_max, ...b }) =>
          defined({
            product: product_id,
            ...b,
            base_min: cut(base_min, 3),
            base_max: cut(base_max, 3),
          }),
      ),
    };
    const content = JSON.stringify(file);
    const preview = await call(
      'POST',
      '/api/v1/rate-cards/import/preview',
      { format: 'json', content },
      admins[CASE_B_ORGANISATION],
    );
    passes.mark();
    await call(
      'POST',
      '/api/v1/rate-cards/import',
      { format: 'json', content, expected_version: preview.expected_version },
      admins[CASE_B_ORGANISATION],
    );
    let settledAt: number | null = null;
    const settling = settle().then((t) => {
      settledAt = t;
    });
    const busy = await latencies(() => settledAt !== null);
    await settling;
    const caseB = { ms: settledAt ?? Number.NaN, counts: await counted() };

    const describe = (c: Counts) =>
      `${c.examined} / ${c.queued} / ${c.repriced} / ${c.notified} (${c.passes} passes, ${c.changes} change rows)`;
    report.line(
      `case A, one bracket (financier ${CASE_A_ORGANISATION}): commit to every affected scenario re-priced and notified`,
      seconds(caseA.ms),
      '<= 10 s',
      `${caseA.ms <= 10_000 ? 'PASS' : 'MISS'} ${(caseA.ms / 10_000).toFixed(2)}x of bound`,
    );
    report.line('  case A: scenarios examined / queued / re-run / notified', describe(caseA.counts));
    report.line(
      `case B, whole card imported (financier ${CASE_B_ORGANISATION}): commit to all re-priced and notified`,
      seconds(caseB.ms),
      'reported',
    );
    report.line('  case B: scenarios examined / queued / re-run / notified', describe(caseB.counts));
    report.line(
      '  case B: re-priced per second',
      (caseB.counts.repriced / Math.max(0.001, caseB.ms / 1000)).toFixed(0),
    );
    report.line(
      'matrix-calculator p50 / p99, worker idle',
      `${ms(quiet.p50)} / ${ms(quiet.p99)} (${quiet.requests} requests, ${quiet.failed} failed)`,
    );
    report.line(
      'matrix-calculator p50 / p99, during case B',
      `${ms(busy.p50)} / ${ms(busy.p99)} (${busy.requests} requests, ${busy.failed} failed)`,
    );
    const ratio = busy.p99 / quiet.p99;
    report.line(
      'p99 during re-pricing / idle',
      `${ratio.toFixed(2)}x`,
      '< 1.2x',
      `${ratio < 1.2 ? 'PASS' : 'MISS'} ${(ratio / 1.2).toFixed(2)}x of bound`,
    );
    report.note(
      `(9) ${SCENARIOS} saved scenarios (copies of ${templates.length} real runs, both pricing tools) over ${brokers.length} brokers in ${organisations.length} organisations, set up in ${seconds(setupMs)}; worker ${bench.config.scenarioRepriceWorker === 'thread' ? 'in its own thread' : 'on the server thread'}, poll ${bench.config.scenarioRepriceIntervalMs} ms, ${bench.config.scenarioRepricePerPass} a pass; settled = change log and queue empty (polled every ${POLL_MS} ms); latency: ${LATENCY_CONNECTIONS} keep-alive connections, 1-second loads pooled, ${LATENCY_SECONDS} s idle, then from case B's commit until it settled`,
    );
  } finally {
    await bench.app.repricing.stop();
    passes.stop();
  }
}
