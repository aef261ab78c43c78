import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Named subsets of the suite (vitest.config.ts reads them; `TEST_PASS=<name>` picks one). `npm test` runs every file
 * on PGlite; CI runs these again where they say.
 */

/**
 * `npm run test:postgres` (CI's second pass, with TEST_DATABASE_URL): what behaves differently on a real PostgreSQL
 * server (concurrency, locks, connections, timeouts; the race tests are skipped on PGlite, whose one connection cannot
 * race), the REST contract suite, and "what would it take?" over its three surfaces (metered as a Matrix run).
 * test/passes.test.ts fails when a file that reads TEST_DATABASE_URL is missing.
 */
export const POSTGRES_PASS = [
  'test/approvals/concurrent-writes.http.test.ts',
  'test/auth/permission-codenames.test.ts',
  'test/auth/refresh-race.test.ts',
  'test/auth/sign-in-throttle-race.test.ts',
  'test/lib/raw-query.test.ts',
  'test/notifications/devices.test.ts',
  'test/operations/config.test.ts',
  'test/operations/database-errors.test.ts',
  'test/operations/database-outage.test.ts',
  'test/operations/server-refused.test.ts',
  'test/operations/two-processes.test.ts',
  'test/operations/write-concurrency.test.ts',
  'test/operations/write-conflicts.test.ts',
  'test/rate-cards/concurrency.test.ts',
  'test/rate-cards/pricing-sees-change.test.ts',
  'test/rate-cards/two-users-race.test.ts',
  ...readdirSync(fileURLToPath(new URL('rest', import.meta.url)))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `test/rest/${name}`),
  'test/scenarios/recents.test.ts',
  'test/scenarios/repricing-postgres.test.ts',
  'test/structuring/what-would-it-take.http.test.ts',
  'test/users/invitations.test.ts',
];

/** `npm run test:quick`: the pure engines and rules, no app started; well under a minute. */
export const QUICK = [
  'test/pricing/{deal,engine,finance,market,oracle,properties,recalculate}.test.ts',
  'test/matrix/{criteria,criteria.properties,flat-classes,join,market-join}.test.ts',
  'test/structuring/{engine,fast,properties}.test.ts',
  'test/lib/{calendar-day,generations,vocabulary,wording}.test.ts',
  'test/catalogue/catalogue-file.test.ts',
  'test/rate-cards/compare.test.ts',
  'test/notifications/quiet-hours.test.ts',
];
