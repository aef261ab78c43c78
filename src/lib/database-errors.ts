/**
 * "The database is unavailable": one classifier for every way a lost, refused, hung or overloaded database surfaces,
 * so REST and GraphQL answer 503 with Retry-After instead of 500. Each shape below was provoked for real (see
 * test/operations/database-errors.test.ts): Prisma wraps driver errors as P1001/P2010 with
 * `meta.driverAdapterError.cause`, and passes pg's own plain errors ("Query read timeout", pool timeouts) through.
 */
import { logger } from './logger.ts';

/** Seconds a client should wait before retrying; short: the pool reconnects by itself as soon as the database is back. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is temporarily unavailable. Retry shortly.';
export const DATABASE_UNAVAILABLE_CODE = 'DATABASE_UNAVAILABLE';

/** Prisma: can't reach, timed out, server closed the connection, pool timeout, transaction expired or never started. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
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
  /^timeout exceeded when trying to connect$/, // pool acquire (connectionTimeoutMillis)
  /^Query read timeout$/, // query_timeout: the server never answered
  /is not queryable$/, // a client after a connection error, or closed
  /^Cannot use a pool after calling end on the pool$/,
  /^PGlite is closed$/,
];

/** True when `error` (or anything it wraps) says the database could not be reached or did not answer in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, kind, message, cause, originalError, meta, errors } = e as Record<string, any>;
    if (typeof code === 'string') {
      if (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || isUnavailableSqlState(code)) return true;
    }
    if (typeof kind === 'string') {
      if (ADAPTER_KINDS.has(kind)) return true;
      if (kind === 'postgres' && typeof (e as any).code === 'string' && isUnavailableSqlState((e as any).code))
        return true;
    }
    if (typeof (e as any).originalCode === 'string' && isUnavailableSqlState((e as any).originalCode)) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((re) => re.test(message))) return true;
    queue.push(cause, originalError, meta?.driverAdapterError);
    if (Array.isArray(errors)) queue.push(...errors); // AggregateError (e.g. a refused dual-stack connect)
  }
  return false;
}

/** One warning line per refused request, so an outage shows in the logs (the message only: no stack, no query). */
export function logUnavailable(surface: 'rest' | 'graphql', error: unknown): void {
  const message = error instanceof Error ? error.message.trim().split('\n').at(-1) : String(error);
  logger.warn('database.unavailable', { surface, message: message?.slice(0, 300) });
}

/** REST: status, body and headers of the 503. */
export function databaseUnavailableReply(error?: unknown): [503, { error: string }, Record<string, string>] {
  logUnavailable('rest', error);
  return [503, { error: DATABASE_UNAVAILABLE_MESSAGE }, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) }];
}
