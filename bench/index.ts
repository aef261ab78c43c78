/**
 * `npm run bench`: the performance figures of issues 3 and 4, from one run, each beside its target.
 * A benchmark, not a test: it always exits 0 (unless it cannot run at all); read the verdict column.
 * See docs/performance.md for what each figure means and the figures of the last recorded run.
 *
 *   1  pricing engine alone: one deal against the 300-financier catalogue (12,040 brackets), over many deals
 *   2  a full POST /api/v1/calculator (HTTP, auth, GraphQL, metering, saving the recent) vs the engine alone
 *   3  Matrix Calculator engines (criteria + pricing + join + rows, what runMatrixCalculator does minus I/O)
 *   4  database statements per warm POST /api/v1/matrix-calculator/ at 10 and at 300 financiers; cold snapshot loads
 *   5  REST and GraphQL throughput on the demo catalogue vs a bare Express route answering the same JSON
 *   6  process memory with the large catalogue loaded
 *
 * Bounded: ~500 deals per engine figure, 200 sequential calculator requests, 3 s of load per throughput figure.
 * Loopback only. Environment: BENCH_DEALS (default 500), BENCH_LOAD_SECONDS (default 3), BENCH_CONNECTIONS (8),
 * BENCH_DATABASE_URL (a postgres:// URL: run on PostgreSQL, a fresh database per catalogue; default in-memory PGlite).
 * NODE_ENV: production unless set (bench/env.ts, imported first so graphql-js sees it when it loads).
 */
import { NODE_ENV_SOURCE } from './env.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import os from 'node:os';
import { loadSnapshot, type CatalogueSnapshot } from '../src/modules/catalogue/snapshot.ts';
import type { Deal } from '../src/modules/catalogue/model.ts';
import { evaluateApprovals } from '../src/modules/matrix/criteria.ts';
import { applyPaywall, joinMatrixCalculator } from '../src/modules/matrix/join.ts';
import { matrixCalculatorRow } from '../src/modules/matrix/rows.ts';
import { validatedDeal, type DealRequest } from '../src/modules/deal/index.ts';
import { priceDeal, reachableBracketCount } from '../src/modules/pricing/engine.ts';
import { withFragments } from '../src/rest/fragments.ts';
import matrixCalculatorRoute from '../src/rest/routes/matrix/matrix-calculator.route.ts';
import { benchDeals } from './catalogue.ts';
import { pricingWorkload } from './workloads.ts';
import {
  BENCH_DATABASE_URL,
  describeDatabase,
  dropFreshDatabases,
  load,
  startBenchApp,
  type BenchApp,
  type LoadResult,
} from './harness.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const DEALS = Number(process.env.BENCH_DEALS ?? 500);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const CALCULATOR_REQUESTS = 100;
const WARM_QUERY_REQUESTS = 20;

// ---------------------------------------------------------------------------------------------------------------
// Figures and the table
// ---------------------------------------------------------------------------------------------------------------

interface Line {
  id: string;
  figure: string;
  value: string;
  target: string;
  verdict: string;
}
const lines: Line[] = [];
const notes: string[] = [];

function line(id: string, figure: string, value: string, target = '', verdict = ''): void {
  lines.push({ id, figure, value, target, verdict });
  process.stderr.write(`  ${id} ${figure}: ${value}${target ? `  (target ${target}: ${verdict})` : ''}\n`);
}
/** PASS/MISS with the figure as a fraction of its bound (below 1.00 is inside a "lower is better" bound). */
function atMost(value: number, bound: number): string {
  return `${value <= bound ? 'PASS' : 'MISS'} ${(value / bound).toFixed(2)}x of bound`;
}
function atLeast(value: number, bound: number): string {
  return `${value >= bound ? 'PASS' : 'MISS'} ${(value / bound).toFixed(2)}x of bound`;
}
const ms = (x: number) => `${x < 10 ? x.toFixed(3) : x.toFixed(1)} ms`;
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
function summary(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1],
    mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
  };
}

function printTable(): void {
  const head: Line = { id: '#', figure: 'figure', value: 'value', target: 'target', verdict: 'verdict' };
  const sorted = [...lines].sort((a, b) => a.id.localeCompare(b.id));
  const rows = [head, ...sorted];
  const width = (k: keyof Line) => Math.max(...rows.map((r) => r[k].length));
  const w = {
    id: width('id'),
    figure: width('figure'),
    value: width('value'),
    target: width('target'),
    verdict: width('verdict'),
  };
  const fmt = (r: Line) =>
    `${r.id.padEnd(w.id)}  ${r.figure.padEnd(w.figure)}  ${r.value.padStart(w.value)}  ${r.target.padEnd(w.target)}  ${r.verdict}`.trimEnd();
  const rule = '-'.repeat(w.id + w.figure + w.value + w.target + w.verdict + 8);
  console.log(`npm run bench on ${BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, NODE_ENV=${process.env.NODE_ENV}`);
  console.log(rule);
  console.log(fmt(head));
  console.log(rule);
  for (const r of sorted) console.log(fmt(r));
  console.log(rule);
  for (const n of notes) console.log(`note: ${n}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Engines alone
// ---------------------------------------------------------------------------------------------------------------

const now = new Date();
/** The deal the service would price: validated and normalised by the same function (a bad bench deal throws). */
function toDeal(request: DealRequest, surface: 'calculator' | 'matrix_calculator'): Deal {
  return validatedDeal(request, surface, now);
}

/** Times `run` once per deal, after a warm-up pass over the first 50; per-deal milliseconds in deal order. */
function timePerDeal<T>(deals: readonly T[], run: (deal: T) => unknown): number[] {
  for (let k = 0; k < Math.min(50, deals.length); k++) run(deals[k]);
  gc();
  const samples: number[] = [];
  for (const deal of deals) {
    const t0 = performance.now();
    run(deal);
    samples.push(performance.now() - t0);
  }
  return samples;
}

/**
 * The pure part of runMatrixCalculator (src/modules/matrix/service.ts) for a broker (no book, no preferred financier,
 * not paywalled), statement for statement; `checkMirror` compares it with the service over HTTP on a few deals.
 */
function matrixEngines(snapshot: CatalogueSnapshot, deal: Deal, timed = false) {
  const times = timed ? [performance.now()] : [];
  const outcomes = evaluateApprovals(snapshot.approvals, deal, snapshot.ancestry, { organisationIds: null });
  if (timed) times.push(performance.now());
  const priced = priceDeal(snapshot.pricingIndex, deal, { organisationIds: null, type: 'commercial' });
  if (timed) times.push(performance.now());
  const join = joinMatrixCalculator(outcomes, priced, snapshot.organisationNames);
  if (timed) times.push(performance.now());
  const rows = applyPaywall(join.rows, { masked: false }).map(matrixCalculatorRow);
  if (timed) times.push(performance.now());
  return {
    outcomes: outcomes.length,
    priced: priced.length,
    rows,
    priced_count: join.priced_count,
    destination_count: join.destination_count,
    times,
  };
}

/** True when the bench's copy of the engines answers what the service answers (ids, figures, order, counts). */
async function checkMirror(
  bench: BenchApp,
  snapshot: CatalogueSnapshot,
  requests: readonly DealRequest[],
  deals: readonly Deal[],
): Promise<boolean> {
  const key = (r: {
    approval_id: number;
    rate_bracket_id: number;
    e_min: string | null;
    status: string;
    masked: boolean;
  }) => `${r.approval_id}/${r.rate_bracket_id}/${r.e_min}/${r.status}/${r.masked}`;
  for (let k = 0; k < Math.min(5, deals.length); k++) {
    const r = await bench.request('POST', '/api/v1/matrix-calculator/', requests[k], bearer(bench));
    const served = JSON.parse(r.text);
    const mine = matrixEngines(snapshot, deals[k]);
    if (
      r.status !== 200 ||
      served.priced_count !== mine.priced_count ||
      served.destination_count !== mine.destination_count ||
      served.results.map(key).join() !== mine.rows.map(key).join()
    )
      return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------------------------

const bearer = (bench: BenchApp) => ({ authorization: `Bearer ${bench.token}` });

async function warmQueries(
  bench: BenchApp,
  deal: DealRequest,
): Promise<{ cold: number; warm: number; snapshotLoad: number }> {
  const before = bench.database.queryCount();
  const first = await bench.request('POST', '/api/v1/matrix-calculator/', deal, bearer(bench));
  if (first.status !== 200) throw new Error(`matrix-calculator: ${first.status} ${first.text}`);
  const cold = bench.database.queryCount() - before;
  const start = bench.database.queryCount();
  for (let k = 0; k < WARM_QUERY_REQUESTS; k++) {
    const r = await bench.request('POST', '/api/v1/matrix-calculator/', deal, bearer(bench));
    if (r.status !== 200) throw new Error(`matrix-calculator: ${r.status} ${r.text}`);
  }
  const warm = (bench.database.queryCount() - start) / WARM_QUERY_REQUESTS;
  return { cold, warm, snapshotLoad: cold - warm };
}

async function main(): Promise<void> {
  const started = performance.now();
  const database = await describeDatabase();
  const nodeEnv = `NODE_ENV=${process.env.NODE_ENV} (${NODE_ENV_SOURCE})`;
  process.stderr.write(
    `bench: node ${process.version}, ${os.cpus().length} cpu(s) ${os.cpus()[0]?.model ?? ''}, ${nodeEnv}, ${DEALS} deals\n`,
  );
  process.stderr.write(`bench: database: ${database}\n`);
  notes.push(`database: ${database}`);
  notes.push(
    `node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${nodeEnv}; load average at start ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const requests = benchDeals(DEALS);

  // ---- 300 financiers -----------------------------------------------------------------------------------------
  process.stderr.write('bench: seeding 300 financiers ...\n');
  const large = await startBenchApp(300);
  const { seeded } = large;
  notes.push(
    `large catalogue: ${seeded.financiers} financiers (7 demo + 300 synthetic), ${seeded.brackets} brackets, ${seeded.approvals} approvals; seeded in ${seeded.seconds.toFixed(1)} s`,
  );
  const queries = await warmQueries(large, requests[0]);
  const snapshot = await large.app.deps.services.catalogue.get();
  gc();
  const memory = process.memoryUsage();
  // A second, private copy of the snapshot: its load time and statements, and (held across a GC) its heap size.
  const q0 = large.database.queryCount();
  const t0 = performance.now();
  let copy: CatalogueSnapshot | null = await loadSnapshot(large.app.deps.prisma);
  const coldLoadMs = performance.now() - t0;
  const coldLoadQueries = large.database.queryCount() - q0;
  gc();
  const snapshotHeap = process.memoryUsage().heapUsed - memory.heapUsed;
  if (copy.brackets.length !== snapshot.brackets.length) throw new Error('snapshot copy differs');
  copy = null;

  const calculatorDeals = requests.map((r) => toDeal(r, 'calculator'));
  const matrixDeals = requests.map((r) => toDeal(r, 'matrix_calculator'));
  const reachable = summary(calculatorDeals.map((d) => reachableBracketCount(snapshot.pricingIndex, d.asset_value)));

  // (1) pricing engine alone
  const pricing = timePerDeal(calculatorDeals, (deal) =>
    priceDeal(snapshot.pricingIndex, deal, { organisationIds: null, type: 'commercial' }),
  );
  const pricedRows = pricingWorkload(snapshot.pricingIndex, calculatorDeals).rows;
  const pricingStats = summary(pricing);
  line(
    '1',
    `pricing engine, 1 deal x ${reachable.median} brackets: median`,
    ms(pricingStats.median),
    '< 10 ms',
    atMost(pricingStats.median, 10),
  );
  line('1', 'pricing engine: p99', ms(pricingStats.p99));
  notes.push(
    `(1) ${DEALS} deals; brackets examined per deal: median ${reachable.median}, min ${Math.min(...calculatorDeals.map((d) => reachableBracketCount(snapshot.pricingIndex, d.asset_value)))}; rows priced per deal: mean ${(pricedRows / DEALS).toFixed(0)}`,
  );

  // (2) full POST /api/v1/calculator vs the engine on the same deals
  const http: number[] = [];
  for (let k = 0; k < Math.min(CALCULATOR_REQUESTS, requests.length); k++) {
    const t0 = performance.now();
    const r = await large.request('POST', '/api/v1/calculator', requests[k], bearer(large));
    http.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`calculator: ${r.status} ${r.text.slice(0, 300)}`);
  }
  const httpStats = summary(http);
  const engineSame = summary(pricing.slice(0, http.length));
  line('2', 'POST /api/v1/calculator (HTTP, 300 financiers): median', ms(httpStats.median));
  line('2', 'calculator request / engine alone (medians)', `${(httpStats.median / engineSame.median).toFixed(1)}x`);

  // (3) the Matrix Calculator engines, one pass, each stage timed
  const stages = {
    total: [] as number[],
    criteria: [] as number[],
    pricing: [] as number[],
    join: [] as number[],
    rows: [] as number[],
  };
  let totals = { outcomes: 0, priced: 0, rows: 0 };
  for (let k = 0; k < Math.min(50, matrixDeals.length); k++) matrixEngines(snapshot, matrixDeals[k]);
  gc();
  for (const deal of matrixDeals) {
    const t = matrixEngines(snapshot, deal, true);
    stages.total.push(t.times[4] - t.times[0]);
    stages.criteria.push(t.times[1] - t.times[0]);
    stages.pricing.push(t.times[2] - t.times[1]);
    stages.join.push(t.times[3] - t.times[2]);
    stages.rows.push(t.times[4] - t.times[3]);
    totals = {
      outcomes: totals.outcomes + t.outcomes,
      priced: totals.priced + t.priced,
      rows: totals.rows + t.rows.length,
    };
  }
  const matrixStats = summary(stages.total);
  line(
    '3',
    'matrix engines (criteria+pricing+join+rows): median',
    ms(matrixStats.median),
    '<= 5 ms',
    atMost(matrixStats.median, 5),
  );
  line('3', 'matrix engines: p99', ms(matrixStats.p99));
  line(
    '3',
    'matrix engines: p99 / median',
    `${(matrixStats.p99 / matrixStats.median).toFixed(2)}x`,
    '<= 3x',
    atMost(matrixStats.p99 / matrixStats.median, 3),
  );
  line(
    '3',
    `  criteria (${snapshot.approvals.length} approvals): median / p99`,
    `${ms(summary(stages.criteria).median)} / ${ms(summary(stages.criteria).p99)}`,
  );
  line('3', '  pricing: median / p99', `${ms(summary(stages.pricing).median)} / ${ms(summary(stages.pricing).p99)}`);
  line('3', '  join: median / p99', `${ms(summary(stages.join).median)} / ${ms(summary(stages.join).p99)}`);
  line(
    '3',
    '  paywall + rows (matrixCalculatorRow): median / p99',
    `${ms(summary(stages.rows).median)} / ${ms(summary(stages.rows).p99)}`,
  );
  if (!(await checkMirror(large, snapshot, requests, matrixDeals)))
    notes.push(
      '(3) WARNING: the bench copy of the Matrix Calculator engines no longer matches the service: update matrixEngines() in bench/index.ts',
    );
  else
    notes.push(
      '(3) the bench copy of the engines matches POST /api/v1/matrix-calculator/ on 5 deals (rows, order, figures, counts)',
    );
  notes.push(
    `(3) per deal, mean: ${(totals.outcomes / DEALS).toFixed(0)} approvals not ruled out, ${(totals.priced / DEALS).toFixed(0)} brackets priced, ${(totals.rows / DEALS).toFixed(0)} joined rows; max ${ms(matrixStats.max)}`,
  );

  // (6) memory, measured above: after the first request loaded the snapshot, after a full GC
  line('6', 'memory, large catalogue loaded: rss', mb(memory.rss));
  line('6', 'memory: heapUsed (whole process)', mb(memory.heapUsed));
  line('6', 'memory: heap held by one catalogue snapshot', mb(snapshotHeap));
  line('4', 'cold snapshot load, 300 financiers: time (9 statements + indexes)', ms(coldLoadMs));
  notes.push(
    `(6) after the first request loaded the snapshot, after a full GC; ${BENCH_DATABASE_URL ? 'the database runs in its own processes (not in rss)' : 'rss includes the in-process PGlite database (WASM memory)'}; external ${mb(memory.external)}. Snapshot heap = heapUsed while holding a second copy - without; cold load = loadSnapshot, ${coldLoadQueries} statements`,
  );

  const largeQueries = queries;
  await large.close();

  // ---- 10 financiers ------------------------------------------------------------------------------------------
  process.stderr.write('bench: seeding 10 financiers ...\n');
  const small = await startBenchApp(10);
  const smallQueries = await warmQueries(small, requests[0]);
  await small.close();
  line(
    '4',
    'db statements / warm matrix-calculator, 10 financiers',
    String(smallQueries.warm),
    '<= 3',
    atMost(smallQueries.warm, 3),
  );
  line(
    '4',
    'db statements / warm matrix-calculator, 300 financiers',
    String(largeQueries.warm),
    '= 10-financier figure',
    largeQueries.warm === smallQueries.warm ? 'PASS equal' : 'MISS differs',
  );
  line(
    '4',
    'db statements / cold snapshot load, 10 vs 300 financiers',
    `${smallQueries.snapshotLoad} vs ${largeQueries.snapshotLoad}`,
    'constant',
    smallQueries.snapshotLoad === largeQueries.snapshotLoad ? 'PASS equal' : 'MISS differs',
  );

  // ---- demo catalogue: throughput -----------------------------------------------------------------------------
  process.stderr.write('bench: demo catalogue throughput ...\n');
  const demo = await startBenchApp(0);
  const deal: DealRequest = {
    cost: 55_000,
    asset_value: 11,
    term: 60,
    advance_arrears: 'arrears',
    repayment_frequency: 'monthly',
    cost_gst: true,
    abn_age: 36,
    gst_age: 30,
    credit_score: 700,
    home_owner: true,
  };
  const captured = await demo.request('POST', '/api/v1/matrix-calculator/', deal, bearer(demo));
  if (captured.status !== 200) throw new Error(`matrix-calculator: ${captured.status} ${captured.text}`);
  const body = JSON.parse(captured.text) as { results: unknown[] };
  demo.addBareRoute('/bench/bare', body, { parse: true });
  demo.addBareRoute('/bench/bare-no-parse', body, { parse: false });
  const gqlQuery = withFragments(matrixCalculatorRoute.document);
  const gqlCheck = await demo.request(
    'POST',
    '/graphql',
    { query: gqlQuery, variables: { input: deal } },
    bearer(demo),
  );
  const gqlBody = JSON.parse(gqlCheck.text) as {
    data?: { matrixCalculator?: { __typename: string } };
    errors?: unknown;
  };
  if (gqlCheck.status !== 200 || gqlBody.data?.matrixCalculator?.__typename !== 'MatrixCalculatorResult')
    throw new Error(`graphql: ${gqlCheck.status} ${gqlCheck.text.slice(0, 300)}`);

  // Where a warm request's time goes on this database: sequential requests (no queueing), with the duration Prisma
  // reports for each statement. On PGlite that is time the server's thread spends running SQL; on PostgreSQL it is
  // mostly waiting on a round trip (the SQL runs in another process), so the thread is free to serve others.
  let statementMs = 0;
  let statements = 0;
  demo.app.deps.prisma.$on('query' as never, (event: { duration: number }) => {
    statementMs += event.duration;
    statements += 1;
  });
  const sequential: number[] = [];
  for (let k = 0; k < 150; k++) {
    if (k === 50) {
      statementMs = 0;
      statements = 0;
    }
    const t0 = performance.now();
    const r = await demo.request('POST', '/api/v1/matrix-calculator/', deal, bearer(demo));
    if (k >= 50) sequential.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`matrix-calculator: ${r.status} ${r.text}`);
  }
  const perRequestDbMs = statementMs / sequential.length;
  const perRequestStatements = statements / sequential.length;
  const sequentialMs = summary(sequential).median;

  const json = JSON.stringify(deal);
  const targets = {
    bare: { url: `${demo.baseUrl}/bench/bare`, body: json },
    bareNoParse: { url: `${demo.baseUrl}/bench/bare-no-parse`, body: json },
    rest: { url: `${demo.baseUrl}/api/v1/matrix-calculator/`, body: json },
    graphql: { url: `${demo.baseUrl}/graphql`, body: JSON.stringify({ query: gqlQuery, variables: { input: deal } }) },
  } as const;
  const headers = { 'content-type': 'application/json', ...bearer(demo) };
  // Warm every path (JIT, connections), then alternate short rounds so drift hits every target alike.
  const backendPids = demo.backendPids;
  for (const t of Object.values(targets))
    await load({ ...t, method: 'POST', headers, connections: CONNECTIONS, durationMs: 300 });
  const results: Record<keyof typeof targets, LoadResult[]> = { bare: [], bareNoParse: [], rest: [], graphql: [] };
  const rounds = 3;
  for (let round = 0; round < rounds; round++) {
    for (const key of Object.keys(targets) as (keyof typeof targets)[]) {
      results[key].push(
        await load({
          ...targets[key],
          method: 'POST',
          headers,
          connections: CONNECTIONS,
          durationMs: (LOAD_SECONDS * 1000) / rounds,
          backendPids,
        }),
      );
    }
  }
  await demo.close();
  const rate = (key: keyof typeof targets) => {
    const all = results[key];
    const completed = all.reduce((s, r) => s + r.completed, 0);
    const failed = all.reduce((s, r) => s + r.failed, 0);
    if (failed)
      notes.push(`(5) ${key}: ${failed} failed requests (first: ${all.find((r) => r.firstFailure)?.firstFailure})`);
    const seconds = all.reduce((s, r) => s + r.seconds, 0);
    return {
      rps: completed / seconds,
      p50: summary(all.map((r) => r.p50)).median,
      busy: all.reduce((s, r) => s + r.serverBusyMs * r.completed, 0) / Math.max(1, completed),
      cpu: {
        server: all.reduce((s, r) => s + r.cpu.server * r.completed, 0) / Math.max(1, completed),
        client: all.reduce((s, r) => s + r.cpu.client * r.completed, 0) / Math.max(1, completed),
        database: all.reduce((s, r) => s + r.cpu.database * r.completed, 0) / Math.max(1, completed),
      },
      machine: all.reduce((s, r) => s + r.machineBusy * r.seconds, 0) / seconds,
    };
  };
  const bare = rate('bare');
  const bareNoParse = rate('bareNoParse');
  const rest = rate('rest');
  const graphql = rate('graphql');
  line('5', 'bare Express route, same JSON (express.json + res.json)', `${bare.rps.toFixed(0)} req/s`);
  line('5', 'bare Express route without body parsing (reference)', `${bareNoParse.rps.toFixed(0)} req/s`);
  line('5', `warm REST request, sequential: median latency`, ms(sequentialMs));
  if (BENCH_DATABASE_URL) {
    line(
      '5',
      `  of which waiting on its ${perRequestStatements.toFixed(0)} database statements (mean; off this thread)`,
      ms(perRequestDbMs),
    );
  } else {
    line(
      '5',
      `  of which in its ${perRequestStatements.toFixed(0)} database statements (mean; on this thread)`,
      ms(perRequestDbMs),
    );
    line(
      '5',
      '  => REST/bare ceiling if all else were free: bare / (bare + statements)',
      `${(1000 / bare.rps / (1000 / bare.rps + perRequestDbMs)).toFixed(2)}x`,
    );
  }
  // CPU per completed request under load, by where it ran (Linux /proc; NaN elsewhere, then the event loop's busy time).
  const cpuKnown = Number.isFinite(rest.cpu.server) && Number.isFinite(bare.cpu.server);
  if (cpuKnown) {
    const total = (r: ReturnType<typeof rate>) => r.cpu.server + r.cpu.client + r.cpu.database;
    line(
      '5',
      'CPU per request, server thread: bare / REST / GraphQL',
      `${ms(bare.cpu.server)} / ${ms(rest.cpu.server)} / ${ms(graphql.cpu.server)}`,
    );
    line(
      '5',
      `CPU per request, ${BENCH_DATABASE_URL ? 'PostgreSQL server processes' : 'database (PGlite: inside the server thread above)'}: REST / GraphQL`,
      `${ms(rest.cpu.database)} / ${ms(graphql.cpu.database)}`,
    );
    line(
      '5',
      'CPU per request, load generator thread: bare / REST / GraphQL',
      `${ms(bare.cpu.client)} / ${ms(rest.cpu.client)} / ${ms(graphql.cpu.client)}`,
    );
    line(
      '5',
      '  => ceiling REST/bare, GraphQL/bare if the server thread had a core to itself',
      `${(bare.cpu.server / rest.cpu.server).toFixed(2)}x / ${(bare.cpu.server / graphql.cpu.server).toFixed(2)}x`,
    );
    line(
      '5',
      `  => ceiling REST/bare, GraphQL/bare with everything sharing these ${os.cpus().length} cores`,
      `${(total(bare) / total(rest)).toFixed(2)}x / ${(total(bare) / total(graphql)).toFixed(2)}x`,
    );
  } else {
    line(
      '5',
      'server thread busy per request (event loop): bare / REST / GraphQL',
      `${ms(bare.busy)} / ${ms(rest.busy)} / ${ms(graphql.busy)}`,
    );
    line(
      '5',
      '  => ceiling REST/bare, GraphQL/bare if bound by the server thread',
      `${(bare.busy / rest.busy).toFixed(2)}x / ${(bare.busy / graphql.busy).toFixed(2)}x`,
    );
  }
  line(
    '5',
    `machine CPU busy under load (${os.cpus().length} cores, everything on the machine): bare / REST / GraphQL`,
    `${pct(bare.machine)} / ${pct(rest.machine)} / ${pct(graphql.machine)}`,
  );
  line('5', 'REST POST /api/v1/matrix-calculator/ (demo catalogue)', `${rest.rps.toFixed(0)} req/s`);
  line('5', 'REST / bare', `${(rest.rps / bare.rps).toFixed(2)}x`, '>= 0.75x', atLeast(rest.rps / bare.rps, 0.75));
  line('5', 'GraphQL matrixCalculator via /graphql', `${graphql.rps.toFixed(0)} req/s`);
  line(
    '5',
    'GraphQL / bare',
    `${(graphql.rps / bare.rps).toFixed(2)}x`,
    '>= 0.45x',
    atLeast(graphql.rps / bare.rps, 0.45),
  );
  notes.push(
    `(5) ${CONNECTIONS} keep-alive connections from a worker thread, ${LOAD_SECONDS} s per target in ${rounds} alternating rounds; response ${captured.text.length} bytes (${body.results.length} rows); p50 latency bare ${ms(bare.p50)}, REST ${ms(rest.p50)}, GraphQL ${ms(graphql.p50)}`,
  );
  if (cpuKnown)
    notes.push(
      `(5) CPU per request = user+system time from /proc (10 ms ticks) of the server's thread, the load generator's thread${BENCH_DATABASE_URL ? " and the PostgreSQL backends serving this run's database (not the shared WAL writer or checkpointer)" : ''}, over the completed requests; closed-loop throughput follows the CPU a request costs once the cores are busy`,
    );

  notes.push(`total bench time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  printTable();
}

// A failed or interrupted run still drops the fresh PostgreSQL databases it made. Ctrl-C under npm can deliver SIGINT
// twice (the terminal's process group, and npm forwarding it): later signals are absorbed while the drop runs.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`bench: ${signal}: dropping the bench databases\n`);
    void dropFreshDatabases().finally(() => process.exit(128 + os.constants.signals[signal]));
  });
}
main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    void dropFreshDatabases().finally(() => process.exit(1));
  },
);
