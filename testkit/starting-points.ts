/**
 * Starting points: a database already migrated (`none`) or migrated and loaded with the demo catalogue (`demo`),
 * made once per test run (test/global-setup.ts) and copied for each test file, instead of every file migrating and
 * seeding its own. PGlite: a dump of the data directory in a temporary folder; PostgreSQL (TEST_DATABASE_URL): a
 * template database each file's fresh database is created from. Outside a test run (the benchmark) none exist and
 * startTestApp migrates and seeds as before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../src/lib/db.ts';
import { DEMO_CATALOGUE_PATH } from './demo.ts';
import { freshPostgres } from './postgres.ts';

export type StartingPoint = 'none' | 'demo';
const STARTING_POINTS: StartingPoint[] = ['none', 'demo'];

/** Where a run's starting points are, for the test files' processes (set by the global setup). */
const PGLITE_DIR_ENV = 'TEST_PGLITE_STARTING_POINTS';
const POSTGRES_TEMPLATE_ENV = 'TEST_POSTGRES_TEMPLATE_';

export async function loadDemoCatalogue(database: Database): Promise<void> {
  const { parseCatalogueFile } = await import('../src/modules/catalogue/catalogue-file.ts');
  const { loadCatalogue } = await import('../src/modules/catalogue/load-catalogue.ts');
  const parsed = parseCatalogueFile(JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8')));
  if (!parsed.ok) throw new Error(`demo catalogue: ${parsed.path}: ${parsed.message}`);
  await loadCatalogue(database.prisma, parsed.value, { reset: false });
}

/** The PGlite dump of a starting point, when this run made one. */
export function pgliteStartingPoint(point: StartingPoint): Blob | undefined {
  const dir = process.env[PGLITE_DIR_ENV];
  return dir ? new Blob([readFileSync(path.join(dir, `${point}.tar`))]) : undefined;
}

/** The PostgreSQL template database of a starting point, when this run made one. */
export function postgresStartingPoint(point: StartingPoint): string | undefined {
  return process.env[`${POSTGRES_TEMPLATE_ENV}${point.toUpperCase()}`] || undefined;
}

/** Makes the run's starting points and publishes them in process.env; answers the clean-up. */
export async function makeStartingPoints(postgresUrl: string | null): Promise<() => Promise<void>> {
  const cleanups: (() => Promise<void>)[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'asset-finance-starting-points-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  for (const point of STARTING_POINTS) {
    const database = await openDatabase({ databaseUrl: null, dataDir: ':memory:' });
    if (point === 'demo') await loadDemoCatalogue(database);
    writeFileSync(path.join(dir, `${point}.tar`), Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
    await database.close();
  }
  process.env[PGLITE_DIR_ENV] = dir;
  if (postgresUrl) {
    for (const point of STARTING_POINTS) {
      const template = await freshPostgres(postgresUrl, 'template');
      cleanups.push(template.drop);
      const database = await openDatabase({ databaseUrl: template.url, dataDir: ':memory:' });
      if (point === 'demo') await loadDemoCatalogue(database);
      await database.close(); // a template must have no connections when it is copied
      process.env[`${POSTGRES_TEMPLATE_ENV}${point.toUpperCase()}`] = template.name;
    }
  }
  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
}
