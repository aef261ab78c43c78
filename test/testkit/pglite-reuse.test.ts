/**
 * The test kit's reuse of one PGlite per starting point (testkit/pglite-reuse.ts): a file handed a reused instance
 * sees exactly what a fresh copy holds, a change a reset cannot undo gets a fresh copy instead, and a closed handle
 * acts as a closed PGlite.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteCopy } from '../../testkit/databases.ts';
import { leasePglite, reuseCounts } from '../../testkit/pglite-reuse.ts';

/** A point of its own, so the rest of the worker's files never share these instances. */
const POINT = 'demo (pglite-reuse test)';
const lease = () => leasePglite(POINT, () => pgliteCopy('demo'));

/** Everything a test could read of a database: every table's rows in their order, sequences, session settings. */
async function contents(pglite: PGlite): Promise<unknown> {
  const tables = (
    await pglite.query<{ name: string }>(
      "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
    )
  ).rows.map((r) => r.name);
  const rows: Record<string, unknown> = {};
  for (const table of tables) rows[table] = (await pglite.query(`SELECT * FROM ${table}`)).rows;
  const sequences = (await pglite.query('SELECT sequencename, last_value FROM pg_sequences ORDER BY 1')).rows;
  const settings = (await pglite.query("SELECT name, setting FROM pg_settings WHERE source = 'session' ORDER BY 1"))
    .rows;
  const locks = (await pglite.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'")).rows;
  const temporary = (await pglite.query("SELECT count(*)::int AS n FROM pg_class WHERE relpersistence = 't'")).rows;
  return { rows, sequences, settings, locks, temporary };
}

let fresh: PGlite;
afterAll(async () => {
  await fresh?.close();
});

describe('a reused instance holds exactly what a fresh copy holds', () => {
  it('rows written, deleted and updated, sequences advanced and session state left behind are all undone', async () => {
    fresh = await pgliteCopy('demo');
    const expected = await contents(fresh);

    const first = await lease();
    await first.exec(`
      INSERT INTO organisations (name, type) VALUES ('Left behind', 'b');
      UPDATE users SET first_name = 'Changed';
      DELETE FROM approval_rate_brackets;
      SET statement_timeout = 1234;
      SELECT pg_advisory_lock(42);
      PREPARE left_behind AS SELECT 1;
      CREATE TEMP TABLE scratch (x int);
      BEGIN;
      INSERT INTO organisations (name, type) VALUES ('Never committed', 'b');
    `);
    await first.close();

    const before = { ...reuseCounts };
    const second = await lease();
    expect(reuseCounts.reused).toBe(before.reused + 1);
    expect(await contents(second)).toEqual(expected);
    expect(second.isInTransaction()).toBe(false);
    await expect(second.exec('EXECUTE left_behind')).rejects.toThrow(/does not exist/);
    await second.close();
  });
});

describe('a change a reset cannot undo gets a fresh copy instead', () => {
  it('a column added by a file: the next lease is a fresh copy without it', async () => {
    const first = await lease();
    await first.exec('ALTER TABLE organisations ADD COLUMN left_behind int');
    await first.close();

    const before = { ...reuseCounts };
    const second = await lease();
    expect(reuseCounts).toMatchObject({ refused: before.refused + 1, opened: before.opened + 1 });
    const columns = await second.query(
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'organisations' AND column_name = 'left_behind'",
    );
    expect(columns.rows).toEqual([]);
    await second.close();
  });
});

describe("a file's closed handle acts as a closed PGlite", () => {
  it('closed is true and every statement is refused, while the next file gets the instance', async () => {
    const handle = await lease();
    await handle.close();
    expect(handle.closed).toBe(true);
    await expect(handle.query('SELECT 1')).rejects.toThrow('PGlite is closed');
    const next = await lease();
    expect((await next.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await next.close();
  });
});
