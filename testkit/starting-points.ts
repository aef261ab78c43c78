/**
 * Starting points: a database already migrated (`none`) or migrated and loaded with the demo catalogue (`demo`),
 * copied for each test file instead of every file migrating and seeding its own; PGlite also has `empty`, a cluster
 * just made with nothing migrated, for tests whose subject is the migrations (making a cluster costs seconds).
 * PGlite: a dump of the data directory, kept between runs in node_modules/.cache and remade only when what it is made
 * from changes (the migrations, the demo catalogue, the code that loads it, PGlite's version: startingPointsKey).
 * PostgreSQL (TEST_DATABASE_URL): a template database per run each file's fresh database is created from. Outside a
 * test run (the benchmark) none exist and startTestApp migrates and seeds as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database } from '../src/lib/db.ts';
import { DEMO_CATALOGUE_PATH } from './demo.ts';
import { testPasswordHash } from './passwords.ts';
import { captureStartingState, writeStartingState } from './pglite-reuse.ts';
import { freshPostgres } from './postgres.ts';

export type StartingPoint = 'none' | 'demo';
const STARTING_POINTS: StartingPoint[] = ['none', 'demo'];
/** PGlite's starting points: also a cluster with nothing migrated. */
export type PgliteStartingPoint = StartingPoint | 'empty';
const PGLITE_STARTING_POINTS: PgliteStartingPoint[] = ['empty', ...STARTING_POINTS];

/** Where a run's starting points are, for the test files' processes (set by the global setup). */
const PGLITE_DIR_ENV = 'TEST_PGLITE_STARTING_POINTS';
const POSTGRES_TEMPLATE_ENV = 'TEST_POSTGRES_TEMPLATE_';

/** Loads the demo catalogue by the service's own loader; returns the file as parsed. */
export async function loadDemoCatalogue(database: Database) {
  const { parseCatalogueFile } = await import('../src/modules/catalogue/catalogue-file.ts');
  const { loadCatalogue } = await import('../src/modules/catalogue/load-catalogue.ts');
  const parsed = parseCatalogueFile(JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8')));
  if (!parsed.ok) throw new Error(`demo catalogue: ${parsed.path}: ${parsed.message}`);
  await loadCatalogue(database.prisma, parsed.value, { reset: false });
  return parsed.value;
}

/**
 * The demo catalogue as a starting point holds it: loaded by the service's own loader, then each demo user's password
 * hashed again at the test cost (testkit/passwords.ts), since most test files sign in as demo users.
 */
async function loadDemoStartingPoint(database: Database): Promise<void> {
  const catalogue = await loadDemoCatalogue(database);
  for (const { email, password } of catalogue.users ?? []) {
    if (typeof password !== 'string') continue;
    await database.prisma.user.update({ where: { email }, data: { password_hash: await testPasswordHash(password) } });
  }
}

/**
 * A dump held in memory, read as a Blob. Node's own Blob copies its bytes through a chunked internal reader both when
 * it is made and when it is read (`arrayBuffer()`, as PGlite reads a dump): for a dump of tens of megabytes that was a
 * large share of each test file's start. This one reads the worker's bytes with one copy; every other Blob method
 * (stream, slice, text) still works through Blob itself, on the same bytes.
 */
class HeldDump extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([bytes]);
    this.#bytes = bytes;
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    // A copy: the opened database may write into what it reads, and the next file opens the same dump.
    return this.#bytes.slice().buffer;
  }
}

/** Dumps this worker has read, by file: test files share their worker (vitest.config.ts), so each is read once. */
const heldDumps = new Map<string, HeldDump>();

/** The file of a starting point's PGlite dump (a tar of the data directory), when this run made one. */
export function pgliteStartingPointFile(point: PgliteStartingPoint): string | undefined {
  const dir = process.env[PGLITE_DIR_ENV];
  return dir ? path.join(dir, `${point}.tar`) : undefined;
}

/** The PGlite dump of a starting point, when this run made one. */
export function pgliteStartingPoint(point: PgliteStartingPoint): Blob | undefined {
  const file = pgliteStartingPointFile(point);
  if (!file) return undefined;
  let dump = heldDumps.get(file);
  if (!dump) {
    dump = new HeldDump(new Uint8Array(readFileSync(file)));
    heldDumps.set(file, dump);
  }
  return dump;
}

/** The PostgreSQL template database of a starting point, when this run made one. */
export function postgresStartingPoint(point: StartingPoint): string | undefined {
  return process.env[`${POSTGRES_TEMPLATE_ENV}${point.toUpperCase()}`] || undefined;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every file under `dir`, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

/** `entries` and every source file they import by a relative path, transitively. */
function importClosure(entries: string[]): string[] {
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.ts)'/g)) {
      pending.push(path.resolve(path.dirname(file), spec));
    }
  }
  return [...seen].sort();
}

/**
 * What the PGlite starting points are made from, as one hash: the migrations, the demo catalogue, the code that opens,
 * migrates and seeds (followed through its relative imports), and the PGlite and Prisma versions installed.
 */
function startingPointsKey(): string {
  const hash = createHash('sha256');
  const files = [
    ...filesUnder(path.join(ROOT, 'prisma/migrations')),
    DEMO_CATALOGUE_PATH,
    ...importClosure([
      path.join(ROOT, 'src/lib/db.ts'),
      path.join(ROOT, 'src/modules/catalogue/load-catalogue.ts'),
      path.join(ROOT, 'testkit/starting-points.ts'),
    ]),
    path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'),
    path.join(ROOT, 'node_modules/@prisma/client/package.json'),
  ];
  for (const file of files) {
    hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Readies a PGlite starting point for its dump. Every test file's open unpacks the whole dump, file by file, so what no
 * test uses is left out: the template databases (CREATE DATABASE's sources) were more than half of its files and a
 * third of its bytes, and a test's database is the one PGlite opens (no test creates another). Its rows are then
 * written as a reset writes them (pglite-reuse.ts), so a reused instance and a fresh copy hold the same pages, and a
 * checkpoint puts everything written in the data files, so an open from the dump has no WAL to replay.
 */
async function trimForDump(pglite: PGlite): Promise<void> {
  // A point made from an earlier point's copy has none left to drop.
  const templates = await pglite.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname IN ('template0', 'template1')",
  );
  for (const { datname } of templates.rows) {
    await pglite.exec(`ALTER DATABASE ${datname} IS_TEMPLATE false`);
    await pglite.exec(`DROP DATABASE ${datname}`);
  }
  await writeStartingState(pglite, await captureStartingState(pglite));
  await pglite.exec('CHECKPOINT');
}

/** Makes (or finds, unchanged since an earlier run) the run's starting points and publishes them in process.env. */
export async function makeStartingPoints(postgresUrl: string | null): Promise<() => Promise<void>> {
  const cleanups: (() => Promise<void>)[] = [];
  const cache = path.join(ROOT, 'node_modules/.cache/asset-finance-starting-points');
  const key = startingPointsKey();
  const dir = path.join(cache, key);
  mkdirSync(dir, { recursive: true });
  // Starting points of older code go once they are a day old (a run still using them is long finished).
  for (const other of readdirSync(cache)) {
    const otherDir = path.join(cache, other);
    if (other !== key && statSync(otherDir).mtimeMs < Date.now() - 86_400_000) {
      rmSync(otherDir, { recursive: true, force: true });
    }
  }
  // Each point is made from a copy of the one before it, when this run has that one: the cluster is made once.
  let previous: Blob | undefined;
  for (const point of PGLITE_STARTING_POINTS) {
    const file = path.join(dir, `${point}.tar`);
    if (existsSync(file)) {
      previous = undefined;
      continue;
    }
    const pglite = new PGlite(previous ? { loadDataDir: previous } : {});
    const database = await openDatabase({ databaseUrl: null, dataDir: ':memory:', migrate: point !== 'empty', pglite });
    if (point === 'demo') await loadDemoStartingPoint(database);
    await trimForDump(pglite);
    // Written aside and renamed: a run started at the same moment never reads half a dump.
    const partial = `${file}.${process.pid}.partial`;
    previous = await database.dumpDataDir!();
    writeFileSync(partial, Buffer.from(await previous.arrayBuffer()));
    renameSync(partial, file);
    await database.close();
  }
  process.env[PGLITE_DIR_ENV] = dir;
  if (postgresUrl) {
    for (const point of STARTING_POINTS) {
      const template = await freshPostgres(postgresUrl, 'template');
      cleanups.push(template.drop);
      const database = await openDatabase({ databaseUrl: template.url, dataDir: ':memory:' });
      if (point === 'demo') await loadDemoStartingPoint(database);
      await database.close(); // a template must have no connections when it is copied
      process.env[`${POSTGRES_TEMPLATE_ENV}${point.toUpperCase()}`] = template.name;
    }
  }
  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
}
