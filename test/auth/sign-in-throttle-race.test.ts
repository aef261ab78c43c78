/**
 * Sign-in throttle under concurrency: the check and the count are one statement, so parallel attempts over two app
 * instances on one database (two "processes"; real races on PostgreSQL) never get more password checks than the
 * allowance before the lockout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_POLICY } from '../../src/modules/auth/sign-in-throttle.ts';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../../testkit/app.ts';

/** PostgreSQL only (CI's PostgreSQL pass): PGlite serves both instances over one connection, where no race happens. */
const PG = Boolean(process.env.TEST_DATABASE_URL);

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  if (!PG) return;
  a = await startTestApp();
  b = await startTestApp({ shareDatabaseWith: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const attempt = (app: TestApp, email: string, password: string) =>
  app.rest('POST', '/api/v1/auth/login', { body: { email, password } });

describe.skipIf(!PG)(
  'Parallel failed sign-ins over two processes: exactly the allowance gets through before the lockout',
  () => {
    it('40 concurrent wrong passwords on one account: 5 answer 401, 35 answer 429', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => attempt(i % 2 ? a : b, 'broker.user@demo.test', `wrong-${i}`)),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_POLICY.accountAllowance);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40 - SIGN_IN_POLICY.accountAllowance);
      // Locked for both processes, the right password included.
      expect((await attempt(a, 'broker.user@demo.test', DEMO_PASSWORD)).status).toBe(429);
      expect((await attempt(b, 'broker.user@demo.test', DEMO_PASSWORD)).status).toBe(429);
    });

    it('right and wrong passwords racing on a fresh account: no more than 5 wrong ones are checked', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          attempt(i % 2 ? a : b, 'broker.admin@demo.test', i === 10 ? DEMO_PASSWORD : `wrong-${i}`),
        ),
      );
      expect(answers.filter((r) => r.status === 401).length).toBeLessThanOrEqual(SIGN_IN_POLICY.accountAllowance);
      expect(answers.every((r) => [200, 401, 429].includes(r.status))).toBe(true);
    });
  },
);
