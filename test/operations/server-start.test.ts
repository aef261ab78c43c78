/**
 * An operator's first start, as spawned processes: a start refused for a busy port and its retry (the one first start
 * of the suite's spawned servers: a new data directory, every migration, the demo data). Servers on existing data, and
 * `npm start`, are in server-process.test.ts; starts refused by the database in server-refused.test.ts.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../../src/lib/startup.ts';
import { cleanUpSpawned, freePort, server, tempDataDir } from '../../testkit/spawned.ts';

afterAll(cleanUpSpawned);

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

// Each start initialises a PGlite data directory (and the demo data): tens of seconds on a loaded 2-core machine.
const SLOW = { timeout: 300_000 };

const demoLoginsLine = `Demo logins (password ${DEMO_PASSWORD}): ${DEMO_LOGINS.join(', ')}`;

describe('a busy port ends the start with exit 1 and one clear line, before the database is touched', SLOW, () => {
  const dataDir = tempDataDir();

  it('the refused start opens no database and leaves nothing behind; the retry on a free port starts', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, r));
    const busy = (holder.address() as net.AddressInfo).port;
    const refused = server({ SERVICE_ENVIRONMENT: 'local', PORT: String(busy), DATA_DIR: dataDir });
    expect(await refused.exit).toBe(1);
    holder.close();
    expect(refused.stderr().trim()).toBe(`Cannot start: cannot listen on port ${busy}: the address is already in use`);
    expect(refused.stdout()).not.toMatch(/serving/);
    // Refused at once: no migration ran, no demo data was loaded, the data directory was never made.
    expect(refused.stdout()).not.toMatch(/Starting:/);
    expect(existsSync(dataDir)).toBe(false);

    const retry = server({ SERVICE_ENVIRONMENT: 'local', PORT: String(await freePort()), DATA_DIR: dataDir });
    await retry.waitForStdout(/serving on/);
    const out = retry.stdout();
    // A first start says what it is doing before it serves: opening, each migration, then (outside prod) the demo data.
    expect(out).toMatch(/^Starting: opening embedded PostgreSQL/);
    expect(out.indexOf('Starting: applying migration')).toBeLessThan(out.indexOf('serving on'));
    expect(out).toContain('Starting: loading the demo catalogue');
    expect(out).toContain('demo data loaded');
    expect(out).toContain(demoLoginsLine);
    // What the first start made, the data directory and every file in it, only its owner may read.
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(filesWithGroupOrOtherAccess(dataDir)).toEqual([]);
    retry.child.kill('SIGTERM');
    expect(await retry.exit).toBe(0);
  });
});
