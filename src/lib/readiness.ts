/**
 * GET /readyz: ready when the database answers and every migration in prisma/migrations is applied, within a bound.
 * GET /healthz stays a liveness check that never touches the database (a database outage must not get the process
 * restarted; it recovers by itself when the database is back).
 */
import type { Request, Response } from 'express';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './database-errors.ts';
import { listMigrations } from './migrations.ts';
import { logger } from './logger.ts';

export type Readiness = { ready: true } | { ready: false; reason: string };

export async function checkReadiness(
  prisma: PrismaClient,
  timeoutMs: number,
  expected: readonly string[],
): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: `the database did not answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const check = (async (): Promise<Readiness> => {
    try {
      const rows = await prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const applied = new Set(rows.map((r) => r.migration_name));
      const pending = expected.filter((name) => !applied.has(name));
      return pending.length
        ? { ready: false, reason: `migrations not applied: ${pending.join(', ')}` }
        : { ready: true };
    } catch (e) {
      if (isDatabaseUnavailable(e)) return { ready: false, reason: 'the database is unavailable' };
      // Typically no _prisma_migrations table yet (42P01): not migrated.
      logger.warn('readyz.failed', { message: (e as Error).message?.slice(0, 300) });
      return { ready: false, reason: 'migrations not applied' };
    }
  })();
  try {
    return await Promise.race([check, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export function readinessHandler(
  prisma: PrismaClient,
  timeoutMs: number,
): (req: Request, res: Response) => Promise<void> {
  const expected = listMigrations().map((m) => m.name);
  return async (_req, res) => {
    const readiness = await checkReadiness(prisma, timeoutMs, expected);
    res.set('Cache-Control', 'no-store');
    if (readiness.ready) res.json({ ok: true });
    else
      res
        .status(503)
        .set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
        .json({ ok: false, error: readiness.reason });
  };
}
