/**
 * rawQuery (src/lib/db.ts): the hot path's raw statements (the caller, metering) go to the driver directly, and must
 * answer exactly what Prisma's `$queryRawUnsafe` answers (types included: int8 as bigint, timestamps as UTC instants),
 * be counted like every statement, and stay inside a transaction when given one. Runs on PGlite, and on PostgreSQL
 * when TEST_DATABASE_URL is set.
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawQuery, whileDatabaseWorks } from '../../src/lib/db.ts';
import { CALLER_STATEMENTS } from '../../src/modules/auth/caller.ts';
import { parseApiToken } from '../../src/modules/auth/tokens.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
const zone = process.env.TZ;

beforeAll(async () => {
  // A process zone far from UTC: a timestamp read as local time instead of UTC would be off by hours.
  process.env.TZ = 'Australia/Sydney';
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

/** The same statement both ways: the driver's answer and Prisma's. */
async function bothWays(sql: string, ...params: unknown[]) {
  const direct = await rawQuery<Record<string, unknown>>(t.database.prisma, sql, ...params);
  const prisma = await t.database.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params);
  return { direct, prisma };
}

describe('The caller statements answer what Prisma answers', () => {
  it('a session caller: a live session, then the same session revoked (a timestamp)', async () => {
    const { access, refresh } = await t.login('broker.admin@demo.test');
    const { sub, sid } = jwt.decode(access) as { sub: string; sid: string };
    const live = await bothWays(CALLER_STATEMENTS.session, Number(sub), sid);
    expect(live.direct).toEqual(live.prisma);
    expect(typeof live.direct[0].catalogue_version).toBe('bigint');
    expect(live.direct[0].session_revoked_at).toBeNull();

    expect((await t.rest('POST', '/api/v1/auth/logout', { body: { refresh } })).status).toBe(204);
    const revoked = await bothWays(CALLER_STATEMENTS.session, Number(sub), sid);
    expect(revoked.direct).toEqual(revoked.prisma);
    const at = revoked.direct[0].session_revoked_at as Date;
    expect(at).toBeInstanceOf(Date);
    expect(Math.abs(at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('an API-token caller: token columns, with an expiry and a last use that are timestamps', async () => {
    const { access } = await t.login('broker.admin@demo.test');
    const minted = await t.rest('POST', '/api/v1/api-tokens', { token: access, body: { name: 'raw', scope: 'read' } });
    expect(minted.status).toBe(201);
    const token = parseApiToken(minted.body.token as string)!;
    await t.rest('GET', '/api/v1/feature-flags', { token: minted.body.token }); // sets last_used_at
    const { direct, prisma } = await bothWays(CALLER_STATEMENTS.apiToken, token.tokenId);
    expect(direct).toEqual(prisma);
    expect(direct[0].token_last_used_at).toBeInstanceOf(Date);
  });
});

describe('Metering (record_run) answers what Prisma answers', () => {
  it('the same columns, types and outcome', async () => {
    const sql =
      'SELECT ok, metric, used, "limit", scenario_id FROM record_run($1::int, $2::text, $3::text[], $4::int[], $5::text, $6::jsonb, $7::jsonb, $8::int)';
    const args = [1, '2026-11-25', ['calculator', 'matrix'], [null, 5], 'matrix', '{"a":1}', null, 20];
    const direct = await rawQuery<Record<string, unknown>>(t.database.prisma, sql, ...args);
    const prisma = await t.database.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...args);
    expect(direct).toHaveLength(1);
    expect(Object.keys(direct[0])).toEqual(Object.keys(prisma[0]));
    expect(direct[0]).toMatchObject({ ok: true, metric: null, used: null, limit: null });
    expect(typeof direct[0].scenario_id).toBe(typeof prisma[0].scenario_id);
    expect(direct[0].scenario_id).not.toBe(prisma[0].scenario_id);
  });
});

describe('Every statement is counted, once', () => {
  it('queryCount grows by one per rawQuery', async () => {
    const before = t.database.queryCount();
    await rawQuery(t.database.prisma, 'SELECT 1 AS one');
    await rawQuery(t.database.prisma, 'SELECT 1 AS one');
    expect(t.database.queryCount() - before).toBe(2);
  });
});

describe('A transaction keeps its statements', () => {
  it('rawQuery on a transaction runs in that transaction, and sees its uncommitted writes', async () => {
    await t.database.prisma
      .$transaction(async (tx) => {
        const [mine] = await tx.$queryRawUnsafe<{ id: bigint }[]>('SELECT txid_current() AS id');
        const [viaRaw] = await rawQuery<{ id: bigint }>(tx, 'SELECT txid_current() AS id');
        expect(viaRaw.id).toBe(mine.id);
        await tx.$executeRawUnsafe("UPDATE users SET first_name = 'Uncommitted' WHERE id = 1");
        const [seen] = await rawQuery<{ first_name: string }>(tx, 'SELECT first_name FROM users WHERE id = 1');
        expect(seen.first_name).toBe('Uncommitted');
        throw new Error('roll back');
      })
      .catch((e: Error) => expect(e.message).toBe('roll back'));
    const [after] = await rawQuery<{ first_name: string }>(
      t.database.prisma,
      'SELECT first_name FROM users WHERE id = 1',
    );
    expect(after.first_name).not.toBe('Uncommitted');
  });
});

describe('whileDatabaseWorks: work runs while the database runs the statement', () => {
  /** Busy for `ms` of wall time: work that holds the thread, as formatting a large run's rows does. */
  const busy = (ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until);
  };

  it('on PostgreSQL the statement has started on the server before the work ends; on PGlite the work runs first', async () => {
    // Long enough that a loaded machine still starts the statement well within it (PostgreSQL).
    const WORK_MS = 1_000;
    const serverNow = async () =>
      (await rawQuery<{ now: Date }>(t.database.prisma, 'SELECT clock_timestamp() AS now'))[0].now.getTime();
    const order: string[] = [];
    // Every instant is the database's own clock, so a server whose clock differs from this process's cannot mislead.
    const before = await serverNow();
    const [rows, worked] = await whileDatabaseWorks(
      t.database.prisma,
      () => {
        order.push('statement');
        return rawQuery<{ started: Date }>(t.database.prisma, 'SELECT statement_timestamp() AS started');
      },
      () => {
        order.push('work');
        busy(WORK_MS);
        return "the work's answer";
      },
    );
    expect(worked).toBe("the work's answer");
    const startedAfter = rows[0].started.getTime() - before;
    if (t.database.kind === 'postgres') {
      expect(order).toEqual(['statement', 'work']);
      // Sent after the work, the statement could not have started before WORK_MS had passed.
      expect(startedAfter).toBeLessThan(WORK_MS);
    } else {
      expect(order).toEqual(['work', 'statement']);
      expect(startedAfter).toBeGreaterThanOrEqual(WORK_MS);
    }
  });

  it('a statement that fails rejects with its error once the work is done', async () => {
    let worked = false;
    await expect(
      whileDatabaseWorks(
        t.database.prisma,
        () => rawQuery(t.database.prisma, 'SELECT 1 / 0 AS never'),
        () => {
          worked = true;
        },
      ),
    ).rejects.toThrow(/division by zero/);
    expect(worked).toBe(true);
  });

  it('work that throws rejects with its own error; a statement already sent is never an unhandled rejection', async () => {
    const before = t.database.queryCount();
    await expect(
      whileDatabaseWorks(
        t.database.prisma,
        () => rawQuery(t.database.prisma, 'SELECT 1 / 0 AS never'),
        () => {
          throw new Error('work failed');
        },
      ),
    ).rejects.toThrow('work failed');
    // On PostgreSQL the statement was already sent; on PGlite it never starts once the work has failed.
    expect(t.database.queryCount() - before).toBe(t.database.kind === 'postgres' ? 1 : 0);
  });

  it('a transaction client, or one this module did not open, runs the work first', async () => {
    const order: string[] = [];
    await t.database.prisma.$transaction(async (tx) => {
      await whileDatabaseWorks(
        tx,
        () => {
          order.push('statement');
          return rawQuery(tx, 'SELECT 1 AS one');
        },
        () => order.push('work'),
      );
    });
    expect(order).toEqual(['work', 'statement']);
  });
});
