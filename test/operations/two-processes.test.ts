/**
 * Two real server processes (`node --import tsx src/main.ts`) on one PostgreSQL database behave as one service:
 * everything that must be exact lives in the database, not in a process. Needs TEST_DATABASE_URL (skipped without).
 * The first process migrates the empty database and loads the demo catalogue; the second starts on it afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_POLICY } from '../../src/modules/auth/sign-in-throttle.ts';
import { DEMO_PASSWORD, freshPostgres } from '../../testkit/app.ts';

const BASE_URL = process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, '../..');

interface Server {
  url: string;
  child: ChildProcess;
  output: string[];
}
let servers: Server[] = [];
let database: Awaited<ReturnType<typeof freshPostgres>> | undefined;
let sql: pg.Client | undefined;
let dataDir: string | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(databaseUrl: string, jwtSecret: string): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: jwtSecret,
    PORT: String(port),
    DATA_DIR: dataDir,
    SERVICE_ENVIRONMENT: 'local',
  };
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TRUST_PROXY') delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const server = { url: `http://127.0.0.1:${port}`, child, output };
  servers.push(server);
  for (let i = 0; i < 600; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`${server.url}/healthz`)).ok) return server;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready after 60 s:\n${output.join('')}`);
}

async function call(server: Server, method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function signIn(
  server: Server,
  email: string,
  password = DEMO_PASSWORD,
): Promise<{ access: string; refresh: string }> {
  const res = await call(server, 'POST', '/api/v1/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Alternates between the two processes. */
const either = (i: number) => servers[i % 2];

describe.skipIf(!BASE_URL)('Two server processes on one PostgreSQL database behave as one service', () => {
  beforeAll(async () => {
    database = await freshPostgres(BASE_URL!);
    dataDir = mkdtempSync(path.join(tmpdir(), 'two-processes-'));
    const secret = randomBytes(32).toString('hex');
    await startServer(database.url, secret); // migrates, loads the demo catalogue
    await startServer(database.url, secret);
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 180_000);

  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGTERM');
    await Promise.all(
      servers.map((s) => (s.child.exitCode !== null ? undefined : new Promise((r) => s.child.once('exit', r)))),
    );
    servers = [];
    await sql?.end();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('the demo catalogue loaded once, and both processes sign the demo logins in', async () => {
    const { rows } = await sql!.query(`SELECT count(*)::int AS n FROM users WHERE email = 'broker.admin@demo.test'`);
    expect(rows[0].n).toBe(1);
    await signIn(servers[0], 'broker.admin@demo.test');
    await signIn(servers[1], 'broker.admin@demo.test');
  });

  it('refresh grace: 10 concurrent refreshes of one token over both processes return one successor', async () => {
    const pair = await signIn(servers[0], 'broker.user@demo.test');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call(either(i), 'POST', '/api/v1/auth/refresh', { refresh: pair.refresh })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.refresh)).size).toBe(1);
    expect(answers[0].body.refresh).not.toBe(pair.refresh);
    // The successor works on either process.
    expect((await call(servers[1], 'POST', '/api/v1/auth/refresh', { refresh: answers[0].body.refresh })).status).toBe(
      200,
    );
  });

  it('sign-in throttling: failures on both processes count together, and the lockout holds on both', async () => {
    const email = 'financier.admin@demo.test';
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_POLICY.accountAllowance; i += 1) {
      statuses.push((await call(either(i), 'POST', '/api/v1/auth/login', { email, password: `wrong-${i}` })).status);
    }
    expect(statuses).toEqual(Array(SIGN_IN_POLICY.accountAllowance).fill(401));
    for (const server of servers) {
      const res = await call(server, 'POST', '/api/v1/auth/login', { email, password: DEMO_PASSWORD });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('daily allowance L = 5: 15 concurrent calculator runs over both processes, exactly 5 succeed', async () => {
    const L = 5;
    await sql!.query(
      `UPDATE organisations SET plan_overrides = $1::jsonb WHERE id = (SELECT organisation_id FROM users WHERE email = 'free.broker@demo.test')`,
      [JSON.stringify({ calculator_allowance: L })],
    );
    const { access } = await signIn(servers[1], 'free.broker@demo.test');
    const deal = {
      cost: '55000',
      cost_gst: true,
      asset_value: 11,
      term: 60,
      advance_arrears: 'arrears',
      repayment_frequency: 'monthly',
    };
    const answers = await Promise.all(
      Array.from({ length: 3 * L }, (_, i) => call(either(i), 'POST', '/api/v1/calculator', deal, access)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(L);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(2 * L);
    expect(refused[0].body).toMatchObject({ error: 'cap_hit', metric: 'calculator', limit: L, used: L });
  });

  it('rate cards: a bracket changed through one process is priced at the new rate by the other on its next request', async () => {
    await sql!.query('DELETE FROM sign_in_throttles'); // the throttling test above locked this login out
    const admin = await signIn(servers[0], 'financier.admin@demo.test');
    const broker = await signIn(servers[1], 'broker.user@demo.test');
    const deal = {
      cost: '55000',
      cost_gst: true,
      asset_value: 11,
      term: 60,
      advance_arrears: 'arrears',
      repayment_frequency: 'monthly',
    };
    const priced = async () => (await call(servers[1], 'POST', '/api/v1/calculator', deal, broker.access)).body.results;
    const row = (await priced()).find((r: { organisation_id: number }) => r.organisation_id === 1);
    const changed = await fetch(`${servers[0].url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.access}` },
      body: JSON.stringify({
        query:
          'mutation($id: Int!) { updateRateBracket(id: $id, input: {base_min: 2.22, base_max: 20}) { __typename } }',
        variables: { id: row.rate_bracket_id },
      }),
    }).then((r) => r.json());
    expect(changed.data.updateRateBracket.__typename).toBe('RateCardChange');
    const after = (await priced()).find((r: { rate_bracket_id: number }) => r.rate_bracket_id === row.rate_bracket_id);
    expect(Number(after.base_min)).toBe(2.22);
  });

  it('seats: one free seat, 20 concurrent reactivations over both processes, exactly one 200', async () => {
    const {
      rows: [org],
    } = await sql!.query(
      `SELECT o.id, o.plan, (SELECT count(*)::int FROM users u WHERE u.organisation_id = o.id AND u.is_active) AS active
         FROM organisations o JOIN users a ON a.organisation_id = o.id WHERE a.email = 'broker.admin@demo.test'`,
    );
    expect(org).toMatchObject({ plan: 'pro', active: 2 }); // Pro: 3 seats, so one is free
    const { rows: candidates } = await sql!.query(
      `INSERT INTO users (email, password_hash, organisation_id, is_active, is_email_verified)
       SELECT 'seat.' || g || '@demo.test', 'x', $1, false, true FROM generate_series(1, 20) g RETURNING id`,
      [org.id],
    );
    const { access } = await signIn(servers[0], 'broker.admin@demo.test');
    const answers = await Promise.all(
      candidates.map((c, i) => call(either(i), 'PUT', `/api/v1/users/${c.id}`, { is_active: true }, access)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const {
      rows: [after],
    } = await sql!.query(`SELECT count(*)::int AS n FROM users WHERE organisation_id = $1 AND is_active`, [org.id]);
    expect(after.n).toBe(3);
  });

  // After the tests above, on the same two processes (the throttling test's lockout is cleared first).
  describe('The pricing snapshot sees a rate-card change, and a restore, on the next request in every process', () => {
    /** The pricing deal of test/rate-cards/pricing-sees-change.test.ts: financier 1 prices it. */
    const DEAL = { cost: 50000, asset_value: 11, term: 48, advance_arrears: 'arrears', repayment_frequency: 'monthly' };
    let admin: string; // financier.admin: writes through process A
    let broker: string; // broker.admin: prices through process B

    const graphql = async (server: Server, token: string, query: string, variables?: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      const out = await res.json();
      if (out.errors) throw new Error(JSON.stringify(out.errors));
      return out.data;
    };
    /** Financier 1's row for DEAL, priced by process B. */
    const pricedByB = async () => {
      const res = await call(servers[1], 'POST', '/api/v1/calculator', DEAL, broker);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.results.find((r: { organisation_id: number }) => r.organisation_id === 1);
    };
    /** Financier 1's rate-card restore points, newest first, as process A lists them. */
    const listedByA = async (): Promise<{ id: number; reason: string }[]> =>
      (
        await graphql(
          servers[0],
          admin,
          `{ rateCardVersions(resource: rate_card, first: 10) {
            ... on QueryRateCardVersionsConnection { edges { node { id reason } } } } }`,
        )
      ).rateCardVersions.edges.map((e: { node: { id: number; reason: string } }) => e.node);

    beforeAll(async () => {
      await sql!.query('DELETE FROM sign_in_throttles');
      // Metered calls are not what this checks: lift the broker's daily allowance.
      await sql!.query(
        `UPDATE organisations SET plan_overrides = $1::jsonb
          WHERE id = (SELECT organisation_id FROM users WHERE email = 'broker.admin@demo.test')`,
        [JSON.stringify({ calculator_allowance: null, matrix_allowance: null })],
      );
      admin = (await signIn(servers[0], 'financier.admin@demo.test')).access;
      broker = (await signIn(servers[1], 'broker.admin@demo.test')).access;
    });

    it("a bracket's base rate changed through A is priced at the new rate by B's next request; a restore through A, at the old", async () => {
      const row = await pricedByB(); // B's snapshot is loaded and warm
      expect(row).toBeDefined();
      const bracketId: number = row.rate_bracket_id;
      const before: string = row.base_min;
      expect(Number(before)).not.toBe(3.33);

      // A change that changes nothing records a restore point of the card as it is now, whatever ran before.
      await graphql(servers[0], admin, 'mutation($id: Int!) { updateRateBracket(id: $id, input: {}) { __typename } }', {
        id: bracketId,
      });
      const changed = await graphql(
        servers[0],
        admin,
        `mutation($id: Int!) { updateRateBracket(id: $id, input: {base_min: 3.33, base_max: 19}) {
          __typename ... on RateCardChange { restore_point { id } } } }`,
        { id: bracketId },
      );
      expect(changed.updateRateBracket.__typename).toBe('RateCardChange');
      const afterChange = await pricedByB();
      expect(afterChange.rate_bracket_id).toBe(bracketId);
      expect(Number(afterChange.base_min)).toBe(3.33);

      // The version to restore: the restore point listed just before the change's own (the card before the change).
      const listed = await listedByA();
      const changeAt = listed.findIndex((v) => v.id === changed.updateRateBracket.restore_point.id);
      expect(changeAt).toBe(0); // the change is the newest
      const earlier = listed[changeAt + 1];
      expect(earlier).toBeDefined();
      const restored = await call(servers[0], 'POST', `/api/v1/rate-card-versions/${earlier.id}/restore`, {}, admin);
      expect(restored.status, JSON.stringify(restored.body)).toBe(200);

      const afterRestore = await pricedByB();
      expect(afterRestore.rate_bracket_id).toBe(bracketId);
      expect(afterRestore.base_min).toBe(before);
    });
  });
});
