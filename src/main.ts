/**
 * config -> listen (a busy port is refused before anything else) -> database (migrated; the PGlite data directory
 * locked) -> demo data outside prod on an empty database -> app; graceful shutdown on SIGTERM/SIGINT. Until the app
 * is ready, every request is answered 503 (starting). A refused start prints one `Cannot start:` line and exits 1.
 */
import './env.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ConfigError, loadConfig } from './lib/config.ts';
import type { Database } from './lib/db.ts';
import { DataDirLockedError } from './lib/data-dir-lock.ts';
import { logger } from './lib/logger.ts';
import {
  DEMO_CATALOGUE_PATH,
  DEMO_LOGINS,
  databaseStartFailure,
  demoDataDecision,
  startupBanner,
} from './lib/startup.ts';
import { holdIdleConnections } from './http/keep-alive.ts';
import { answerClientErrorsInJson } from './http/client-errors.ts';

/** A start refused for a reason the operator can act on: printed as its message alone. */
class StartError extends Error {}

/** Start-up steps, printed as they begin: a first start migrates and loads demo data, which takes a few seconds. */
function progress(step: string): void {
  console.log(`Starting: ${step} ...`);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What a request gets while migrations and the demo data run: a JSON 503 a client may retry. */
const starting: Handler = (_req, res) => {
  res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '5' });
  res.end(JSON.stringify({ error: 'The service is starting; retry shortly.' }));
};

async function main(): Promise<void> {
  const config = loadConfig();
  let handle: Handler = starting;
  const server = createServer((req, res) => handle(req, res));
  answerClientErrorsInJson(server);
  holdIdleConnections(server);
  // The port is taken first: a busy one is reported at once, not after the migrations and the demo data.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((e: NodeJS.ErrnoException) => {
    const why =
      e.code === 'EADDRINUSE' ? 'the address is already in use' : e.code === 'EACCES' ? 'permission denied' : e.message;
    throw new StartError(`cannot listen on port ${config.port}: ${why}`);
  });
  const port = (server.address() as AddressInfo).port;
  // The database driver and the app load only now: loading them is most of a start's first seconds, so a busy port is
  // refused, and requests are answered 503 (starting), without waiting for them.
  const { openDatabase } = await import('./lib/db.ts');
  let database: Database;
  try {
    database = await openDatabase({
      onProgress: progress,
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      timeouts: config,
      lockOwner: 'server',
    });
  } catch (e) {
    server.close();
    server.closeAllConnections();
    const line = databaseStartFailure(e, config.databaseUrl);
    throw line ? new StartError(line) : e;
  }
  // After the lock: a start refused for a busy DATA_DIR prints its one line only.
  if (config.environment === 'prod' && !config.databaseUrl)
    logger.warn('startup.embedded_database_in_prod', {
      message:
        'SERVICE_ENVIRONMENT=prod on the embedded database (PGlite): one process only, no replicas or second instance on this DATA_DIR; set DATABASE_URL to run more',
    });
  try {
    await serve(config, database, server, port, (h) => {
      handle = h;
    });
  } catch (e) {
    server.close();
    server.closeAllConnections();
    await database.close().catch(() => {});
    throw e;
  }
}

async function serve(
  config: ReturnType<typeof loadConfig>,
  database: Database,
  server: ReturnType<typeof createServer>,
  port: number,
  ready: (handler: Handler) => void,
): Promise<void> {
  const [{ createApp }, { isDatabaseEmpty, loadCatalogue, parseCatalogueFile }] = await Promise.all([
    import('./app.ts'),
    import('./modules/catalogue/index.ts'),
  ]);
  const databaseEmpty = await isDatabaseEmpty(database.prisma);
  const decision = demoDataDecision(config.environment, databaseEmpty);
  if (decision === 'load') {
    progress(`loading the demo catalogue (${path.basename(DEMO_CATALOGUE_PATH)}) into the empty database`);
    const parsed = parseCatalogueFile(JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8')));
    if (!parsed.ok) throw new Error(`demo catalogue: ${parsed.path}: ${parsed.message}`);
    await loadCatalogue(database.prisma, parsed.value, { reset: false });
  }
  const demoAccountsPresent =
    config.environment !== 'prod' &&
    (await database.prisma.user.count({ where: { email: { in: DEMO_LOGINS } } })) === DEMO_LOGINS.length;
  const app = createApp({ config, database });
  ready(app.express);
  // Signal handlers before the banner: whoever reads "serving on" and sends SIGTERM gets a graceful shutdown.
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    // Ctrl-C reaches npm, tsx and node alike, and npm and tsx relay it: one keystroke can arrive two or three times.
    // Repeats are ignored; SHUTDOWN_TIMEOUT_MS bounds the shutdown anyway.
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info('shutdown.started', { signal, timeout_ms: config.shutdownTimeoutMs });
    // Stop accepting at once; in-flight requests finish; keep-alive connections close as they fall idle.
    const drained = new Promise<'drained'>((resolve) => server.close(() => resolve('drained')));
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), config.shutdownTimeoutMs);
    });
    const outcome = await Promise.race([drained, timedOut]);
    clearInterval(idle);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      logger.warn('shutdown.timeout', {
        message: `requests still in flight after ${config.shutdownTimeoutMs} ms were cut`,
      });
      server.closeAllConnections();
    }
    // The delivery and re-pricing workers finish their passes (bounded by the push and database timeouts) before the database closes.
    await Promise.all([app.notifications.stop(), app.repricing.stop()]);
    try {
      await database.close();
    } catch (e) {
      logger.error('shutdown.database_close_failed', { message: (e as Error).message });
      process.exit(1);
    }
    logger.info('shutdown.done', { signal, outcome });
    process.exit(outcome === 'drained' ? 0 : 1);
  };
  process.on('SIGINT', () => {
    void shutdown('SIGINT');
  });
  process.on('SIGTERM', () => {
    void shutdown('SIGTERM');
  });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL (PGlite) in ${config.dataDir}`;
  console.log(
    startupBanner({
      environment: config.environment,
      port,
      where,
      graphqlExplorer: config.graphqlExplorer,
      decision,
      databaseEmpty,
      demoAccountsPresent,
    }).join('\n'),
  );

  app.notifications.start();
  app.repricing.start();
  // GraphiQL's bundle is imported and compressed now, not on the first reader's request.
  app.explorer?.prepare().catch((e: Error) => logger.error('graphiql.prepare_failed', { message: e.message }));
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof StartError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
