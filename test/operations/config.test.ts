import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATABASE_TIMEOUTS, loadConfig } from '../../src/lib/config.ts';
import { openDatabase, pgTimeouts } from '../../src/lib/db.ts';
import { openPgliteCopy } from '../../testkit/databases.ts';

const base = { DATA_DIR: ':memory:' } as NodeJS.ProcessEnv;
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env }, { dataDir: ':memory:' });

describe('a JWT_SECRET under 32 bytes is refused at start', () => {
  it('refuses 31 bytes with one line naming the variable and the minimum', () => {
    expect(() => load({ JWT_SECRET: 'x'.repeat(31) })).toThrow(ConfigError);
    expect(() => load({ JWT_SECRET: 'x'.repeat(31) })).toThrow(/^JWT_SECRET must be at least 32 bytes, got 31/);
  });

  it('counts bytes, not characters', () => {
    // 16 characters of 2 bytes each: 32 bytes, accepted; 15 of them (30 bytes) are not.
    expect(load({ JWT_SECRET: 'é'.repeat(16) }).jwtSecret).toBe('é'.repeat(16));
    expect(() => load({ JWT_SECRET: 'é'.repeat(15) })).toThrow(/got 30/);
  });

  it('accepts 32 bytes and more', () => {
    expect(load({ JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toHaveLength(32);
  });

  it('generates a long secret when unset', () => {
    expect(Buffer.byteLength(load({}).jwtSecret)).toBeGreaterThanOrEqual(32);
  });
});

describe('a JWT_SECRET that is a published placeholder is refused at start', () => {
  const loading = (secret: string) => () => load({ JWT_SECRET: secret });

  it.each([
    'change-me-in-any-shared-deployment',
    'CHANGE_ME_CHANGE_ME_CHANGE_ME_CHANGE_ME',
    'please-replace-me-with-a-real-secret-value',
    'your-secret-here-your-secret-here-your-secret',
    'this-is-an-example-jwt-secret-of-enough-bytes',
  ])('%s', (secret) => {
    expect(loading(secret)).toThrow(ConfigError);
    expect(loading(secret)).toThrow(/^JWT_SECRET is a placeholder/);
  });

  it('a random secret passes', () => {
    expect(loading('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08')).not.toThrow();
  });
});

describe('SCENARIO_REPRICE_WORKER: a thread on PostgreSQL, inline on PGlite, or off', () => {
  const PG = { DATABASE_URL: 'postgres://u:p@db.example:5432/service', JWT_SECRET: 'k'.repeat(64) };
  it('defaults to a thread on PostgreSQL and inline on the embedded database', () => {
    expect(load(PG).scenarioRepriceWorker).toBe('thread');
    expect(load({}).scenarioRepriceWorker).toBe('inline');
  });
  it('takes each mode where it can run', () => {
    for (const mode of ['thread', 'inline', 'off'])
      expect(load({ ...PG, SCENARIO_REPRICE_WORKER: mode }).scenarioRepriceWorker).toBe(mode);
    expect(load({ SCENARIO_REPRICE_WORKER: 'off' }).scenarioRepriceWorker).toBe('off');
  });
  it('refuses an unknown mode, and a thread on the embedded database (one connection, on the server thread)', () => {
    expect(() => load({ ...PG, SCENARIO_REPRICE_WORKER: 'process' })).toThrow(
      /^SCENARIO_REPRICE_WORKER must be one of thread, inline, off$/,
    );
    expect(() => load({ SCENARIO_REPRICE_WORKER: 'thread' })).toThrow(
      /^SCENARIO_REPRICE_WORKER=thread needs DATABASE_URL/,
    );
  });
});

describe('database timeouts are configurable, with sane defaults', () => {
  it('defaults', () => {
    const c = load({});
    expect(c).toMatchObject(DEFAULT_DATABASE_TIMEOUTS);
    expect(c).toMatchObject({ readinessTimeoutMs: 2000, shutdownTimeoutMs: 10_000 });
  });

  it('reads each variable', () => {
    const c = load({
      DATABASE_CONNECT_TIMEOUT_MS: '750',
      DATABASE_STATEMENT_TIMEOUT_MS: '1500',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2500',
      READINESS_TIMEOUT_MS: '900',
      SHUTDOWN_TIMEOUT_MS: '3000',
    });
    expect(c).toMatchObject({
      databaseConnectTimeoutMs: 750,
      databaseStatementTimeoutMs: 1500,
      databaseIdleInTransactionTimeoutMs: 2500,
      readinessTimeoutMs: 900,
      shutdownTimeoutMs: 3000,
    });
  });

  it.each(['0', '-1', '1.5', 'soon'])('refuses %j (0 would mean "wait forever" to pg)', (value) => {
    expect(() => load({ DATABASE_STATEMENT_TIMEOUT_MS: value })).toThrow(ConfigError);
    expect(() => load({ DATABASE_CONNECT_TIMEOUT_MS: value })).toThrow(
      /DATABASE_CONNECT_TIMEOUT_MS must be an integer >= 1/,
    );
  });

  it('maps onto pg: connect/acquire, server statement timeout, client read timeout after it, idle in transaction', () => {
    expect(
      pgTimeouts(
        load({
          DATABASE_CONNECT_TIMEOUT_MS: '750',
          DATABASE_STATEMENT_TIMEOUT_MS: '1500',
          DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2500',
        }),
      ),
    ).toMatchObject({
      connectionTimeoutMillis: 750,
      statement_timeout: 1500,
      query_timeout: 2500,
      idle_in_transaction_session_timeout: 2500,
    });
    expect(pgTimeouts()).toMatchObject({
      connectionTimeoutMillis: 5000,
      statement_timeout: 15_000,
      query_timeout: 16_000,
    });
  });
});

describe('both adapters get the statement timeout', () => {
  it('PGlite: set on its one session (accepted; PGlite does not enforce it, see docs/operations.md)', async () => {
    const db = await openPgliteCopy('none', { migrate: false, timeouts: { databaseStatementTimeoutMs: 1234 } });
    expect(await db.prisma.$queryRawUnsafe('SHOW statement_timeout')).toEqual([{ statement_timeout: '1234ms' }]);
    await db.close();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: every pooled connection starts with them', async () => {
    const db = await openDatabase({
      databaseUrl: process.env.TEST_DATABASE_URL!,
      dataDir: ':memory:',
      migrate: false,
      timeouts: { databaseStatementTimeoutMs: 1234, databaseIdleInTransactionTimeoutMs: 4321 },
    });
    const rows = await Promise.all(
      Array.from({ length: 3 }, () =>
        db.prisma.$queryRawUnsafe<Record<string, string>[]>(
          "SELECT current_setting('statement_timeout') AS s, current_setting('idle_in_transaction_session_timeout') AS i",
        ),
      ),
    );
    for (const [row] of rows) expect(row).toEqual({ s: '1234ms', i: '4321ms' });
    await db.close();
  });
});
