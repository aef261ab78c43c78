/**
 * The classifier, on errors provoked for real through Prisma and our adapters (never hand-built shapes): what a
 * refused, silent, closed, timed-out or terminated database throws is "unavailable"; a transaction PostgreSQL ends to
 * break a deadlock or a serialisation failure is a "write conflict"; ordinary query errors are neither.
 */
import net from 'node:net';
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, rawQuery, type Database } from '../../src/lib/db.ts';
import {
  DATABASE_BUSY_CODE,
  DATABASE_UNAVAILABLE_CODE,
  isDatabaseUnavailable,
  isWriteConflict,
  retryableDatabaseFailure,
  WRITE_CONFLICT_CODE,
} from '../../src/lib/database-errors.ts';
import { LOCK_POLL, lockWaiters } from '../../testkit/lock-waits.ts';
import { openPgliteCopy } from '../../testkit/databases.ts';
import { freshPostgres, type FreshDatabase } from '../../testkit/postgres.ts';
import { ValidationError } from '../../src/lib/errors.ts';
import { startTcpProxy } from './tcp-proxy.ts';

const PG = process.env.TEST_DATABASE_URL;
const fast = {
  databaseConnectTimeoutMs: 300,
  databaseStatementTimeoutMs: 300,
  databaseIdleInTransactionTimeoutMs: 300,
};
/** For a database that is up: a busy machine may take longer than `fast` allows to open a healthy connection. */
const fastOnceConnected = { ...fast, databaseConnectTimeoutMs: 10_000 };

async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

function urlAt(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

/** A port nothing listens on: listen, note the port, close. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('a database that cannot be reached or does not answer is "unavailable"', () => {
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    // Accepts connections, never answers: the hung database.
    silent = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });

  it('connection refused (Prisma P1001 / DatabaseNotReachable)', async () => {
    const db = await openDatabase({
      databaseUrl: urlAt(await closedPort()),
      dataDir: ':memory:',
      migrate: false,
      timeouts: fast,
    }).catch((e) => e);
    const error = db instanceof Error ? db : await thrown(() => (db as Database).prisma.user.count());
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('a raw query refused, and a transaction refused', async () => {
    const port = await closedPort();
    const db = await openDatabase({
      databaseUrl: urlAt(port),
      dataDir: ':memory:',
      migrate: false,
      timeouts: fast,
    }).catch(() => null);
    // $connect() on adapter-pg is lazy, so opening succeeds and the queries fail.
    expect(db).not.toBeNull();
    expect(isDatabaseUnavailable(await thrown(() => db!.prisma.$queryRawUnsafe('SELECT 1')))).toBe(true);
    expect(isDatabaseUnavailable(await thrown(() => db!.prisma.$transaction(async (tx) => tx.user.count())))).toBe(
      true,
    );
    await db!.close();
  });

  it('connect timeout: the server accepts but never answers', async () => {
    const { port } = silent.address() as net.AddressInfo;
    const db = await openDatabase({ databaseUrl: urlAt(port), dataDir: ':memory:', migrate: false, timeouts: fast });
    const error = await thrown(() => db.prisma.user.count());
    expect((error as Error).message).toMatch(/Connection terminated due to connection timeout/);
    expect(isDatabaseUnavailable(error)).toBe(true);
    await db.close();
  });

  it('pool acquire timeout: "busy" (back-pressure), not "unavailable"; the connections stuck connecting are', async () => {
    const { port } = silent.address() as net.AddressInfo;
    const db = await openDatabase({ databaseUrl: urlAt(port), dataDir: ':memory:', migrate: false, timeouts: fast });
    const errors = await Promise.all(Array.from({ length: 12 }, () => thrown(() => db.prisma.user.count()))); // pool max is 10
    const waited = errors.filter((e) => (e as Error).message === 'timeout exceeded when trying to connect');
    expect(waited.length).toBeGreaterThan(0);
    for (const e of waited) {
      expect(isDatabaseUnavailable(e)).toBe(false);
      expect(retryableDatabaseFailure(e)).toMatchObject({
        code: DATABASE_BUSY_CODE,
        status: 503,
        retryAfterSeconds: 1,
      });
      expect(retryableDatabaseFailure(e)?.message).not.toMatch(/unavailable/i);
    }
    for (const e of errors.filter((e) => !waited.includes(e)))
      expect(retryableDatabaseFailure(e)?.code).toBe(DATABASE_UNAVAILABLE_CODE);
    await db.close();
  });

  it('a closed PGlite', async () => {
    const db = await openPgliteCopy('none', { migrate: false });
    await db.close();
    expect(isDatabaseUnavailable(await thrown(() => db.prisma.$queryRawUnsafe('SELECT 1')))).toBe(true);
  });

  it("wrapped by GraphQL (a resolver's error) it is still recognised", async () => {
    const port = await closedPort();
    const db = await openDatabase({ databaseUrl: urlAt(port), dataDir: ':memory:', migrate: false, timeouts: fast });
    const original = await thrown(() => db.prisma.user.count());
    expect(isDatabaseUnavailable(new GraphQLError('wrapped', { originalError: original as Error }))).toBe(true);
    await db.close();
  });

  describe.skipIf(!PG)('on PostgreSQL', () => {
    it('statement_timeout (57014)', async () => {
      const db = await openDatabase({
        databaseUrl: PG!,
        dataDir: ':memory:',
        migrate: false,
        timeouts: fastOnceConnected,
      });
      const error = await thrown(() => db.prisma.$queryRawUnsafe('SELECT pg_sleep(2)::text'));
      expect(String((error as Error).message)).toMatch(/statement timeout/);
      expect(isDatabaseUnavailable(error)).toBe(true);
      await db.close();
    });

    it('a connection terminated by the server (57P01)', async () => {
      const db = await openDatabase({
        databaseUrl: PG!,
        dataDir: ':memory:',
        migrate: false,
        timeouts: { ...fastOnceConnected, databaseStatementTimeoutMs: 5000 },
      });
      // Prisma's promises are lazy: .then() sends the query now.
      const victim = db.prisma.$queryRawUnsafe("SELECT pg_sleep(3)::text, 'classifier-victim'").then(
        () => null,
        (e: unknown) => e,
      );
      const admin = await openDatabase({ databaseUrl: PG!, dataDir: ':memory:', migrate: false });
      for (let i = 0; i < 50; i += 1) {
        const [row] = await admin.prisma.$queryRawUnsafe<{ n: number }[]>(
          "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE query LIKE '%''classifier-victim''%' AND pid <> pg_backend_pid()",
        );
        if (row.n > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const error = await victim;
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
      await admin.close();
      await db.close();
    });

    it('the client read timeout: connected, then the server falls silent (and in a transaction)', async () => {
      const url = new URL(PG!);
      const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      const db = await openDatabase({
        databaseUrl: url.toString(),
        dataDir: ':memory:',
        migrate: false,
        timeouts: fastOnceConnected,
      });
      await db.prisma.$queryRawUnsafe('SELECT 1');
      await proxy.set('silent');
      const read = await thrown(() => db.prisma.$queryRawUnsafe('SELECT 1'));
      expect((read as Error).message).toBe('Query read timeout');
      expect(isDatabaseUnavailable(read)).toBe(true);
      expect(
        isDatabaseUnavailable(await thrown(() => db.prisma.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT 1')))),
      ).toBe(true);
      await proxy.set('forward');
      await db.close();
      await proxy.close();
    });
  });
});

describe.skipIf(!PG)(
  'a transaction PostgreSQL ends to break a deadlock or a serialisation failure is a "write conflict"',
  () => {
    let fresh: FreshDatabase;
    let db: Database;
    beforeAll(async () => {
      fresh = await freshPostgres(PG!, 'conflict');
      db = await openDatabase({ databaseUrl: fresh.url, dataDir: ':memory:', migrate: false });
      await db.prisma.$executeRawUnsafe('CREATE TABLE probe (id int PRIMARY KEY, n int NOT NULL)');
    });
    afterAll(async () => {
      await db?.close();
      await fresh?.drop();
    });

    /**
     * The holder locks row 2, `victim` locks row 1 and then waits for row 2; the holder then asks for row 1: a cycle.
     * The holder's own deadlock_timeout is long, so the victim's session finds the cycle first and is the one ended.
     */
    async function deadlockAgainst(victim: () => Promise<unknown>): Promise<unknown> {
      await db.prisma.$executeRawUnsafe('TRUNCATE probe');
      await db.prisma.$executeRawUnsafe('INSERT INTO probe VALUES (1, 0), (2, 0)');
      let holding!: () => void;
      const held = new Promise<void>((r) => {
        holding = r;
      });
      const holder = db.prisma.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe("SET LOCAL deadlock_timeout = '20s'");
          await tx.$queryRawUnsafe('SELECT id FROM probe WHERE id = 2 FOR UPDATE');
          holding();
          await vi.waitUntil(async () => (await lockWaiters(db.prisma)) > 0, LOCK_POLL);
          await tx.$queryRawUnsafe('SELECT id FROM probe WHERE id = 1 FOR UPDATE');
        },
        { timeout: 30_000 },
      );
      await held;
      const error = await thrown(victim);
      await holder;
      return error;
    }

    it('a deadlock inside a Prisma interactive transaction (P2034)', async () => {
      const error = await deadlockAgainst(() =>
        db.prisma.$transaction(async (tx) => {
          await tx.$queryRawUnsafe('SELECT id FROM probe WHERE id = 1 FOR UPDATE');
          await tx.$queryRawUnsafe('SELECT id FROM probe WHERE id = 2 FOR UPDATE');
        }),
      );
      expect(String((error as Error).message)).toMatch(/deadlock/);
      expect(isWriteConflict(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(retryableDatabaseFailure(error)?.code).toBe(WRITE_CONFLICT_CODE);
    });

    it('a deadlock on the driver path, one statement outside a transaction (40P01)', async () => {
      const error = await deadlockAgainst(() =>
        rawQuery(db.prisma, 'SELECT id FROM probe WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [1, 2]),
      );
      expect((error as { code?: string }).code).toBe('40P01');
      expect(isWriteConflict(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(false);
    });

    it('a serialisation failure: a repeatable-read transaction updates a row changed since its snapshot (40001)', async () => {
      await db.prisma.$executeRawUnsafe('TRUNCATE probe');
      await db.prisma.$executeRawUnsafe('INSERT INTO probe VALUES (1, 0)');
      const error = await thrown(() =>
        db.prisma.$transaction(
          async (tx) => {
            await tx.$queryRawUnsafe('SELECT n FROM probe WHERE id = 1'); // the snapshot is taken here
            await db.prisma.$executeRawUnsafe('UPDATE probe SET n = n + 1 WHERE id = 1'); // another session commits
            await tx.$executeRawUnsafe('UPDATE probe SET n = n + 10 WHERE id = 1');
          },
          { isolationLevel: 'RepeatableRead' },
        ),
      );
      expect(String((error as Error).message)).toMatch(/conflict|serialize/i);
      expect(isWriteConflict(error)).toBe(true);
      expect(isDatabaseUnavailable(error)).toBe(false);
    });
  },
);

describe('ordinary failures are not "unavailable" nor a "write conflict"', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPgliteCopy('none');
  });
  afterAll(async () => {
    await db.close();
  });

  it('a unique violation, a syntax error, a missing row', async () => {
    await db.prisma.organisation
      .create({ data: { id: 900001, name: 'Twice', type: 'broker' } as never })
      .catch(() => {});
    const duplicate = await thrown(() =>
      db.prisma.organisation.create({ data: { id: 900001, name: 'Twice', type: 'broker' } as never }),
    );
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    expect(isWriteConflict(duplicate)).toBe(false);
    expect(retryableDatabaseFailure(duplicate)).toBeUndefined();
    expect(isDatabaseUnavailable(await thrown(() => db.prisma.$queryRawUnsafe('SELEC 1')))).toBe(false);
    expect(isDatabaseUnavailable(await thrown(() => db.prisma.user.findUniqueOrThrow({ where: { id: -1 } })))).toBe(
      false,
    );
  });

  it('a domain error and a plain bug', () => {
    expect(isDatabaseUnavailable(new ValidationError([{ field: 'cost', messages: ['Required.'] }]))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isWriteConflict(new TypeError('x is not a function'))).toBe(false);
    expect(retryableDatabaseFailure(undefined, new Error('a bug'))).toBeUndefined();
  });
});
