/** `npm run db:migrate`: applies prisma/migrations to the configured database (the app also does this at start). */
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/lib/db.ts';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  console.log(`migrations applied to ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}`);
  await database.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
