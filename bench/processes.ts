/**
 * Server processes as deployed: `node --import tsx src/main.ts` with the environment a deployment gives it, on a
 * database the bench prepared (PostgreSQL only: PGlite is one process's embedded database). As in
 * test/operations/two-processes.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

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

/** Starts one server process on `databaseUrl` (already migrated and seeded) and waits until /healthz answers. */
export async function startServerProcess(databaseUrl: string, jwtSecret: string): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-server-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: jwtSecret,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SERVICE_ENVIRONMENT: 'local',
    NODE_ENV: 'production',
    // A log line per request would be CPU the in-process app of the same bench does not spend.
    LOG_REQUESTS: 'false',
  };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TRUST_PROXY') delete env[key];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let k = 0; k < 600; k++) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server process exited ${child.exitCode}:\n${output.join('')}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, pid: child.pid!, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`server process not ready after 60 s:\n${output.join('')}`);
}
