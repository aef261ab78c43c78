/**
 * The database: embedded PGlite by default, PostgreSQL when DATABASE_URL is set. One Prisma schema and one
 * migrations folder serve both. Migrations are applied here at start (and by `npm run db:migrate`).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.ts';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './config.ts';
import { acquireDataDirLock, restrictToOwner } from './data-dir-lock.ts';
import { preparedPglite } from './pglite-prepared.ts';
import { applyMigrations, type SqlRunner } from './migrations.ts';

/** What a query needs: the client, or the client of a transaction in progress. */
export type Db = PrismaClient | Prisma.TransactionClient;

/**
 * The driver under a database's Prisma client, for raw statements that need nothing of Prisma (rawQuery below).
 * Answers are typed as Prisma types raw results: int8 as bigint, timestamps as Date (UTC), json parsed.
 */
interface DriverSql {
  query<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /** True when the database itself runs on this thread (PGlite): nothing can overlap its statements. */
  onThisThread: boolean;
}
const driverOf = new WeakMap<object, DriverSql>();

/**
 * A raw SQL statement, answered as `$queryRawUnsafe` answers it. On a database's own client (not a transaction) it goes
 * to the driver directly: the hot path's two statements (the caller, metering) are raw SQL already, and Prisma's
 * client around them (request mapping, the adapter's result conversion, its promise wrappers) cost about as much
 * server time as the rest of a request's gateway (docs/performance.md). Inside a transaction, or on a client this
 * module did not open, it is Prisma's `$queryRawUnsafe`, so the statement stays in that transaction.
 * Same statement counting, same prepared statements, same timeouts and the same errors the outage classifier knows.
 */
export function rawQuery<T>(db: Db, sql: string, ...params: unknown[]): Promise<T[]> {
  const driver = driverOf.get(db);
  return driver ? driver.query<T>(sql, params) : db.$queryRawUnsafe<T[]>(sql, ...params);
}

/**
 * Runs `statement` and, while the database works on it, `work`; answers both results. The driver sends a
 * statement from a queued callback (pg's pool hands out an idle connection on the next tick), so the work starts a
 * tick later, once the statement is on its way. PGlite runs on this thread, so nothing can overlap there: the work
 * runs first and the statement after it, as if awaited in turn. `work` must not depend on the statement's outcome,
 * and may be thrown away: a statement that fails rejects after it. Work that throws rejects with its own error, and on
 * PostgreSQL its statement has been sent by then (a metered run whose rows then failed to build is still counted).
 */
export async function whileDatabaseWorks<T, W>(db: Db, statement: () => Promise<T>, work: () => W): Promise<[T, W]> {
  if (driverOf.get(db)?.onThisThread !== false) {
    const done = work();
    return [await statement(), done];
  }
  // Observed at once, so a failure is never an unhandled rejection while `work` runs (or if it throws).
  const outcome = statement().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  await new Promise<void>((resolve) => process.nextTick(resolve));
  const done = work();
  const settled = await outcome;
  if (!settled.ok) throw settled.error;
  return [settled.value, done];
}

/** OIDs whose default parsing differs from Prisma's raw results: int8 (bigint) and timestamp (a UTC instant). */
const INT8 = 20;
const TIMESTAMP = 1114;
const PARSERS: Record<number, (text: string) => unknown> = {
  [INT8]: (text) => BigInt(text),
  [TIMESTAMP]: (text) => new Date(`${text.replace(' ', 'T')}Z`),
};
const PG_TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text'),
} as pg.CustomTypesConfig;

export interface Database {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /** Statements sent to the database since start (for query-count tests and the benchmark). */
  queryCount(): number;
  /** Client-side milliseconds spent in the statements sent straight to the driver (rawQuery) since start (the benchmark). */
  directStatementMs(): number;
  /** The connection pool now (GET /metrics); PGlite is one connection that never queues. */
  poolState(): { total: number; idle: number; waiting: number };
  /** PGlite only: the whole data directory as a tarball (a starting point other databases open from). */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  /** Folder for PGlite's files; ':memory:' keeps everything in memory (tests). */
  dataDir: string;
  migrate?: boolean;
  /** Defaults: DEFAULT_DATABASE_TIMEOUTS (src/lib/config.ts). A whole Config fits here. */
  timeouts?: Partial<DatabaseTimeouts>;
  /** Who takes the PGlite data-directory lock, shown to a second process refused by it ("server", "seed"). */
  lockOwner?: string;
  /** PGlite: an instance the caller opened, used instead of opening one (no data directory; close() closes it). */
  pglite?: PGlite;
  /** PostgreSQL: connections in the pool (default 10; the re-pricing thread keeps 2). */
  poolSize?: number;
  /** Told each step of opening (connecting, each migration applied), so a start can say what it is doing. */
  onProgress?: (step: string) => void;
}

/**
 * pg settings that bound every wait on PostgreSQL: connecting and waiting for a pooled connection
 * (connectionTimeoutMillis), a statement the server runs too long (statement_timeout, cancelled by the server, the
 * connection stays usable), a server that never answers (query_timeout, one second later, client-side), and a
 * transaction left open (idle_in_transaction_session_timeout). Every failure reaches the caller as an error that
 * isDatabaseUnavailable() recognises (503).
 */
export function pgTimeouts(options: Partial<DatabaseTimeouts> = {}): pg.PoolConfig {
  const t = { ...DEFAULT_DATABASE_TIMEOUTS, ...definedOnly(options) };
  return {
    connectionTimeoutMillis: t.databaseConnectTimeoutMs,
    statement_timeout: t.databaseStatementTimeoutMs,
    query_timeout: t.databaseStatementTimeoutMs + 1000,
    idle_in_transaction_session_timeout: t.databaseIdleInTransactionTimeoutMs,
    // Dead peers (a database host that vanished without a FIN) are noticed by TCP, not only by the next query.
    keepAlive: true,
  };
}

/**
 * The bound on a whole interactive transaction on PostgreSQL, from asking for its connection to its commit: the
 * bound a single statement already has (statement_timeout plus the client's second, docs/operations.md). Prisma's own
 * transaction `timeout` only stops the next statement: one already sent to a silent server, and the ROLLBACK queued
 * behind it on the same connection, each waited out their own read timeout.
 */
function transactionBoundMs(options: Partial<DatabaseTimeouts> = {}): number {
  return { ...DEFAULT_DATABASE_TIMEOUTS, ...definedOnly(options) }.databaseStatementTimeoutMs + 1000;
}

/** A transaction that outlived transactionBoundMs: what it wrote is rolled back; answered like an outage (503). */
class TransactionDeadlineError extends Error {
  override name = 'TransactionDeadlineError';
  readonly code = 'TRANSACTION_DEADLINE';
  constructor(boundMs: number) {
    super(`The transaction did not finish within ${boundMs} ms and was abandoned.`);
  }
}

type AdapterFactory = PrismaPg;
type Adapter = Awaited<ReturnType<AdapterFactory['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;

/**
 * Every transaction the adapter starts ends within `boundMs` of its start. Once the time is up, what it was waiting
 * for (a statement, the COMMIT) rejects with TransactionDeadlineError, a later statement or COMMIT is refused without
 * being sent, so nothing it wrote is committed, and the ROLLBACK and the connection's release are left to finish in
 * the background (pg's own read timeout ends them on a silent server). A COMMIT cut off in flight may still have
 * been applied, as with any outage (docs/operations.md).
 */
function withTransactionDeadline(factory: AdapterFactory, boundMs: number): AdapterFactory {
  const bound = (tx: Transaction, started: number): Transaction => {
    let expired = false;
    let background: Promise<unknown> = Promise.resolve();
    const deadline = <T>(work: () => Promise<T>): Promise<T> => {
      const left = started + boundMs - performance.now();
      if (expired || left <= 0) {
        expired = true;
        return Promise.reject(new TransactionDeadlineError(boundMs));
      }
      const running = work();
      background = running.catch(() => {});
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        running,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            expired = true;
            reject(new TransactionDeadlineError(boundMs));
          }, left);
        }),
      ]).finally(() => clearTimeout(timer));
    };
    /** After the deadline: run `end` once what was in flight has settled, without waiting for it. */
    const later = (end: () => Promise<unknown>): Promise<void> => {
      background = background.then(end).catch(() => {});
      return Promise.resolve();
    };
    const isRollback = (query: { sql: string }) => /^\s*ROLLBACK\b/i.test(query.sql);
    const endInBackground = () =>
      tx.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] }).finally(() => tx.rollback());
    return Object.assign(Object.create(tx) as Transaction, {
      queryRaw: (query: Parameters<Transaction['queryRaw']>[0]) => deadline(() => tx.queryRaw(query)),
      executeRaw: (query: Parameters<Transaction['executeRaw']>[0]) =>
        expired && isRollback(query) ? later(() => tx.executeRaw(query)) : deadline(() => tx.executeRaw(query)),
      // Past the deadline the connection goes back to the pool only after a ROLLBACK (a refused COMMIT sends none).
      commit: () => (expired ? later(endInBackground) : tx.commit()),
      rollback: () => (expired ? later(endInBackground) : tx.rollback()),
    });
  };
  return Object.assign(Object.create(factory) as AdapterFactory, {
    connect: async () => {
      const adapter = await factory.connect();
      return Object.assign(Object.create(adapter) as Adapter, {
        startTransaction: async (isolation: Parameters<Adapter['startTransaction']>[0]) => {
          const started = performance.now();
          return bound(await adapter.startTransaction(isolation), started);
        },
      });
    },
  });
}

function definedOnly(options: Partial<DatabaseTimeouts>): Partial<DatabaseTimeouts> {
  return Object.fromEntries(
    Object.entries(options).filter(([k, v]) => v !== undefined && k in DEFAULT_DATABASE_TIMEOUTS),
  );
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let queries = 0;
  let directMs = 0;
  /** Registers `prisma`'s driver for rawQuery: each statement counted and timed like the rest. */
  const sendsDirect = (
    prisma: PrismaClient,
    onThisThread: boolean,
    run: (sql: string, params: unknown[]) => Promise<unknown[]>,
  ) => {
    driverOf.set(prisma, {
      onThisThread,
      query: async <T>(sql: string, params: readonly unknown[]) => {
        queries += 1;
        const start = performance.now();
        try {
          return (await run(sql, params as unknown[])) as T[];
        } finally {
          directMs += performance.now() - start;
        }
      },
    });
  };
  const timeouts = pgTimeouts(options.timeouts);
  if (options.databaseUrl) {
    if (options.migrate !== false) {
      options.onProgress?.('connecting to PostgreSQL and checking migrations');
      const runner = pgRunner(options.databaseUrl, timeouts);
      try {
        await applyMigrations(runner, undefined, (name) => options.onProgress?.(`applying migration ${name}`));
      } finally {
        await runner.close();
      }
    }
    // Our own pool (not one the adapter makes) so its state can be read; the adapter ends it on disconnect.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, ...timeouts });
    const adapter = withTransactionDeadline(
      new PrismaPg(pool, {
        statementNameGenerator: preparedStatementNames() as (query: { sql: string }) => string,
        disposeExternalPool: true,
      }),
      transactionBoundMs(options.timeouts),
    );
    const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
    prisma.$on('query' as never, () => {
      queries += 1;
    });
    await prisma.$connect();
    // Named per text like Prisma's (a different prefix: the connections are shared, pg keeps one name per text).
    const names = preparedStatementNames(100, 'direct');
    sendsDirect(
      prisma,
      false,
      async (sql, values) => (await pool.query({ text: sql, values, types: PG_TYPES, name: names({ sql }) })).rows,
    );
    return {
      prisma,
      kind: 'postgres',
      queryCount: () => queries,
      directStatementMs: () => directMs,
      poolState: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => prisma.$disconnect(),
    };
  }
  let pglite: PGlite;
  let lock: { release(): void } | undefined;
  if (options.pglite) pglite = options.pglite;
  else if (options.dataDir === ':memory:') pglite = new PGlite();
  else {
    // One process per data directory (src/lib/data-dir-lock.ts), and only its owner may read it.
    lock = acquireDataDirLock(options.dataDir, options.lockOwner ?? 'server');
    try {
      // Files PGlite creates from now on are owner-only too (a process-wide setting; this process owns the directory).
      try {
        process.umask(0o077);
      } catch {
        /* worker threads cannot change it; the 0700 directory still guards */
      }
      restrictToOwner(options.dataDir);
      const dir = path.join(options.dataDir, 'pglite');
      options.onProgress?.(`opening embedded PostgreSQL (PGlite) in ${options.dataDir}`);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      pglite = new PGlite(dir);
    } catch (e) {
      lock.release();
      throw e;
    }
  }
  try {
    await openPglite(pglite, options);
  } catch (e) {
    await pglite.close().catch(() => {});
    lock?.release();
    throw e;
  }
  const prepared = preparedPglite(pglite);
  const prisma = new PrismaClient({
    // Prisma's PGlite adapter over prepared statements (pglite-prepared.ts): one WASM call per warm statement, not six.
    adapter: new PrismaPGlite(prepared as PGlite),
    log: [{ emit: 'event', level: 'query' }],
  });
  prisma.$on('query' as never, () => {
    queries += 1;
  });
  sendsDirect(prisma, true, async (sql, params) => (await prepared.query(sql, params, { parsers: PARSERS })).rows);
  return {
    prisma,
    kind: 'pglite',
    queryCount: () => queries,
    directStatementMs: () => directMs,
    poolState: () => ({ total: 1, idle: 1, waiting: 0 }),
    dumpDataDir: () => pglite.dumpDataDir('none'),
    close: async () => {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function openPglite(pglite: PGlite, options: DatabaseOptions): Promise<void> {
  await pglite.waitReady;
  // Set for parity with PostgreSQL; PGlite (single-threaded WebAssembly, no timer signals) accepts but does not
  // enforce it today (docs/operations.md).
  const t = { ...DEFAULT_DATABASE_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) };
  await pglite.exec(`SET statement_timeout = ${Math.trunc(t.databaseStatementTimeoutMs)}`);
  if (options.migrate !== false) {
    const runner: SqlRunner = {
      exec: async (sql) => {
        await pglite.exec(sql);
      },
      query: async (sql, params) => (await pglite.query(sql, params)).rows as Record<string, unknown>[],
      transaction: async (fn) =>
        pglite.transaction(async (tx) =>
          fn({
            exec: async (sql) => {
              await tx.exec(sql);
            },
            query: async (sql, params) => (await tx.query(sql, params)).rows as Record<string, unknown>[],
          }),
        ),
    };
    await applyMigrations(runner, undefined, (name) => options.onProgress?.(`applying migration ${name}`));
  }
}

/**
 * Names for PostgreSQL prepared statements (adapter-pg's `statementNameGenerator`; `undefined` leaves a statement
 * unnamed, pg's default). A named statement is parsed and planned once per connection; later runs send only
 * Bind/Execute, and PostgreSQL's plan cache may reuse a generic plan. The caller statement of every request costs more
 * to plan than to execute, so naming saves PostgreSQL most of that work (figures in docs/performance.md). Results are
 * the same rows, typed the same way.
 *
 * A text is named on its second use, so one-off statements stay unnamed, and a pool names at most `max` texts
 * (each connection keeps what it prepared until it closes). Names map 1:1 to texts, as pg requires.
 * Deployment notes: a PgBouncer in transaction mode needs max_prepared_statements (1.21+); and a migration that changes
 * the result columns of a prepared text (`SELECT * FROM record_run(...)`'s row type) fails that text on connections
 * opened before it ("cached plan must not change result type") until they are replaced.
 */
function preparedStatementNames(max = 100, prefix = 'prisma'): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  let seenOnce = new Set<string>();
  return ({ sql }) => {
    const name = names.get(sql);
    if (name !== undefined || names.size >= max) return name;
    if (!seenOnce.has(sql)) {
      if (seenOnce.size >= 10 * max) seenOnce = new Set();
      seenOnce.add(sql);
      return undefined;
    }
    seenOnce.delete(sql);
    const created = `${prefix}_${names.size}`;
    names.set(sql, created);
    return created;
  };
}

function pgRunner(connectionString: string, timeouts: pg.ClientConfig): SqlRunner & { close(): Promise<void> } {
  // Migrations may legitimately run longer than a request's statement bound; only connecting is bounded here.
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: timeouts.connectionTimeoutMillis,
    keepAlive: true,
  });
  client.on('error', () => {}); // a dropped connection fails the pending query; without a listener it would crash the process
  const ready = client.connect();
  const run: SqlRunner = {
    exec: async (sql) => {
      await ready;
      await client.query(sql);
    },
    query: async (sql, params) => {
      await ready;
      return (await client.query(sql, params as unknown[])).rows;
    },
    transaction: async (fn) => {
      await ready;
      await client.query('BEGIN');
      try {
        const r = await fn(run);
        await client.query('COMMIT');
        return r;
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
    },
  };
  return {
    ...run,
    close: async () => {
      await ready.catch(() => {});
      await client.end().catch(() => {});
    },
  };
}
