/**
 * Fresh, empty PostgreSQL databases next to a given server URL's database: one per test file (TEST_DATABASE_URL) or per
 * benchmark app (BENCH_DATABASE_URL). Each is dropped by its own drop(); dropFreshDatabases() drops any still left
 * (a run that failed or was interrupted before closing its apps).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface FreshDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Not yet dropped, by name: the server URL each was made through. */
const undropped = new Map<string, string>();

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * `prefix` names the database (`prefix_<12 hex>`): lowercase letters and underscores only, as it is not quoted.
 * `template`: a database (with no connections) to copy, such as one already migrated and seeded.
 */
export async function freshPostgres(serverUrl: string, prefix = 'test', template?: string): Promise<FreshDatabase> {
  if (!/^[a-z_]+$/.test(prefix)) throw new Error(`freshPostgres: bad prefix ${JSON.stringify(prefix)}`);
  if (template !== undefined && !/^[a-z0-9_]+$/.test(template))
    throw new Error(`freshPostgres: bad template ${JSON.stringify(template)}`);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  undropped.set(name, serverUrl);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      undropped.delete(name);
    },
  };
}

/** Drops every database this process made and has not dropped yet; reports (never throws) the ones it cannot. */
export async function dropFreshDatabases(): Promise<void> {
  for (const [name, serverUrl] of [...undropped]) {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((e) =>
      process.stderr.write(`could not drop database ${name}: ${(e as Error).message}\n`),
    );
    undropped.delete(name);
  }
}
