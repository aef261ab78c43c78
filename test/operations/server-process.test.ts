/**
 * The real server as operators run it (`node --import tsx src/main.ts`, and `npm start`; PGlite in a temporary
 * DATA_DIR holding a database copied from a starting point), spawned as separate processes: a later start on demo
 * data, two processes on one data directory, a killed owner's stale lock, graceful shutdown on SIGTERM, prod on an
 * empty database with its request log, stopped through npm, and which of them loads GraphiQL's bundle. A first start
 * (a new data directory) is in server-start.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/lib/data-dir-lock.ts';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../../src/lib/startup.ts';
import {
  cleanUpSpawned,
  connectionRefused,
  freePort,
  preparedDataDir,
  processAlive,
  reportResolved,
  run,
  runCommand,
  server,
  type Proc,
} from '../../testkit/spawned.ts';

afterAll(cleanUpSpawned);

/** GraphiQL's offline bundle: each spawned server reports on stdout when a module of it is resolved. */
const GRAPHIQL_BUNDLE = '@graphql-yoga/render-graphiql';
const REPORT_BUNDLE = { NODE_OPTIONS: reportResolved(GRAPHIQL_BUNDLE) };
/**
 * The first server on demo data (local): the first rule below starts it (or the GraphiQL rule, run alone); the
 * GraphiQL rule reads what it printed.
 */
let demoServer: Promise<{ p: Proc; port: number; dataDir: string }> | undefined;
function demo(): Promise<{ p: Proc; port: number; dataDir: string }> {
  demoServer ??= (async () => {
    const dataDir = preparedDataDir('demo');
    const port = await freePort();
    const p = server({ SERVICE_ENVIRONMENT: 'local', PORT: String(port), DATA_DIR: dataDir, ...REPORT_BUNDLE });
    await p.waitForStdout(/serving on/);
    return { p, port, dataDir };
  })();
  return demoServer;
}

// Each start loads the whole app through tsx: seconds each on a loaded 2-core machine.
const SLOW = { timeout: 240_000 };

describe('one process per DATA_DIR; a start on demo data; graceful shutdown', SLOW, () => {
  const demoLoginsLine = `Demo logins (password ${DEMO_PASSWORD}): ${DEMO_LOGINS.join(', ')}`;
  let dataDir: string;
  let port: number;
  let first: Proc;

  it('a start on data that holds the demo accounts loads nothing and prints their logins', async () => {
    ({ p: first, port, dataDir } = await demo());
    expect(first.stdout()).not.toContain('demo catalogue');
    expect(first.stdout()).not.toContain('demo data loaded');
    expect(first.stdout()).toContain(demoLoginsLine);
  });

  it('a second server on the same DATA_DIR is refused, naming the holder', async () => {
    const second = server({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exit).toBe(1);
    expect(second.stderr().trim()).toMatch(/^Cannot start: DATA_DIR .* is in use by process \d+ \(server\)/);
    expect(second.stdout()).not.toMatch(/serving/);
  });

  it('npm run seed on the same DATA_DIR is refused, nothing written', async () => {
    const seed = run('scripts/seed.ts', ['--file', 'prisma/seed/demo-catalogue.json'], { DATA_DIR: dataDir });
    expect(await seed.exit).toBe(1);
    expect(seed.stderr()).toMatch(/refused, nothing written: DATA_DIR .* is in use by process \d+ \(server\)/);
  });

  it('a killed server leaves a stale lock that the next start takes over', async () => {
    const holder = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as { pid: number };
    process.kill(holder.pid, 'SIGKILL');
    await first.exit;
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true); // nothing cleaned up after kill -9
    first = server({ SERVICE_ENVIRONMENT: 'local', PORT: String(port), DATA_DIR: dataDir });
    await first.waitForStdout(/serving on/);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  });

  it('SIGTERM: stops accepting, finishes the in-flight request, closes the database, exits 0', async () => {
    // An idle keep-alive connection must not hold the shutdown up.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // The in-flight request: its body arrives slowly, half before the signal, half after.
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not-a-password' });
    let status = 0;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<void>((resolve, reject) => {
      req.on('response', (res) => {
        status = res.statusCode!;
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
    await new Promise<void>((resolve) => req.write(body.slice(0, 10), () => resolve()));
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill('SIGTERM');
    let refused = false;
    for (let i = 0; i < 100 && !refused; i += 1) {
      refused = await connectionRefused(port);
      if (!refused) await new Promise((r) => setTimeout(r, 50));
    }
    expect(refused).toBe(true); // new connections are refused while the request is still in flight
    req.end(body.slice(10));
    await answered;
    expect(status).toBe(401); // the in-flight request was answered
    expect(await first.exit).toBe(0);
    expect(first.stderr()).toMatch(/"event":"shutdown.done".*"outcome":"drained"/);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });
});

/**
 * One prod server on an empty (migrated) database, started by `npm start` as operators start it, for the three rules
 * below; started by the first that needs it, stopped by the last.
 */
let prodServer: Promise<{ npm: Proc; port: number; dataDir: string }> | undefined;
function prod(): Promise<{ npm: Proc; port: number; dataDir: string }> {
  prodServer ??= (async () => {
    const port = await freePort();
    const dataDir = preparedDataDir('none');
    const npm = runCommand('npm', ['start', '--silent'], { PORT: String(port), DATA_DIR: dataDir, ...REPORT_BUNDLE });
    await npm.waitForStdout(/serving on/);
    return { npm, port, dataDir };
  })();
  return prodServer;
}

describe('prod on an empty database loads no demo data', SLOW, () => {
  it('starts with no demo accounts, prints no password, and says once that it is single-process only', async () => {
    const { npm: p, port } = await prod();
    expect(p.stdout()).not.toContain('demo-password-1');
    expect(p.stdout()).not.toContain('@demo.test');
    expect(p.stdout()).not.toContain('demo catalogue');
    expect(p.stdout()).not.toMatch(/Starting: applying migration/);
    const warnings = p
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"event":"startup.embedded_database_in_prod"'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/one process only/),
    });
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'broker.admin@demo.test', password: 'demo-password-1' }),
    });
    expect(login.status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  });
});

describe('one JSON log line per request, with its request id, never a token or password', SLOW, () => {
  it('logs method, route template, path, status and duration, and echoes the request id', async () => {
    const { npm: p, port } = await prod();
    const secretPassword = 'correct-horse-battery-staple';
    const secretToken = 'service_sk_live_0123456789abcdefSECRET';
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-42' },
      body: JSON.stringify({ email: 'nobody@example.com', password: secretPassword }),
    });
    expect(login.headers.get('x-request-id')).toBe('trace-42');
    const put = await fetch(`http://127.0.0.1:${port}/api/v1/users/7`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${secretToken}`, 'x-request-id': 'not a sane id!' },
    });
    const generated = put.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);

    // Each line is written as its request is answered; the pipe may deliver it a moment later.
    for (let i = 0; i < 100 && !(p.stderr().includes('trace-42') && p.stderr().includes(generated!)); i += 1) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const lines = p
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const requests = lines.filter((l) => l.event === 'http.request');
    expect(requests.find((l) => l.request_id === 'trace-42')).toMatchObject({
      req: { method: 'POST', path: '/api/v1/auth/login' },
      route: '/api/v1/auth/login',
      res: { status: 401 },
      duration_ms: expect.any(Number),
    });
    expect(requests.find((l) => l.request_id === generated)).toMatchObject({
      route: '/api/v1/users/:id',
      res: { status: 401 },
    });
    expect(p.stderr()).not.toContain(secretPassword);
    expect(p.stderr()).not.toContain(secretToken);
  });
});

describe(
  'GraphiQL costs prod nothing: its bundle loads once a server serves outside prod, never at start',
  SLOW,
  () => {
    it('the local server resolves it only after it serves; the prod server, asked for the page, never does', async () => {
      const { npm, port } = await prod();
      const page = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } });
      expect(page.headers.get('content-type')).not.toMatch(/text\/html/);
      expect(npm.stdout()).toMatch(/serving on/);
      expect(npm.stdout()).not.toContain(`RESOLVED ${GRAPHIQL_BUNDLE}`);
      // The hook does report it: the local server imports the bundle right after it serves (src/main.ts).
      const local = (await demo()).p;
      await local.waitForStdout(new RegExp(`RESOLVED ${GRAPHIQL_BUNDLE}`));
      const out = local.stdout();
      expect(out.indexOf(`RESOLVED ${GRAPHIQL_BUNDLE}`)).toBeGreaterThan(out.indexOf('serving on'));
    });
  },
);

describe('SIGTERM to `npm start` stops the server itself', SLOW, () => {
  it('the server process exits and releases the data-directory lock', async () => {
    const { npm, dataDir } = await prod();
    const lock = path.join(dataDir, LOCK_FILE);
    const { pid } = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
    expect(pid).not.toBe(npm.child.pid);
    npm.child.kill('SIGTERM');
    await npm.exit;
    // The server's graceful shutdown takes a moment after npm has gone; it must end, not outlive npm.
    for (let i = 0; i < 200 && processAlive(pid); i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(lock)).toBe(false);
  });
});
