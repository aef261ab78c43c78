/**
 * PGlite through prepared statements (src/lib/pglite-prepared.ts): the same answers as PGlite's own `query()`, fewer
 * calls into the WASM module, and the same behaviour on errors, transactions and a closed database.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedPglite } from '../../src/lib/pglite-prepared.ts';
import { pgliteCopy } from '../../testkit/databases.ts';

let pglite: PGlite;
let wasmCalls = 0;

beforeAll(async () => {
  pglite = await pgliteCopy('none');
  const sync = pglite.execProtocolRawSync.bind(pglite);
  pglite.execProtocolRawSync = (message: Uint8Array) => {
    wasmCalls += 1;
    return sync(message);
  };
  await pglite.exec(`
    CREATE TABLE t (id int PRIMARY KEY, big bigint, amount numeric(12,2), doc jsonb, at timestamp(3), day date,
                    tags text[], raw bytea, flag boolean, note text);
    INSERT INTO t VALUES
      (1, 9007199254740993, 1234.50, '{"a":[1,2]}', '2026-11-23 10:11:12.345', '2026-11-23', '{x,"y z"}', '\\x00ff', true, 'héllo'),
      (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);`);
});

afterAll(async () => {
  await pglite.close();
});

const SELECT = 'SELECT id, big, amount, doc, at, day, tags, raw, flag, note FROM t WHERE id = $1 OR $2::text = note';
const options = { rowMode: 'array' as const };

describe('Answers: the same rows, fields and counts as PGlite query()', () => {
  it('every column type, on first (unnamed), second (named) and later runs', async () => {
    const prepared = preparedPglite(pglite);
    const expected = await pglite.query(SELECT, [1, 'none'], options);
    for (let run = 0; run < 4; run++) {
      const got = await prepared.query(SELECT, [1, 'none'], options);
      expect(got.rows).toEqual(expected.rows);
      expect(got.fields).toEqual(expected.fields);
      expect(got.affectedRows).toBe(expected.affectedRows);
    }
    expect((await prepared.query(SELECT, [2, null], options)).rows).toEqual(
      (await pglite.query(SELECT, [2, null], options)).rows,
    );
  });

  it("object rows, and a caller's own parsers over PGlite's (as the Prisma adapter passes them)", async () => {
    const prepared = preparedPglite(pglite);
    const custom = { rowMode: 'object' as const, parsers: { 1700: (text: string) => `numeric:${text}` } };
    const expected = await pglite.query(SELECT, [1, 'none'], custom);
    expect(expected.rows).toEqual([expect.objectContaining({ amount: 'numeric:1234.50' })]);
    for (let run = 0; run < 3; run++) {
      const got = await prepared.query(SELECT, [1, 'none'], custom);
      expect(got.rows).toEqual(expected.rows);
      expect(Object.keys(got.rows[0] as object)).toEqual(Object.keys(expected.rows[0] as object));
    }
  });

  it('parameters are serialised by their inferred types (json, arrays, dates, bytes)', async () => {
    const prepared = preparedPglite(pglite);
    const sql = 'SELECT $1::jsonb AS j, $2::int[] AS a, $3::timestamp(3) AS d, $4::bytea AS b';
    const params = [{ k: ['v', 1] }, [1, 2, 3], new Date('2026-01-02T03:04:05.678Z'), new Uint8Array([1, 2, 255])];
    const expected = await pglite.query(sql, params, options);
    for (let run = 0; run < 3; run++) expect((await prepared.query(sql, params, options)).rows).toEqual(expected.rows);
  });

  it('affected rows of writes', async () => {
    const prepared = preparedPglite(pglite);
    for (let run = 0; run < 3; run++) {
      const r = await prepared.query('UPDATE t SET note = note WHERE id <= $1', [2]);
      expect(r.affectedRows).toBe(2);
    }
  });
});

describe('Calls: a text seen before costs one call into the WASM module', () => {
  it('first use 2 calls, second use 2 calls (parsed with a name), then 1 call per run', async () => {
    const prepared = preparedPglite(pglite);
    const sql = 'SELECT count(*)::int AS n FROM t WHERE id > $1';
    const calls: number[] = [];
    for (let run = 0; run < 4; run++) {
      const before = wasmCalls;
      await prepared.query(sql, [0]);
      calls.push(wasmCalls - before);
    }
    expect(calls).toEqual([2, 2, 1, 1]);
  });

  it('past the name limit a text stays unnamed (2 calls every run), so one-off texts cannot grow the backend', async () => {
    const prepared = preparedPglite(pglite, 1);
    await prepared.query('SELECT 1 AS a');
    await prepared.query('SELECT 1 AS a'); // named: the only name
    const before = wasmCalls;
    for (let run = 0; run < 3; run++) await prepared.query('SELECT 2 AS b');
    expect(wasmCalls - before).toBe(6);
  });
});

describe('Errors: PostgreSQL errors as PGlite reports them, and the connection stays usable', () => {
  it('a unique violation carries its code, detail and the statement; the next statement runs', async () => {
    const prepared = preparedPglite(pglite);
    for (let run = 0; run < 3; run++) {
      const error = await prepared.query('INSERT INTO t (id) VALUES ($1)', [1]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: '23505', query: 'INSERT INTO t (id) VALUES ($1)', params: [1] });
      expect((await prepared.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    }
  });

  it('a syntax error is refused at parse, every time', async () => {
    const prepared = preparedPglite(pglite);
    for (let run = 0; run < 3; run++) await expect(prepared.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
  });

  it('a named statement whose table changed shape is parsed again after the one refusal', async () => {
    const prepared = preparedPglite(pglite);
    await pglite.exec('CREATE TABLE shape (a int); INSERT INTO shape VALUES (1)');
    const sql = 'SELECT * FROM shape';
    for (let run = 0; run < 3; run++) await prepared.query(sql);
    await pglite.exec('ALTER TABLE shape ADD COLUMN b int DEFAULT 2');
    await expect(prepared.query(sql)).rejects.toMatchObject({ code: '0A000' });
    expect((await prepared.query(sql)).rows).toEqual([{ a: 1, b: 2 }]);
  });

  it('a closed PGlite refuses at once (never enters the module)', async () => {
    const closed = await pgliteCopy('none');
    const prepared = preparedPglite(closed);
    await prepared.query('SELECT 1');
    await closed.close();
    await expect(prepared.query('SELECT 1')).rejects.toThrow(/closed/);
  });
});

describe('Transactions: statements inside run on the transaction, and roll back with it', () => {
  it('commit keeps, rollback discards, a failed statement aborts the transaction', async () => {
    const prepared = preparedPglite(pglite);
    const insert = 'INSERT INTO t (id, note) VALUES ($1, $2)';
    await prepared.transaction(async (tx) => {
      await tx.query(insert, [10, 'kept']);
    });
    await expect(
      prepared.transaction(async (tx) => {
        await tx.query(insert, [11, 'discarded']);
        await tx.query(insert, [11, 'twice']);
      }),
    ).rejects.toMatchObject({ code: '23505', query: insert, params: [11, 'twice'] }); // the second insert's duplicate key, not anything else
    await prepared.transaction(async (tx) => {
      await tx.query(insert, [12, 'rolled back']);
      await tx.rollback();
    });
    const ids = await prepared.query<{ id: number }>('SELECT id FROM t WHERE id >= 10 ORDER BY id');
    expect(ids.rows.map((r) => r.id)).toEqual([10]);
  });

  it('a statement outside a transaction waits for the open one: it is neither inside it nor rolled back with it', async () => {
    const prepared = preparedPglite(pglite);
    const insert = 'INSERT INTO t (id, note) VALUES ($1, $2)';
    let begun!: () => void;
    const inside = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const transaction = prepared.transaction(async (tx) => {
      await tx.query(insert, [20, 'inside']);
      begun();
      // The transaction stays open across timers: a statement sent now must not run in it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.rollback();
    });
    await inside;
    await prepared.query(insert, [21, 'outside']);
    await transaction;
    const ids = await prepared.query<{ id: number }>('SELECT id FROM t WHERE id >= 20 ORDER BY id');
    expect(ids.rows.map((r) => r.id)).toEqual([21]);
  });

  it('a statement after the transaction closed is refused', async () => {
    const prepared = preparedPglite(pglite);
    let kept: { query: (sql: string) => Promise<unknown> } | undefined;
    await prepared.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.query('SELECT 1')).rejects.toThrow(/closed/);
  });
});
