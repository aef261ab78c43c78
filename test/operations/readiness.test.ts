/** GET /readyz: the database answers and every migration in prisma/migrations is applied. GET /healthz: liveness only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { listMigrations } from '../../src/lib/migrations.ts';
import { checkReadiness } from '../../src/lib/readiness.ts';
import { openPgliteCopy } from '../../testkit/databases.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: 'none' });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /healthz is liveness: it never touches the database', () => {
  it('answers 200 without a single statement', async () => {
    const before = t.database.queryCount();
    for (let i = 0; i < 3; i += 1) expect((await t.rest('GET', '/healthz')).status).toBe(200);
    expect(t.database.queryCount()).toBe(before);
  });
});

describe('GET /readyz: ready when the database answers and every migration is applied', () => {
  it('200 on a migrated database', async () => {
    const res = await t.rest('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('503 naming the migration when one is not applied, 200 again once it is', async () => {
    const last = listMigrations().at(-1)!.name;
    const [row] = await t.database.prisma.$queryRawUnsafe<{ id: string }[]>(
      'SELECT id FROM "_prisma_migrations" WHERE migration_name = $1',
      last,
    );
    await t.database.prisma.$executeRawUnsafe(
      'UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = $1',
      row.id,
    );
    const res = await t.rest('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.body).toEqual({ ok: false, error: `migrations not applied: ${last}` });
    await t.database.prisma.$executeRawUnsafe(
      'UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE id = $1',
      row.id,
    );
    expect((await t.rest('GET', '/readyz')).status).toBe(200);
  });

  // The two databases below are copies of the run's starting points (testkit/databases.ts): making a PGlite cluster
  // costs seconds. A database never migrated has no migrations table.
  it('not ready on a database never migrated', async () => {
    const db = await openPgliteCopy('empty');
    expect(
      await checkReadiness(
        db.prisma,
        2000,
        listMigrations().map((m) => m.name),
      ),
    ).toEqual({ ready: false, reason: 'migrations not applied' });
    await db.close();
  });

  it('not ready when the database is gone', async () => {
    const db = await openPgliteCopy('none', { migrate: false });
    await db.close();
    expect(await checkReadiness(db.prisma, 2000, [])).toEqual({ ready: false, reason: 'the database is unavailable' });
  });
});
