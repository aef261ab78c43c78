/** config -> database (migrated) -> demo data on an empty database -> app -> listen; graceful shutdown. */
import './env.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './lib/db.ts';
import { logger } from './lib/logger.ts';
import { createApp } from './app.ts';
import { parseCatalogueFile } from './modules/catalogue/catalogue-file.ts';
import { isDatabaseEmpty, loadCatalogue } from './modules/catalogue/load-catalogue.ts';

export const DEMO_CATALOGUE = path.resolve(import.meta.dirname, '../prisma/seed/demo-catalogue.json');
export const DEMO_LOGINS = ['broker.admin@demo.test', 'broker.user@demo.test', 'free.broker@demo.test', 'financier.admin@demo.test'];

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let seeded = false;
  if (await isDatabaseEmpty(database.prisma)) {
    const parsed = parseCatalogueFile(JSON.parse(readFileSync(DEMO_CATALOGUE, 'utf8')));
    if (!parsed.ok) throw new Error(`demo catalogue: ${parsed.path}: ${parsed.message}`);
    await loadCatalogue(database.prisma, parsed.value, { reset: false });
    seeded = true;
  }
  const app = createApp({ config, database });
  const server = app.express.listen(config.port, () => {
    const base = `http://localhost:${config.port}`;
    const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL (PGlite) in ${config.dataDir}`;
    console.log([
      `Asset-finance service (${config.environment}) on ${where}${seeded ? ', demo data loaded' : ''}`,
      `  GraphQL:  ${base}/graphql${config.graphqlExplorer ? ' (GraphiQL in a browser)' : ''}`,
      `  REST:     ${base}/api/v1`,
      `  Demo logins (password demo-password-1): ${DEMO_LOGINS.join(', ')}`,
    ].join('\n'));
  });
  const shutdown = (signal: string) => {
    logger.info('shutdown', { signal });
    server.close(() => { database.close().finally(() => process.exit(0)); });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
