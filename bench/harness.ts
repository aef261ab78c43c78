/**
 * The real app on 127.0.0.1, started as the tests start it (testkit/app.ts): over in-memory PGlite, or, when
 * BENCH_DATABASE_URL is set (a postgres:// URL), over a fresh PostgreSQL database made for each app and dropped when it
 * closes (or, through dropFreshDatabases, when the run fails or is interrupted). Plus the bench's own pieces: a seeded
 * catalogue, the bench broker's access token, "bare" Express routes placed at the front of the same app (so the real
 * routes keep exactly the production middleware), and a keep-alive HTTP client.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import express, { type Request, type Response } from 'express';
import pg from 'pg';
import type { Database } from '../src/lib/db.ts';
import type { App } from '../src/app.ts';
import { startTestApp } from '../testkit/app.ts';
import { dropFreshDatabases } from '../testkit/postgres.ts';
import { BENCH_USER, seedBenchCatalogue, type SeededCatalogue } from './catalogue.ts';

export { dropFreshDatabases };

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
  close(): Promise<void>;
}

/** BENCH_DATABASE_URL: run on PostgreSQL (a fresh database per app, made through this URL's database). */
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL || null;
if (BENCH_DATABASE_URL && !/^postgres(ql)?:\/\//.test(BENCH_DATABASE_URL))
  throw new Error('BENCH_DATABASE_URL must be a postgres:// URL');

/** Which database the bench runs on, as one line: server version and address (never the credentials), or PGlite. */
export async function describeDatabase(): Promise<string> {
  if (!BENCH_DATABASE_URL)
    return "PGlite (embedded PostgreSQL, WASM) in memory, in the server's process and on its thread";
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
    const u = new URL(BENCH_DATABASE_URL);
    return `PostgreSQL ${rows[0].v} at ${u.hostname}:${u.port || 5432} (separate server processes; a fresh database per catalogue, dropped at the end; src/lib/db.ts's pool of 10 connections)`;
  } finally {
    await client.end();
  }
}

export async function startBenchApp(financiers: number): Promise<BenchApp> {
  let seeded: SeededCatalogue | undefined;
  const started = await startTestApp({
    seed: 'none',
    postgresUrl: BENCH_DATABASE_URL,
    databasePrefix: 'bench',
    prepare: async (database) => {
      seeded = await seedBenchCatalogue(database, { financiers });
    },
  });
  const { app, database, baseUrl } = started;
  const databaseUrl = started.config.databaseUrl ?? '';
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
    if (!BENCH_DATABASE_URL) return [];
    const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
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

  return {
    baseUrl,
    app,
    database,
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
      // Express appends routes after the app's own 404 handler: move the new layer to the front of the stack.
      const stack = (app.express as unknown as { router: { stack: unknown[] } }).router.stack;
      stack.unshift(stack.pop());
    },
    close: async () => {
      agent.destroy();
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
  /** Milliseconds the server's (this) thread was busy per completed request (event-loop utilisation x time). */
  serverBusyMs: number;
  /** Share of all the machine's cores busy during the load (everything: server, load generator, database, others). */
  machineBusy: number;
  /** CPU milliseconds per completed request (Linux /proc; NaN elsewhere): the server's thread, the load generator's
   *  thread, and the PostgreSQL server processes of this app's database (0 on PGlite, which runs on the server's thread). */
  cpu: { server: number; client: number; database: number };
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
export const threadCpuMs = (): number => cpuOfStat('/proc/thread-self/stat');
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
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationMs: number;
  maxRequests?: number;
  backendPids?: () => Promise<number[]>;
}): Promise<LoadResult> {
  const { backendPids, ...work } = options;
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
  return {
    ...rest,
    serverBusyMs: busy.active / per,
    machineBusy: (machineAfter.busy - machine.busy) / Math.max(1, machineAfter.total - machine.total),
    cpu: { server: serverCpuMs / per, client: clientCpuMs / per, database: databaseCpuMs / per },
  };
}
