/**
 * Structured JSON logs (pino), one line per event on stderr: `time`, `level`, `event`, the event's fields, and the
 * `request_id` of the request being served (from the request scope below), so an error line leads to its request.
 * Never pass tokens, secrets or passwords; the redaction below is a safety net, not a licence.
 * LOG_LEVEL: `debug`, `info` (default), `warn`, `error`; `silent` keeps only errors.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
const requested = process.env.LOG_LEVEL === 'silent' ? 'error' : process.env.LOG_LEVEL;
const level = (LEVELS as readonly string[]).includes(requested ?? '') ? (requested as string) : 'info';

const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `fn` with `requestId` attached to every log line written while it (and what it awaits) runs. */
export function inRequestScope<T>(requestId: string, fn: () => T): T {
  return requestScope.run({ requestId }, fn);
}

/** Where log lines go: anything with a synchronous `write(line)`. */
export interface LogDestination {
  write(line: string): unknown;
}
let destination: LogDestination = process.stderr;

/** Sends every later log line to `next` (the test suite records them there) instead of stderr; null: stderr again. */
export function setLogDestination(next: LogDestination | null): void {
  destination = next ?? process.stderr;
}

/** Writes a line another thread logged (the re-pricing thread, src/repricing-thread.ts) where this one's lines go. */
export function writeLogLine(line: string): void {
  destination.write(line);
}

/** Field names whose values are secrets wherever they appear in a logged object. */
const SECRET_FIELDS = ['authorization', 'password', 'token', 'access', 'refresh', 'secret', 'cookie'];

export const baseLogger = pino(
  {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // A logger already bound to a request (pino-http's) carries request_id itself: not written twice.
    mixin: (_merge, _level, log) => {
      const requestId = requestScope.getStore()?.requestId;
      return requestId && !('request_id' in log.bindings()) ? { request_id: requestId } : {};
    },
    redact: {
      paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`), 'req.headers.authorization'],
      censor: '[redacted]',
    },
  },
  // process.stderr (synchronous for files, TTYs and, on Linux, pipes): a crash loses no line before it.
  { write: (line: string) => destination.write(line) },
);

type Fields = Record<string, unknown>;
export const logger = {
  debug: (event: string, fields?: Fields) => baseLogger.debug({ event, ...fields }),
  info: (event: string, fields?: Fields) => baseLogger.info({ event, ...fields }),
  warn: (event: string, fields?: Fields) => baseLogger.warn({ event, ...fields }),
  error: (event: string, fields?: Fields) => baseLogger.error({ event, ...fields }),
};
