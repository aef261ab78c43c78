/**
 * Starts the real app on a real database and real HTTP, one per test file (and per benchmark app):
 * in-memory PGlite by default; a fresh PostgreSQL database per file when TEST_DATABASE_URL is set (CI's second pass).
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { GraphQLClient } from 'graphql-request';
import { loadConfig, type Config } from '../src/lib/config.ts';
import { openDatabase, type Database } from '../src/lib/db.ts';
import { createApp, type App } from '../src/app.ts';
import { answerClientErrorsInJson } from '../src/http/client-errors.ts';
import { holdIdleConnections } from '../src/http/keep-alive.ts';
import { ManualClock, systemClock, type Clock } from '../src/lib/clock.ts';
import { DEMO_CATALOGUE_PATH, DEMO_PASSWORD } from './demo.ts';
import { openPgliteCopy } from './databases.ts';
import { freshPostgres } from './postgres.ts';
import { assertConforms } from './conformance.ts';
import {
  loadDemoCatalogue,
  pgliteStartingPoint,
  postgresStartingPoint,
  type StartingPoint,
} from './starting-points.ts';

export { DEMO_CATALOGUE_PATH, DEMO_PASSWORD, freshPostgres };

export interface TestApp {
  baseUrl: string;
  app: App;
  database: Database;
  config: Config;
  clock: Clock;
  /**
   * REST call: JSON in, { status, body, headers } out. Every /api/v1 answer is checked against the OpenAPI document
   * (testkit/conformance.ts); `conformance: false` only for requests deliberately outside any documented operation.
   */
  rest(
    method: string,
    url: string,
    options?: {
      token?: string | null;
      body?: unknown;
      raw?: string;
      headers?: Record<string, string>;
      conformance?: boolean;
    },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  graphql(token?: string | null, headers?: Record<string, string>): GraphQLClient;
  login(email: string, password?: string): Promise<{ access: string; refresh: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  seed?: 'demo' | 'none';
  config?: Partial<Config>;
  /** Open a second app (another "process") on the same database. */
  shareDatabaseWith?: TestApp;
  /** PostgreSQL only: the app reaches its fresh database through this address (a test's TCP proxy). */
  databaseAddress?: { host: string; port: number };
  /** PostgreSQL server to make the fresh database on (postgres:// URL); null: PGlite. Default: TEST_DATABASE_URL. */
  postgresUrl?: string | null;
  /** Name prefix of that fresh database (default `test`). */
  databasePrefix?: string;
  /** Writes to the new database after the demo seed and before the app starts (the benchmark's catalogue). */
  prepare?: (database: Database) => Promise<void>;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = options.clock ?? systemClock;
  const point: StartingPoint = options.seed ?? 'demo';
  /** The run's copy this database started from (testkit/starting-points.ts), if any. */
  let startedFrom: Blob | string | undefined;
  let database: Database;
  let drop = async () => {};
  let databaseUrl: string | null = null;
  const postgresUrl = options.postgresUrl === undefined ? process.env.TEST_DATABASE_URL || null : options.postgresUrl;
  if (options.shareDatabaseWith) {
    databaseUrl = options.shareDatabaseWith.config.databaseUrl;
    database = databaseUrl
      ? await openDatabase({ databaseUrl, dataDir: ':memory:', migrate: false, timeouts: options.config })
      : options.shareDatabaseWith.database; // PGlite has one connection: share it (still two app instances)
  } else if (postgresUrl) {
    startedFrom = postgresStartingPoint(point);
    const fresh = await freshPostgres(postgresUrl, options.databasePrefix, startedFrom);
    const url = new URL(fresh.url);
    if (options.databaseAddress) {
      url.hostname = options.databaseAddress.host;
      url.port = String(options.databaseAddress.port);
    }
    databaseUrl = url.toString();
    drop = fresh.drop;
    database = await openDatabase({ databaseUrl, dataDir: ':memory:', timeouts: options.config });
  } else {
    startedFrom = pgliteStartingPoint(point);
    database = await openPgliteCopy(point);
  }
  const config = loadConfig(
    { ...process.env, DATABASE_URL: databaseUrl ?? '', PORT: '0' },
    {
      dataDir: ':memory:',
      jwtSecret: options.shareDatabaseWith?.config.jwtSecret ?? randomBytes(32).toString('hex'),
      // Thousands of requests per file: their log lines would bury the test output (test/operations reads them).
      requestLog: false,
      ...options.config,
    },
  );
  // A database copied from the run's demo starting point already holds the demo catalogue.
  if (!options.shareDatabaseWith && point === 'demo' && !startedFrom) await loadDemoCatalogue(database);
  if (options.prepare) await options.prepare(database);
  const app = createApp({ config, database, clock });
  const server: Server = await new Promise((resolve) => {
    const s = app.express.listen(0, '127.0.0.1', () => resolve(s));
    answerClientErrorsInJson(s);
    holdIdleConnections(s);
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const rest: TestApp['rest'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined;
    if (opts.raw !== undefined) {
      payload = opts.raw;
      headers['content-type'] ??= 'application/json';
    } else if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${baseUrl}${url}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* keep text */
    }
    if (opts.conformance !== false) {
      const observed = { method, url, status: res.status, headers: res.headers, text, body: parsed };
      assertConforms({ ...observed, contentType: res.headers.get('content-type') });
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  const testApp: TestApp = {
    baseUrl,
    app,
    database,
    config,
    clock,
    rest,
    graphql: (token, headers = {}) =>
      new GraphQLClient(`${baseUrl}/graphql`, {
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      }),
    login: async (email, password = DEMO_PASSWORD) => {
      const res = await rest('POST', '/api/v1/auth/login', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      if (!options.shareDatabaseWith || databaseUrl) await database.close();
      await drop();
    },
  };
  return testApp;
}

export { ManualClock };
