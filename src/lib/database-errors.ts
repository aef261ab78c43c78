/**
 * The failures a caller should simply retry, each answered with Retry-After instead of 500 (REST, GraphQL, MCP):
 * - "unavailable" (503): every way a lost, refused or hung database surfaces, a transaction that outlived its bound
 *   (src/lib/db.ts) included;
 * - "busy" (503): a healthy database whose pool had no free connection within DATABASE_CONNECT_TIMEOUT_MS: back-pressure,
 *   nothing was sent;
 * - "too many writes" (429): the caller's organisation already has its bound of writes running and queued
 *   (src/lib/write-slots.ts): nothing was run;
 * - "write conflict": PostgreSQL ended the transaction to break a deadlock (40P01) or a serialisation failure (40001),
 *   so nothing it wrote was kept. Lock order is designed so none should happen (docs/operations.md); this is the net.
 * Each shape below was provoked for real (see test/operations/database-errors.test.ts): Prisma wraps driver errors as
 * P1001/P2010/P2034 with `meta.driverAdapterError.cause`, and passes pg's own plain errors ("Query read timeout", pool
 * timeouts) through.
 */
import { logger } from './logger.ts';
import { TOO_MANY_WRITES_CODE, TOO_MANY_WRITES_MESSAGE, TOO_MANY_WRITES_RETRY_AFTER_SECONDS } from './write-slots.ts';

/** Seconds a client should wait before retrying; short: the pool reconnects by itself as soon as the database is back. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
const DATABASE_UNAVAILABLE_MESSAGE = 'The database is temporarily unavailable. Retry shortly.';
export const DATABASE_UNAVAILABLE_CODE = 'DATABASE_UNAVAILABLE';
/** A pool wait clears as soon as a request ends: retry almost at once. */
const DATABASE_BUSY_RETRY_AFTER_SECONDS = 1;
const DATABASE_BUSY_MESSAGE =
  'The service is busy: no database connection came free in time, so this request was not started. Retry shortly.';
export const DATABASE_BUSY_CODE = 'DATABASE_BUSY';
/** A conflict clears as soon as the other transaction commits: retry almost at once. */
export const WRITE_CONFLICT_RETRY_AFTER_SECONDS = 1;
export const WRITE_CONFLICT_MESSAGE =
  'This request collided with another change to the same records and was not completed. Retry it.';
export const WRITE_CONFLICT_CODE = 'WRITE_CONFLICT';

/** Prisma: can't reach, timed out, server closed the connection, transaction expired or never started. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2028']);
/** Our own: a transaction that outlived its bound (src/lib/db.ts). */
const TRANSACTION_DEADLINE_CODE = 'TRANSACTION_DEADLINE';
/** @prisma/driver-adapter-utils error kinds. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Node socket errors. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
/**
 * SQLSTATEs: class 08 connection exception, class 53 insufficient resources (too many connections, out of memory,
 * disk full), 57014 query cancelled (statement_timeout), 57P01-57P05 shutdown / cannot connect now / idle session
 * timeout, 25P03 idle-in-transaction timeout.
 */
function isUnavailableSqlState(code: string): boolean {
  return /^(08|53)/.test(code) || /^57P0[1-5]$/.test(code) || code === '57014' || code === '25P03';
}
/** pg and pg-pool throw plain Errors without codes for these; PGlite says so once closed. */
const DRIVER_MESSAGES = [
  /^Connection terminated/, // unexpectedly / due to connection timeout
  /^Query read timeout$/, // query_timeout: the server never answered
  /is not queryable$/, // a client after a connection error, or closed
  /^Cannot use a pool after calling end on the pool$/,
  /^PGlite is closed$/,
];

/** True when `error` or anything it wraps (cause, originalError, Prisma's driver error, an AggregateError) matches. */
function wrapsMatching(error: unknown, matches: (e: Record<string, any>) => boolean): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const fields = e as Record<string, any>;
    if (matches(fields)) return true;
    queue.push(fields.cause, fields.originalError, fields.meta?.driverAdapterError);
    if (Array.isArray(fields.errors)) queue.push(...fields.errors); // AggregateError (e.g. a refused dual-stack connect)
  }
  return false;
}

/** True when `error` (or anything it wraps) says the database could not be reached or did not answer in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return wrapsMatching(error, ({ code, kind, message, originalCode }) => {
    if (
      typeof code === 'string' &&
      (PRISMA_CODES.has(code) ||
        SOCKET_CODES.has(code) ||
        isUnavailableSqlState(code) ||
        code === TRANSACTION_DEADLINE_CODE)
    )
      return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof originalCode === 'string' && isUnavailableSqlState(originalCode)) return true;
    return typeof message === 'string' && DRIVER_MESSAGES.some((re) => re.test(message));
  });
}

/**
 * True when `error` says every pooled connection stayed busy for DATABASE_CONNECT_TIMEOUT_MS: pg-pool's queue timeout
 * (its only use of this sentence; a connection that cannot be opened fails otherwise), Prisma's P2024, or Prisma's
 * transaction start timeout (its `maxWait`, shorter than the pool's wait by default).
 */
function isDatabaseBusy(error: unknown): boolean {
  return wrapsMatching(
    error,
    ({ code, message }) =>
      code === 'P2024' ||
      (typeof message === 'string' &&
        (/^timeout exceeded when trying to connect$/.test(message) ||
          // Prisma's transaction `maxWait` ran out while it waited for the pool (P2028, this sentence only).
          /Unable to start a transaction in the given time\.$/.test(message))),
  );
}

/** True when `error` is the write bound's refusal (src/lib/write-slots.ts). */
function isTooManyWrites(error: unknown): boolean {
  return wrapsMatching(error, ({ code }) => code === TOO_MANY_WRITES_CODE);
}

/** SQLSTATE 40P01 deadlock_detected, 40001 serialization_failure. */
const CONFLICT_SQLSTATES = new Set(['40P01', '40001']);

/**
 * True when PostgreSQL ended `error`'s transaction to break a deadlock or a serialisation failure: Prisma's P2034,
 * the adapter's `TransactionWriteConflict`, or the SQLSTATE itself (pg's error on the driver path, PGlite's).
 */
export function isWriteConflict(error: unknown): boolean {
  return wrapsMatching(
    error,
    ({ code, kind, originalCode }) =>
      code === 'P2034' ||
      kind === 'TransactionWriteConflict' ||
      (typeof code === 'string' && CONFLICT_SQLSTATES.has(code)) ||
      (typeof originalCode === 'string' && CONFLICT_SQLSTATES.has(originalCode)),
  );
}

/** What a caller is told about a failure worth retrying, and the log line it leaves. */
export interface RetryableDatabaseFailure {
  message: string;
  /** GraphQL's `extensions.code`. */
  code: string;
  retryAfterSeconds: number;
  /** HTTP status: 503, or 429 for the caller's own excess. */
  status: 503 | 429;
  event: 'database.unavailable' | 'database.busy' | 'database.write_conflict' | 'writes.refused';
}

const UNAVAILABLE: RetryableDatabaseFailure = {
  message: DATABASE_UNAVAILABLE_MESSAGE,
  code: DATABASE_UNAVAILABLE_CODE,
  retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  status: 503,
  event: 'database.unavailable',
};
const BUSY: RetryableDatabaseFailure = {
  message: DATABASE_BUSY_MESSAGE,
  code: DATABASE_BUSY_CODE,
  retryAfterSeconds: DATABASE_BUSY_RETRY_AFTER_SECONDS,
  status: 503,
  event: 'database.busy',
};
const TOO_MANY_WRITES: RetryableDatabaseFailure = {
  message: TOO_MANY_WRITES_MESSAGE,
  code: TOO_MANY_WRITES_CODE,
  retryAfterSeconds: TOO_MANY_WRITES_RETRY_AFTER_SECONDS,
  status: 429,
  event: 'writes.refused',
};
const WRITE_CONFLICT: RetryableDatabaseFailure = {
  message: WRITE_CONFLICT_MESSAGE,
  code: WRITE_CONFLICT_CODE,
  retryAfterSeconds: WRITE_CONFLICT_RETRY_AFTER_SECONDS,
  status: 503,
  event: 'database.write_conflict',
};

/** The retryable failure among `errors` (the first that is one), or undefined: anything else stays a bug (500). */
export function retryableDatabaseFailure(...errors: unknown[]): RetryableDatabaseFailure | undefined {
  for (const error of errors) {
    if (isTooManyWrites(error)) return TOO_MANY_WRITES;
    if (isDatabaseBusy(error)) return BUSY;
    if (isDatabaseUnavailable(error)) return UNAVAILABLE;
    if (isWriteConflict(error)) return WRITE_CONFLICT;
  }
  return undefined;
}

/** One warning line per refused request, so an outage or a conflict shows in the logs (the message only). */
export function logRetryable(surface: 'rest' | 'graphql' | 'mcp', failure: RetryableDatabaseFailure, error: unknown) {
  const message = error instanceof Error ? error.message.trim().split('\n').at(-1) : String(error);
  logger.warn(failure.event, { surface, message: message?.slice(0, 300) });
}

/**
 * The HTTP routes outside GraphQL (REST, billing's, MCP's): status, body and headers of the 503 (or 429) when one of
 * `errors` is worth retrying, logged once; undefined otherwise.
 */
export function retryableReply(
  errors: readonly unknown[],
  surface: 'rest' | 'mcp' = 'rest',
): [503 | 429, { error: string }, Record<string, string>] | undefined {
  for (const error of errors) {
    const failure = retryableDatabaseFailure(error);
    if (!failure) continue;
    logRetryable(surface, failure, error);
    return [failure.status, { error: failure.message }, { 'Retry-After': String(failure.retryAfterSeconds) }];
  }
  return undefined;
}
