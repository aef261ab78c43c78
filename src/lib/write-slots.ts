/**
 * The bound on writes in flight per organisation (docs/operations.md, "Write concurrency"). Every mutation, whichever
 * surface sent it (GraphQL, REST, MCP), takes a slot of its caller's organisation (a caller without one: of its user)
 * for as long as it runs. `limit` run at once; up to QUEUED_PER_RUNNING times as many wait their turn, in order; beyond
 * that the write is refused at once with TooManyWritesError (429 with Retry-After), having touched nothing. So one
 * tenant's burst holds at most `limit` of the pool's connections and the others' requests still find one.
 */

/** Waiting writes per running one: a short burst queues, a flood is refused instead of piling up. */
export const QUEUED_PER_RUNNING = 4;
/** Seconds a refused writer should wait: a slot frees as soon as one of the running writes ends. */
export const TOO_MANY_WRITES_RETRY_AFTER_SECONDS = 1;
export const TOO_MANY_WRITES_CODE = 'TOO_MANY_WRITES';
export const TOO_MANY_WRITES_MESSAGE =
  'Too many changes from your organisation are in progress at once; this one was not started. Retry shortly.';

/** A write refused by the bound: nothing was run. Answered 429 with Retry-After (src/lib/database-errors.ts). */
class TooManyWritesError extends Error {
  override name = 'TooManyWritesError';
  readonly code = TOO_MANY_WRITES_CODE;
  constructor() {
    super(TOO_MANY_WRITES_MESSAGE);
  }
}

interface Lane {
  running: number;
  waiting: (() => void)[];
}

export class WriteSlots {
  readonly #lanes = new Map<string, Lane>();
  constructor(readonly limit: number) {}

  /** Runs `write` in a slot of `key`: at once, after the writes ahead of it, or not at all (TooManyWritesError). */
  async run<T>(key: string, write: () => T | Promise<T>): Promise<T> {
    let lane = this.#lanes.get(key);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      this.#lanes.set(key, lane);
    }
    if (lane.running >= this.limit) {
      if (lane.waiting.length >= this.limit * QUEUED_PER_RUNNING) throw new TooManyWritesError();
      // The slot is handed over by the write that ends (running stays counted), so no newcomer can take it first.
      await new Promise<void>((resolve) => lane.waiting.push(resolve));
    } else lane.running += 1;
    try {
      return await write();
    } finally {
      const next = lane.waiting.shift();
      if (next) next();
      else {
        lane.running -= 1;
        if (lane.running === 0) this.#lanes.delete(key);
      }
    }
  }

  /** Writes running now for `key` (tests, metrics). */
  running(key: string): number {
    return this.#lanes.get(key)?.running ?? 0;
  }
}
