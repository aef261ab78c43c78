/** reliability.md RT1: concurrent refreshes of one token across two app processes on one database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

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

describe.skipIf(!PG)(
  'spent within the grace window: concurrent refreshes across processes return the same successor',
  () => {
    it('50 concurrent refreshes over two app instances: all 200, one successor, no 5xx', async () => {
      const pair = await a.login('broker.admin@demo.test');
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? a : b).rest('POST', '/api/v1/auth/refresh', { body: { refresh: pair.refresh } }),
        ),
      );
      expect(answers.filter((x) => x.status !== 200).map((x) => [x.status, x.body])).toEqual([]);
      expect(new Set(answers.map((x) => x.body.refresh)).size).toBe(1);
      const successors = await a.database.prisma.refreshToken.count({
        where: { parent_id: pair.refresh.slice(3, 35) },
      });
      expect(successors).toBe(1);
    });

    it('a refresh racing a logout never leaves a usable token', async () => {
      for (let round = 0; round < 5; round += 1) {
        const pair = await a.login('broker.user@demo.test');
        const [refreshed] = await Promise.all([
          b.rest('POST', '/api/v1/auth/refresh', { body: { refresh: pair.refresh } }),
          a.rest('POST', '/api/v1/auth/logout', { body: { refresh: pair.refresh } }),
        ]);
        if (refreshed.status === 200) {
          expect(
            (await a.rest('POST', '/api/v1/auth/refresh', { body: { refresh: refreshed.body.refresh } })).status,
          ).toBe(401);
          expect((await a.rest('GET', '/api/v1/api-tokens', { token: refreshed.body.access })).status).toBe(401);
        } else {
          expect(refreshed.status).toBe(401);
        }
      }
    });
  },
);
