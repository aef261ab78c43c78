/**
 * For concurrency tests on PostgreSQL: how many sessions of the test's database wait for a lock, so a test can close a
 * lock cycle (or prove none forms) at a known point instead of sleeping and hoping (polled with `vi.waitUntil`).
 */
import type { Db } from '../src/lib/db.ts';

/** Sessions of `db`'s database waiting for a lock now. Asked from another connection than any waiter's. */
export async function lockWaiters(db: Db): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return row.n;
}

/** vitest's `vi.waitUntil` options for waiting on lock waiters: every 10 ms, for up to 5 s. */
export const LOCK_POLL = { timeout: 5_000, interval: 10 };
