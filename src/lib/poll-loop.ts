/**
 * A background worker's loop: run a pass, wait `pollIntervalMs`, run the next. A failing pass (database down, a bug)
 * is logged once per run of failures and the next poll tries again, so a worker never crashes the process and never
 * holds a request. `stop()` waits for the pass in progress.
 */
import { isDatabaseUnavailable } from './database-errors.ts';
import { logger } from './logger.ts';

export interface PollLoop {
  /** Starts polling (idempotent). */
  start(): void;
  /** Stops polling and waits for the pass in progress to finish. */
  stop(): Promise<void>;
}

export interface PollLoopOptions<Summary> {
  pollIntervalMs: number;
  /** One pass; `isStopping` turns true when `stop()` is called, so a long pass can end early. */
  pass: (isStopping: () => boolean) => Promise<Summary>;
  /** Log event names: `<name>_failed` / `<name>_recovered`, and `done` (with the summary) after a pass that did work. */
  events: { failed: string; recovered: string; done: string };
  didWork: (summary: Summary) => boolean;
  /** True when the pass stopped at its bound with work left: the next pass starts at once, not after the poll. */
  more?: (summary: Summary) => boolean;
  /** Called after every pass with its summary, or with what it threw (operations hooks and tests observe it). */
  onPass?: (outcome: Summary | { error: unknown }) => void;
}

export function pollLoop<Summary extends object>(options: PollLoopOptions<Summary>): PollLoop {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<unknown> = Promise.resolve();
  let failing = false;
  let delay = options.pollIntervalMs;

  const tick = () => {
    timer = undefined;
    pass = options
      .pass(() => !running)
      .then((summary) => {
        if (failing) logger.info(options.events.recovered, {});
        failing = false;
        if (options.didWork(summary)) logger.info(options.events.done, { ...(summary as Record<string, unknown>) });
        options.onPass?.(summary);
        delay = options.more?.(summary) ? 0 : options.pollIntervalMs;
      })
      .catch((e: unknown) => {
        // Logged once per outage, not once per poll.
        if (!failing)
          logger[isDatabaseUnavailable(e) ? 'warn' : 'error'](options.events.failed, {
            message: (e as Error)?.message,
          });
        failing = true;
        delay = options.pollIntervalMs;
        options.onPass?.({ error: e });
      })
      .finally(() => {
        if (running) timer = setTimeout(tick, delay);
      });
  };

  return {
    start() {
      if (running) return;
      running = true;
      timer = setTimeout(tick, 0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await pass.catch(() => {});
    },
  };
}
