/**
 * For concurrency tests on PostgreSQL: how many sessions of the test's database wait for a lock, so a test can close a
 * lock cycle (or prove none forms) at a known point instead of sleeping and hoping.
 */
import type { Db } from '../src/lib/db.ts';

/** Sessions of `db`'s database waiting for a lock now. Asked from another connection than any waiter's. */
export async function lockWaiters(db: Db): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ n: number }[]>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
  );
  return row.n;
}

/** Polls every 10 ms until `done()` holds; false if it still does not after `ms` (the caller's assertions say why). */
export async function until(done: () => boolean | Promise<boolean>, ms = 5_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return done();
}
