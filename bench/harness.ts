/**
 * The real app on 127.0.0.1, started as the tests start it (testkit/app.ts): over in-memory PGlite, or over a fresh
 * PostgreSQL database made for each app and dropped when it closes (or, through dropFreshDatabases, when the run fails
 * or is interrupted). Plus the bench's own pieces: a seeded catalogue, the bench broker's access token, "bare" Express
 * routes and the hand-written baseline (bench/baseline.ts) placed at the front of the same app (so the real routes keep
 * exactly the production middleware), a keep-alive HTTP client, and PGlite's database time.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import express, { type Request, type Response } from 'express';
import pg from 'pg';
import type { Config } from '../src/lib/config.ts';
import type { Database } from '../src/lib/db.ts';
import type { App } from '../src/app.ts';
import { startTestApp } from '../testkit/app.ts';
import { dropFreshDatabases } from '../testkit/postgres.ts';
import { baselineHandler, pgDriver, pgliteDriver, type BaselineDriver } from './baseline.ts';
import { BENCH_USER, seedBenchCatalogue, type SeededCatalogue } from './catalogue.ts';

export { dropFreshDatabases };

/**
 * PGlite's database time, measured in the bench only: PGlite runs SQL in WebAssembly on the calling thread, and every
 * statement enters the WASM module through `execProtocolRawSync` (once per warm statement through the app's prepared
 * path, src/lib/pglite-prepared.ts; PGlite's own `query` enters it six times: parse, describe, bind, describe, execute,
 * sync). `wasmMs` is the time spent inside those calls (the database itself);
 * `driverMs` the wall time of the outermost `query` / `exec` / `execProtocolRaw` calls (the database plus PGlite's own
 * JavaScript: message building, result parsing, its mutex), meaningful for sequential requests only. Patching the
 * prototype also tells which instance ran the last statement: the app's, right after a statement through its Prisma.
 */
export const pgliteTime = { wasmMs: 0, wasmCalls: 0, driverMs: 0, driverCalls: 0 };
let lastPglite: PGlite | null = null;
{
  const proto = PGlite.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const sync = proto.execProtocolRawSync;
  proto.execProtocolRawSync = function (this: PGlite, ...args: unknown[]) {
    lastPglite = this;
    const t0 = performance.now();
    try {
      return sync.apply(this, args);
    } finally {
      pgliteTime.wasmMs += performance.now() - t0;
      pgliteTime.wasmCalls += 1;
    }
  };
  let depth = 0;
  for (const name of ['query', 'exec', 'execProtocolRaw'] as const) {
    const original = proto[name];
    proto[name] = async function (this: PGlite, ...args: unknown[]) {
      const outer = depth++ === 0;
      const t0 = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        depth--;
        if (outer) {
          pgliteTime.driverMs += performance.now() - t0;
          pgliteTime.driverCalls += 1;
        }
      }
    };
  }
}

export interface BenchApp {
  baseUrl: string;
  app: App;
  database: Database;
  seeded: SeededCatalogue;
  token: string;
  /** One request over a keep-alive socket: status and raw body. */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; text: string }>;
  /** PostgreSQL only: the server processes serving this app's database (empty on PGlite). */
  backendPids(): Promise<number[]>;
  /** Serves `json` from `path` (POST): with `parse`, the request body goes through express.json() first. */
  addBareRoute(path: string, json: unknown, options: { parse: boolean }): void;
  /** Serves the hand-written baseline of POST /api/v1/matrix-calculator/ from `path`, on this app's database. */
  addBaselineRoute(path: string): Promise<BaselineDriver>;
  config: Config;
  /** The database URL of this app (PostgreSQL), or null (PGlite). */
  databaseUrl: string | null;
  close(): Promise<void>;
}

/** Which database a run is on, as one line: server version and address (never the credentials), or PGlite. */
export async function describeDatabase(postgresUrl: string | null): Promise<string> {
  if (!postgresUrl) return "PGlite (embedded PostgreSQL, WASM) in memory, in the server's process and on its thread";
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
    const u = new URL(postgresUrl);
    return `PostgreSQL ${rows[0].v} at ${u.hostname}:${u.port || 5432} (separate server processes; a fresh database per catalogue, dropped at the end; src/lib/db.ts's pool of 10 connections)`;
  } finally {
    await client.end();
  }
}

/** True when a PostgreSQL server answers at `url` within two seconds. */
export async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startBenchApp(financiers: number, postgresUrl: string | null): Promise<BenchApp> {
  let seeded: SeededCatalogue | undefined;
  const started = await startTestApp({
    seed: 'none',
    postgresUrl,
    databasePrefix: 'bench',
    prepare: async (database) => {
      seeded = await seedBenchCatalogue(database, { financiers });
    },
  });
  const { app, database, baseUrl } = started;
  const databaseUrl = started.config.databaseUrl ?? '';
  const drivers: BaselineDriver[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  const send = (
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
    retry: boolean,
  ): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(
        `${baseUrl}${path}`,
        {
          method,
          agent,
          headers: {
            ...headers,
            ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while the bench was busy timing engines: retry once on a new one.
        if (retry && req.reusedSocket && error.code === 'ECONNRESET')
          send(method, path, body, headers, false).then(resolve, reject);
        else reject(error);
      });
      req.end(payload);
    });
  const request: BenchApp['request'] = (method, path, body, headers = {}) => send(method, path, body, headers, true);

  const login = await request('POST', '/api/v1/auth/login', { email: BENCH_USER.email, password: BENCH_USER.password });
  if (login.status !== 200) throw new Error(`bench login: ${login.status} ${login.text}`);
  const token = (JSON.parse(login.text) as { access: string }).access;

  const backendPids = async (): Promise<number[]> => {
    if (!databaseUrl) return [];
    const admin = new pg.Client({ connectionString: postgresUrl! });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [
        new URL(databaseUrl).pathname.slice(1),
      ]);
      return rows.map((r) => r.pid);
    } finally {
      await admin.end();
    }
  };

  const toFront = () => {
    // Express appends routes after the app's own 404 handler: move the new layer to the front of the stack.
    const stack = (app.express as unknown as { router: { stack: unknown[] } }).router.stack;
    stack.unshift(stack.pop());
  };

  return {
    baseUrl,
    app,
    database,
    config: started.config,
    databaseUrl: started.config.databaseUrl,
    seeded: seeded!,
    token,
    request,
    backendPids,
    addBareRoute(path, json, { parse }) {
      const handler = (_req: Request, res: Response) => {
        res.json(json);
      };
      if (parse) app.express.post(path, express.json({ limit: '256kb', strict: false }), handler);
      else app.express.post(path, handler);
      toFront();
    },
    async addBaselineRoute(path) {
      let driver: BaselineDriver;
      if (started.config.databaseUrl) driver = pgDriver(started.config.databaseUrl);
      else {
        // The app's own PGlite instance: the one that runs a statement sent through the app's Prisma.
        lastPglite = null;
        await database.prisma.$queryRawUnsafe('SELECT 1');
        if (!lastPglite) throw new Error("baseline: could not find the app's PGlite instance");
        driver = await pgliteDriver(lastPglite);
      }
      drivers.push(driver);
      const handler = baselineHandler({
        config: started.config,
        now: () => app.deps.clock.now(),
        driver,
        snapshot: (version) => app.deps.services.catalogue.get(version),
      });
      app.express.post(path, (req, res) => handler(req, res));
      toFront();
      return driver;
    },
    close: async () => {
      agent.destroy();
      for (const d of drivers) await d.close();
      await started.close();
    },
  };
}

export interface LoadResult {
  completed: number;
  failed: number;
  firstFailure: string | null;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Milliseconds per request, sorted: only when `samples` was asked for. */
  latencies?: number[];
  /** Milliseconds the server's (this) thread was busy per completed request (event-loop utilisation x time). */
  serverBusyMs: number;
  /** Share of all the machine's cores busy during the load (everything: server, load generator, database, others). */
  machineBusy: number;
  /** CPU milliseconds per completed request (Linux /proc; NaN elsewhere): the server's thread, the load generator's
   *  thread, and the PostgreSQL server processes of this app's database (0 on PGlite, which runs on the server's thread). */
  cpu: { server: number; client: number; database: number; processes: number[] };
}

const TICK_MS = 10; // Linux USER_HZ is 100 on every mainstream kernel (getconf CLK_TCK)
function cpuOfStat(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime (fields 14 and 15 of stat)
  } catch {
    return NaN;
  }
}
/** CPU milliseconds the calling thread has used (Linux). */
const threadCpuMs = (): number => cpuOfStat('/proc/thread-self/stat');
/** CPU milliseconds a whole process has used (all its threads: JavaScript, GC, libuv pool). */
const processCpuMs = (pid: number): number => cpuOfStat(`/proc/${pid}/stat`);

function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle;
    total += t;
    busy += t - c.times.idle;
  }
  return { busy, total };
}

/**
 * Closed-loop keep-alive load from a worker thread (bench/load-worker.mjs): bounded by time and by count.
 * `backendPids` (PostgreSQL): the database's server processes, read before and after, for their CPU time.
 */
export async function load(options: {
  /** One URL, or several: connection k goes to urls[k % urls.length] (two server processes). */
  url: string | string[];
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  /** Instead of `body`: request k carries bodies[k % bodies.length] (exactly bodies[k] on one connection). */
  bodies?: string[];
  /** Read each answer as text (Buffer.concat + UTF-8 decode) in the worker, as a client that parses it would. */
  decode?: boolean;
  /** Answer every request's latency too (`latencies`, sorted), to pool several loads into one distribution. */
  samples?: boolean;
  connections: number;
  durationMs: number;
  maxRequests?: number;
  backendPids?: () => Promise<number[]>;
  /** Other processes (server processes under test) whose CPU is reported per request, in this order. */
  pids?: number[];
}): Promise<LoadResult> {
  const { backendPids, pids = [], ...work } = options;
  const pidsBefore = pids.map(processCpuMs);
  const backendBefore = new Map((backendPids ? await backendPids() : []).map((pid) => [pid, processCpuMs(pid)]));
  type WorkerResult = Omit<LoadResult, 'serverBusyMs' | 'machineBusy' | 'cpu'> & { clientCpuMs: number };
  const elu = performance.eventLoopUtilization();
  const machine = cpuTimes();
  const serverCpu = threadCpuMs();
  const result = await new Promise<WorkerResult>((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { maxRequests: 200_000, ...work },
    });
    worker.once('message', (r: WorkerResult) => {
      resolve(r);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  const serverCpuMs = threadCpuMs() - serverCpu;
  const busy = performance.eventLoopUtilization(elu);
  const machineAfter = cpuTimes();
  // Backends that exited during the load would be missed; the pool keeps its connections, so there should be none.
  let databaseCpuMs = 0;
  for (const pid of backendPids ? await backendPids() : []) {
    const now = processCpuMs(pid);
    if (Number.isFinite(now)) databaseCpuMs += now - (backendBefore.get(pid) ?? 0);
  }
  const { clientCpuMs, ...rest } = result;
  const per = Math.max(1, result.completed);
  const processes = pids.map((pid, k) => (processCpuMs(pid) - pidsBefore[k]) / per);
  return {
    ...rest,
    serverBusyMs: busy.active / per,
    machineBusy: (machineAfter.busy - machine.busy) / Math.max(1, machineAfter.total - machine.total),
    cpu: { server: serverCpuMs / per, client: clientCpuMs / per, database: databaseCpuMs / per, processes },
  };
}
