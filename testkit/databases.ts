/**
 * PGlite databases copied from the run's starting points (testkit/starting-points.ts), for startTestApp and for the
 * tests that open one by themselves: a test whose subject is not making a cluster or migrating it does not pay seconds
 * for either. Outside a test run (the benchmark, no starting points) a fresh cluster with PGlite's defaults.
 */
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database, type DatabaseOptions } from '../src/lib/db.ts';
import { leasePglite } from './pglite-reuse.ts';
import { pgliteStartingPoint, type PgliteStartingPoint } from './starting-points.ts';

/**
 * PostgreSQL's shared_buffers for a copy: a test's database is a few megabytes, and PostgreSQL clears the whole pool
 * on every open, so a small one opens in about half the time.
 */
const COPY_SHARED_BUFFERS = '16MB';

/**
 * An in-memory PGlite Database (src/lib/db.ts) at a starting point (`empty`: nothing migrated, and not migrated on
 * open; `none`: migrated; `demo`: and seeded). `none` and `demo` are this worker's instance of the point, reset for
 * this file, when an earlier file closed one (testkit/pglite-reuse.ts); otherwise a fresh copy.
 */
export async function openPgliteCopy(
  point: PgliteStartingPoint,
  options: Omit<DatabaseOptions, 'databaseUrl' | 'dataDir' | 'pglite'> = {},
): Promise<Database> {
  const common = { ...options, databaseUrl: null, dataDir: ':memory:' };
  if (point === 'empty') return openDatabase({ ...common, migrate: false, pglite: await pgliteCopy(point) });
  // Outside a test run: a fresh cluster, migrated on open.
  if (!pgliteStartingPoint(point)) return openDatabase(common);
  return openDatabase({ ...common, pglite: await leasePglite(point, () => pgliteCopy(point)) });
}

/**
 * A bare PGlite (no Prisma) copied from a starting point; `empty`: a cluster with nothing migrated (made afresh outside
 * a test run; the other points exist only in one).
 */
export async function pgliteCopy(point: PgliteStartingPoint): Promise<PGlite> {
  const dump = pgliteStartingPoint(point);
  if (!dump && point !== 'empty') throw new Error(`pgliteCopy: no starting point ${point} outside a test run`);
  const pglite = dump
    ? new PGlite({
        loadDataDir: dump,
        startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${COPY_SHARED_BUFFERS}`],
      })
    : new PGlite();
  await pglite.waitReady;
  return pglite;
}
