/**
 * Saved-scenario re-pricing in a worker thread (SCENARIO_REPRICE_WORKER=thread, the default on PostgreSQL;
 * docs/scenarios.md "Where it runs"). The worker of src/modules/repricing runs on the thread's own event loop, heap
 * and database pool, at a lower CPU priority, so an engine run never sits between a request and its answer and its
 * garbage is never collected on the request thread. The queue is claimed in the database as before, so a thread is
 * one more worker: any number of threads and processes share the work.
 *
 * One file, two sides: `repricingThread` (the host, in the serving process) starts the thread on this file,
 * relays its log lines and stops it on shutdown; `threadMain` (below) is what the thread runs.
 */
import { getPriority, setPriority } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createDeps } from './app-services.ts';
import type { Config } from './lib/config.ts';
import { openDatabase } from './lib/db.ts';
import { logger, setLogDestination, writeLogLine } from './lib/logger.ts';
import { createRepricingWorker } from './modules/repricing/index.ts';

/** Marks the thread this file starts, so importing the file in another worker thread runs nothing. */
const ROLE = 'scenario-repricing';
/** The thread's niceness (Linux keeps one per thread): the serving thread wins every contended core. */
const NICENESS = 10;
/** One transaction at a time, plus one for the snapshot load it may need meanwhile. */
const POOL_SIZE = 2;

type ToThread = { stop: true };
type FromThread = { log: string } | { stopped: true };

export interface RepricingThread {
  /** Starts the thread (idempotent); one that ends unasked logs why and is started again after a poll interval. */
  start(): void;
  /** Asks the thread to finish its pass and close its pool, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * How to start this file in a thread. Compiled (dist/), it is the entry. As TypeScript (npm start, tests, the bench),
 * the thread loads it through tsx's API: Node 20 does not apply the parent's `--import tsx` hooks to a worker's entry.
 */
function threadEntry(): [string | URL, { eval?: boolean }] {
  if (extname(fileURLToPath(import.meta.url)) !== '.ts') return [new URL(import.meta.url), {}];
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`;
  return [code, { eval: true }];
}

export function repricingThread(config: Config): RepricingThread {
  let worker: Worker | null = null;
  let restart: NodeJS.Timeout | undefined;
  /** Settles when the thread has closed its pool (or exited, or could not start). */
  let finished: Promise<void> = Promise.resolve();
  const start = () => {
    if (worker) return;
    restart = undefined;
    const [entry, how] = threadEntry();
    const thread = new Worker(entry, { ...how, workerData: { role: ROLE, config } });
    worker = thread;
    finished = new Promise((resolve) => {
      thread.on('message', (message: FromThread) => {
        if ('log' in message) writeLogLine(message.log);
        else resolve();
      });
      thread.once('exit', () => resolve());
    });
    thread.on('error', (e) => logger.error('scenarios.reprice_thread_failed', { message: e.message }));
    // A thread that ends unasked (it could not open its pool, or a bug threw) is started again after a poll: the
    // queue waits in the database meanwhile, as it would for a process that restarts.
    thread.once('exit', (code) => {
      if (worker !== thread) return;
      worker = null;
      logger.error('scenarios.reprice_thread_exited', { code, restart_in_ms: config.scenarioRepriceIntervalMs });
      restart = setTimeout(start, config.scenarioRepriceIntervalMs);
      restart.unref();
    });
    // The thread must not keep a process alive that has nothing else to do (a shutdown waits for stop()).
    thread.unref();
  };
  return {
    start,
    async stop() {
      clearTimeout(restart);
      restart = undefined;
      const thread = worker;
      worker = null;
      if (!thread) return;
      thread.postMessage({ stop: true } satisfies ToThread);
      await finished;
      // Whatever the thread still holds (a socket, a timer) must not outlive the shutdown.
      await thread.terminate();
    },
  };
}

/** The thread: its own database pool and catalogue cache, the same worker and poll as the inline one. */
async function threadMain(config: Config, port: NonNullable<typeof parentPort>): Promise<void> {
  const send = (message: FromThread) => port.postMessage(message);
  setLogDestination({ write: (line: string) => send({ log: line }) });
  try {
    // Linux: 0 is the calling thread. Elsewhere it would be the whole process, which must keep its priority.
    if (process.platform === 'linux') setPriority(0, Math.max(getPriority(0), NICENESS));
  } catch {
    /* not permitted here: the thread still runs, at the process's priority */
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      migrate: false,
      timeouts: config,
      poolSize: POOL_SIZE,
    });
  } catch (e) {
    logger.error('scenarios.reprice_thread_failed', { message: (e as Error).message });
    send({ stopped: true });
    port.close();
    return;
  }
  const worker = createRepricingWorker(createDeps(database.prisma, config));
  port.on('message', (message: ToThread) => {
    if (!message.stop) return;
    void (async () => {
      await worker.stop();
      await database
        .close()
        .catch((e: Error) => logger.error('shutdown.database_close_failed', { message: e.message }));
      send({ stopped: true });
      port.close();
    })();
  });
  logger.info('scenarios.reprice_thread_started', { niceness: getPriority(0) });
  worker.start();
}

if (!isMainThread && parentPort && (workerData as { role?: string } | null)?.role === ROLE) {
  void threadMain((workerData as { config: Config }).config, parentPort);
}
