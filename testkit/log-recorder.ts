/**
 * The test suite's log: every line the app logs in a test process (src/lib/logger.ts) is recorded here instead of
 * printed, so the error and warning lines tests provoke on purpose do not bury the report (test/setup.ts prints a
 * test's lines only when it fails). A test reads what was logged with loggedEvents().
 */
import { setLogDestination } from '../src/lib/logger.ts';

const lines: string[] = [];

/** From now on, log lines are recorded instead of written to stderr. */
export function recordLogs(): void {
  setLogDestination({ write: (line: string) => lines.push(line) });
}

/** Forgets the lines recorded so far (test/setup.ts: before each test). */
export function clearRecordedLogs(): void {
  lines.length = 0;
}

/** The raw lines recorded since the last clear, as written. */
export function recordedLogLines(): readonly string[] {
  return lines;
}

/** The recorded lines since the last clear, parsed; `event` keeps only that event's. */
export function loggedEvents(event?: string): Record<string, any>[] {
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, any>);
  return event === undefined ? parsed : parsed.filter((l) => l.event === event);
}
