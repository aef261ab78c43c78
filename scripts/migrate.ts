/** `npm run db:migrate`: applies prisma/migrations to the configured database (the app also does this at start). */
import { ConfigError, loadConfig } from '../src/lib/config.ts';
import { openDatabase } from '../src/lib/db.ts';
import { DataDirLockedError } from '../src/lib/data-dir-lock.ts';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config,
    lockOwner: 'migrate',
  });
  console.log(`migrations applied to ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}`);
  await database.close();
}
main().catch((e) => {
  // A refused start (bad configuration, data directory in use) is one line; anything else keeps its stack.
  console.error(e instanceof ConfigError || e instanceof DataDirLockedError ? `Cannot migrate: ${e.message}` : e);
  process.exit(1);
});
