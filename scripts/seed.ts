/**
 * `npm run seed -- --file PATH [--reset]`: loads a catalogue file (docs/catalogue-format.md) into the configured
 * database (DATABASE_URL, or embedded PGlite in DATA_DIR). `--reset` empties every app table first. A bad file is
 * refused with the path of its first bad field and nothing is written. Like the server, it takes the PGlite data
 * directory's lock: while a server (or another seed) runs on DATA_DIR it is refused; stop the server first.
 * Exit codes: 0 loaded, 1 refused or failed, 2 usage.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../src/lib/config.ts';
import { openDatabase, type Database } from '../src/lib/db.ts';
import { DataDirLockedError } from '../src/lib/data-dir-lock.ts';
import {
  CATALOGUE_KEYS,
  CatalogueFileError,
  emptyExisting,
  parseCatalogueFile,
} from '../src/modules/catalogue/catalogue-file.ts';
import { loadCatalogue, readExistingCatalogue } from '../src/modules/catalogue/load-catalogue.ts';

const USAGE = 'usage: npm run seed -- --file PATH [--reset]';

async function main(): Promise<number> {
  let args: { file?: string; reset?: boolean; help?: boolean };
  try {
    args = parseArgs({
      options: { file: { type: 'string' }, reset: { type: 'boolean', default: false }, help: { type: 'boolean' } },
    }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.file) {
    console.error(`--file is required\n${USAGE}`);
    return 2;
  }
  const file = args.file;
  const reset = args.reset === true;

  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    console.error(`${file}: cannot read the catalogue file: ${(e as Error).message}`);
    return 1;
  }

  let config: Config;
  let db: Database;
  try {
    config = loadConfig();
    db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config,
      lockOwner: 'seed',
    });
  } catch (e) {
    if (e instanceof ConfigError || e instanceof DataDirLockedError) {
      console.error(`${file}: refused, nothing written: ${e.message}`);
      return 1;
    }
    throw e;
  }
  try {
    // A first check for a quick answer; loadCatalogue checks again inside its transaction.
    const checked = parseCatalogueFile(json, reset ? emptyExisting() : await readExistingCatalogue(db.prisma));
    if (!checked.ok) {
      console.error(`${file}: refused, nothing written.\n  ${checked.path}: ${checked.message}`);
      return 1;
    }
    const counts = await loadCatalogue(db.prisma, checked.value, { reset });
    const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
    console.log(`${file}: loaded into ${where}${reset ? ' (emptied first)' : ''}`);
    for (const key of CATALOGUE_KEYS) console.log(`  ${key.padEnd(20)} ${counts[key]}`);
    return 0;
  } catch (e) {
    if (e instanceof CatalogueFileError) console.error(`${file}: refused, nothing written.\n  ${e.path}: ${e.detail}`);
    else console.error(`${file}: loading failed, nothing written: ${(e as Error).message}`);
    return 1;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
