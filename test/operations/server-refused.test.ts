/**
 * Starts stopped by a database that cannot be reached, as spawned processes: exit 1 and one `Cannot start:` line
 * naming what to fix. The PostgreSQL cases need a real server (TEST_DATABASE_URL: the PostgreSQL pass).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUpSpawned, freePort, server } from '../../testkit/spawned.ts';

afterAll(cleanUpSpawned);

// Each start loads the whole app through tsx: seconds each on a loaded 2-core machine.
const SLOW = { timeout: 240_000 };

/** A start with this DATABASE_URL: exit 1 and exactly one line on stderr, which is returned. */
async function refusedStart(databaseUrl: string): Promise<string> {
  const p = server({ PORT: String(await freePort()), DATABASE_URL: databaseUrl, DATABASE_CONNECT_TIMEOUT_MS: '5000' });
  expect(await p.exit).toBe(1);
  expect(p.stdout()).not.toMatch(/serving/);
  const lines = p.stderr().trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0];
}

describe('a database that cannot be reached stops the start with one line naming what to fix', SLOW, () => {
  it('a refused port names the host and port and asks whether PostgreSQL runs there', async () => {
    const port = await freePort(); // nothing listens there
    const line = await refusedStart(`postgres://someone:hunter2-secret@127.0.0.1:${port}/asset_finance`);
    expect(line).toBe(
      `Cannot start: PostgreSQL at 127.0.0.1:${port} refused the connection: is it running there? (check DATABASE_URL: host and port)`,
    );
  });

  const serverUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!serverUrl)('PostgreSQL: a missing database says how to create it', async () => {
    const url = new URL(serverUrl!);
    url.pathname = '/no_such_database_here';
    const line = await refusedStart(url.toString());
    expect(line).toBe(
      `Cannot start: PostgreSQL at ${url.hostname}:${url.port || '5432'} has no database "no_such_database_here": ` +
        'create it (createdb no_such_database_here, or CREATE DATABASE no_such_database_here;) or check DATABASE_URL',
    );
  });

  it.skipIf(!serverUrl)('PostgreSQL: a wrong password names the user and never prints the password', async () => {
    const url = new URL(serverUrl!);
    url.password = 'certainly-not-the-password';
    const line = await refusedStart(url.toString());
    expect(line).toBe(
      `Cannot start: PostgreSQL at ${url.hostname}:${url.port || '5432'} refused the password for user "${decodeURIComponent(url.username)}" (check DATABASE_URL)`,
    );
    expect(line).not.toContain('certainly-not-the-password');
  });
});
