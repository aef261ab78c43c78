/**
 * The caller statement runs on every authenticated request, as a prepared statement (PostgreSQL and PGlite), so
 * PostgreSQL may plan it once for any parameters (a generic plan). That plan must still reach the user, the session
 * and the API token through their indexes: a text whose filter the planner cannot use as an index condition reads
 * every user on every request (one text once served both credentials with `u.id = COALESCE($1, t.user_id)`: 17 ms
 * at 20,000 users).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLER_STATEMENTS } from '../../src/modules/auth/caller.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ seed: 'none' });
  // Enough users that a scan of them costs more than an index lookup, with statistics that say so.
  await t.database.prisma.$executeRawUnsafe(
    `INSERT INTO users (email, password_hash) SELECT 'plan' || g || '@example.test', 'x' FROM generate_series(1, 5000) g`,
  );
  await t.database.prisma.$executeRawUnsafe('ANALYZE');
});

afterAll(async () => {
  await t?.close();
});

/** Relations the generic plan of `sql` reads by a sequential scan. */
async function scannedRelations(sql: string, args: string): Promise<string[]> {
  return t.database.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('SET LOCAL plan_cache_mode = force_generic_plan');
    await tx.$executeRawUnsafe(`PREPARE caller_plan_check AS ${sql}`);
    try {
      const rows = await tx.$queryRawUnsafe<{ plan: string }[]>(
        `EXPLAIN (FORMAT JSON) EXECUTE caller_plan_check(${args})`,
      );
      const plan = JSON.stringify(rows[0]);
      return [...plan.matchAll(/"Node Type":"Seq Scan"[^}]*?"Relation Name":"([^"]+)"/g)].map((m) => m[1]);
    } finally {
      await tx.$executeRawUnsafe('DEALLOCATE caller_plan_check');
    }
  });
}

describe('Caller statement: its generic plan reads one user, not every user', () => {
  it('access token (user id and session id)', async () => {
    expect(await scannedRelations(CALLER_STATEMENTS.session, `42, '${'a'.repeat(32)}'`)).not.toContain('users');
  });

  it('API token (token id)', async () => {
    expect(await scannedRelations(CALLER_STATEMENTS.apiToken, `'tok_abc'`)).not.toContain('users');
  });

  it('the check itself sees a scan when there is one', async () => {
    expect(await scannedRelations('SELECT id FROM users WHERE id + 0 = $1::int', '42')).toContain('users');
  });
});
