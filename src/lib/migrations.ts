/**
 * Applies prisma/migrations in Prisma's own layout and bookkeeping (`_prisma_migrations`, sha256 checksums), so
 * `prisma migrate deploy` agrees with what ran here. Each migration runs in its own transaction; an advisory lock
 * keeps several starting processes from applying the same one twice.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  transaction<T>(fn: (tx: Pick<SqlRunner, 'exec' | 'query'>) => Promise<T>): Promise<T>;
}

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../prisma/migrations');
const LOCK_ID = 72707369; // Prisma's own advisory lock id

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string; checksum: string }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export async function applyMigrations(
  db: SqlRunner,
  dir = MIGRATIONS_DIR,
  onApply?: (name: string) => void,
): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
  await db.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
  const applied: string[] = [];
  try {
    const done = new Map(
      (
        await db.query(
          'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
        )
      ).map((r) => [String(r.migration_name), String(r.checksum)]),
    );
    for (const m of listMigrations(dir)) {
      const previous = done.get(m.name);
      if (previous !== undefined) {
        if (previous !== m.checksum) throw new Error(`migration ${m.name} was edited after it was applied`);
        continue;
      }
      onApply?.(m.name);
      await db.transaction(async (tx) => {
        await tx.exec(m.sql);
        await tx.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
      });
      applied.push(m.name);
    }
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]);
  }
  return applied;
}
