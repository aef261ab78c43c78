/**
 * The real server as operators run it (`tsx src/main.ts`, PGlite in a temporary DATA_DIR), spawned as separate
 * processes: a busy port, two processes on one data directory, prod on an empty database, a killed owner's stale
 * lock, and graceful shutdown on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/lib/data-dir-lock.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const JWT_SECRET = 'a'.repeat(64);
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'asset-finance-ops-'));
  dirs.push(dir);
  return path.join(dir, 'data');
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

interface Proc {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
  waitForStdout(pattern: RegExp): Promise<void>;
}

function run(script: string, args: string[], env: Record<string, string>): Proc {
  const { DATABASE_URL: _a, TEST_DATABASE_URL: _b, JWT_SECRET: _c, ...inherited } = process.env;
  const child = spawn(TSX, [script, ...args], {
    cwd: ROOT,
    env: { ...inherited, NODE_ENV: 'production', JWT_SECRET, SERVICE_ENVIRONMENT: 'prod', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exit,
    stdout: () => out,
    stderr: () => err,
    waitForStdout: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) {
            child.stdout!.off('data', check);
            resolve();
          }
        };
        child.stdout!.on('data', check);
        check();
        void exit.then((code) => reject(new Error(`exited ${code} before ${pattern}:\n${out}\n${err}`)));
      }),
  };
}

const server = (env: Record<string, string>) => run('src/main.ts', [], env);

async function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

function filesWithGroupOrOtherAccess(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) found.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(path.join(p, e));
  };
  walk(dir);
  return found;
}

// Each start initialises a PGlite data directory: tens of seconds on a loaded 2-core machine.
const SLOW = { timeout: 240_000 };

describe('a busy port ends the start with exit 1 and one clear line', SLOW, () => {
  it('does not print that it serves, and leaves no lock behind', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, r));
    const port = (holder.address() as net.AddressInfo).port;
    const dataDir = tempDataDir();
    const p = server({ PORT: String(port), DATA_DIR: dataDir });
    const code = await p.exit;
    holder.close();
    expect(code).toBe(1);
    expect(p.stderr().trim()).toBe(`Cannot start: cannot listen on port ${port}: the address is already in use`);
    expect(p.stdout()).not.toMatch(/serving/);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });
});

describe('one process per DATA_DIR; prod loads no demo data; graceful shutdown', SLOW, () => {
  const dataDir = tempDataDir();
  let port: number;
  let first: Proc;

  it('prod on an empty database starts with no demo accounts and prints no password', async () => {
    port = await freePort();
    first = server({ PORT: String(port), DATA_DIR: dataDir });
    await first.waitForStdout(/serving on/);
    expect(first.stdout()).not.toContain('demo-password-1');
    expect(first.stdout()).not.toContain('@demo.test');
    // A first start says what it is doing before it serves: opening, each migration; prod loads no demo catalogue.
    const out = first.stdout();
    expect(out).toMatch(/^Starting: opening embedded PostgreSQL/);
    expect(out.indexOf('Starting: applying migration')).toBeLessThan(out.indexOf('serving on'));
    expect(out).not.toContain('demo catalogue');
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'broker.admin@demo.test', password: 'demo-password-1' }),
    });
    expect(login.status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  });

  it('the data directory and its files are readable by their owner only', () => {
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(filesWithGroupOrOtherAccess(dataDir)).toEqual([]);
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
    first = server({ PORT: String(port), DATA_DIR: dataDir });
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

describe('one JSON log line per request, with its request id, never a token or password', SLOW, () => {
  it('logs method, route template, path, status and duration, and echoes the request id', async () => {
    const port = await freePort();
    const p = server({ PORT: String(port), DATA_DIR: tempDataDir() });
    await p.waitForStdout(/serving on/);
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
    p.child.kill('SIGTERM');
    await p.exit;

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
