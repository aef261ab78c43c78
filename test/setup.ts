/**
 * Before every test file (vitest setupFiles): the app's log lines are recorded, not printed (testkit/log-recorder.ts);
 * a failing test prints its own. Spies a file leaves are undone when it ends, as its worker runs the next file.
 */
import { afterAll, beforeEach, vi } from 'vitest';
import { clearRecordedLogs, recordedLogLines, recordLogs } from '../testkit/log-recorder.ts';

recordLogs();

beforeEach((context) => {
  clearRecordedLogs();
  context.onTestFailed(() => {
    const lines = recordedLogLines();
    if (lines.length > 0) process.stderr.write(`log lines of the failed test:\n${lines.join('')}`);
  });
});

afterAll(() => {
  vi.restoreAllMocks();
});
