/**
 * The service as operators run it, as separate processes: spawn a command in the repository, read what it prints,
 * wait for a line, free ports, temporary data directories. Every process and directory made here is cleaned up by
 * cleanUpSpawned() (call it in afterAll).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pgliteStartingPointFile, type StartingPoint } from './starting-points.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** Long enough for the config check, and random-looking (not a placeholder). */
const JWT_SECRET = 'a'.repeat(64);

const dirs: string[] = [];
const children: ChildProcess[] = [];

export function cleanUpSpawned(): void {
  // Each child leads its own process group, so what it started goes too (`npm start`'s server outlives npm).
  for (const c of children) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      /* the group is gone */
    }
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

/** A DATA_DIR that does not exist yet, in a fresh temporary folder. */
export function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'asset-finance-ops-'));
  dirs.push(dir);
  return path.join(dir, 'data');
}

/**
 * A DATA_DIR already holding a database, the run's starting point (testkit/starting-points.ts) unpacked into the folder
 * the server keeps PGlite in (`DATA_DIR/pglite`, src/lib/db.ts): a start on it opens that database, with no cluster to
 * make and no migration or demo data to apply, which is most of a first start's time. For the tests whose subject is
 * not the first start. Outside a test run (no starting points) an empty DATA_DIR, as tempDataDir().
 */
export function preparedDataDir(point: StartingPoint): string {
  const dataDir = tempDataDir();
  const dump = pgliteStartingPointFile(point);
  if (!dump) return dataDir;
  const dir = path.join(dataDir, 'pglite');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The dump is a plain tar of the data directory (PGlite's dumpDataDir); its leading '/' is stripped.
  execFileSync('tar', ['-xf', dump, '-C', dir, '--no-same-owner', '--no-same-permissions'], { stdio: 'pipe' });
  return dataDir;
}

/** Removed by cleanUpSpawned(). */
export function removeLater(dir: string): void {
  dirs.push(dir);
}

export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

export interface Proc {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exit: Promise<number | null>;
  waitForStdout(pattern: RegExp): Promise<void>;
}

/**
 * Runs `command args` in the repository with the caller's environment minus any database URL and JWT secret, plus
 * NODE_ENV=production, a valid JWT_SECRET, SERVICE_ENVIRONMENT=prod, then `env`.
 */
export function runCommand(command: string, args: string[], env: Record<string, string>): Proc {
  const { DATABASE_URL: _a, TEST_DATABASE_URL: _b, JWT_SECRET: _c, ...inherited } = process.env;
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...inherited, NODE_ENV: 'production', JWT_SECRET, SERVICE_ENVIRONMENT: 'prod', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
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

/**
 * A TypeScript script of the repository, run as `npm start` runs the server: one node process with tsx's loader. (The
 * tsx command would put a relaying process in front, which SIGKILLs a child too busy to confirm a signal in 30 ms.)
 */
export function run(script: string, args: string[], env: Record<string, string>): Proc {
  return runCommand(process.execPath, ['--import', 'tsx', script, ...args], env);
}

/**
 * NODE_OPTIONS for a spawned process: a module-resolution hook (run in Node's loader thread) that prints
 * `RESOLVED <fragment>` on stdout each time a module whose URL contains `fragment` is resolved.
 */
export function reportResolved(fragment: string): string {
  const hook = `data:text/javascript,${encodeURIComponent(
    "import { writeSync } from 'node:fs';" +
      'export async function resolve(specifier, context, next) {' +
      '  const resolved = await next(specifier, context);' +
      `  if (resolved.url.includes(${JSON.stringify(fragment)})) writeSync(1, ${JSON.stringify(`RESOLVED ${fragment}\n`)});` +
      '  return resolved;' +
      '}',
  )}`;
  const registration = `import { register } from 'node:module'; register(${JSON.stringify(hook)});`;
  return `--import=data:text/javascript,${encodeURIComponent(registration)}`;
}

/** The server (`src/main.ts`). */
export const server = (env: Record<string, string>) => run('src/main.ts', [], env);

/** True when nothing listens on the port any more. */
export async function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

/** True while a process with this pid exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
