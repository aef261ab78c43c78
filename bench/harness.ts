/**
 * The real app on 127.0.0.1 over in-memory PGlite, as test/support/app.ts starts it, plus the bench's own pieces:
 * a seeded catalogue, the bench broker's access token, "bare" Express routes placed at the front of the same app
 * (so the real routes keep exactly the production middleware), and a keep-alive HTTP client.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Worker } from 'node:worker_threads';
import express, { type Request, type Response } from 'express';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/lib/db.ts';
import { createApp, type App } from '../src/app.ts';
import { BENCH_USER, seedBenchCatalogue, type SeededCatalogue } from './catalogue.ts';

export interface BenchApp {
  baseUrl: string;
  app: App;
  database: Database;
  seeded: SeededCatalogue;
  token: string;
  /** One request over a keep-alive socket: status and raw body. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; text: string }>;
  /** Serves `json` from `path` (POST): with `parse`, the request body goes through express.json() first. */
  addBareRoute(path: string, json: unknown, options: { parse: boolean }): void;
  close(): Promise<void>;
}

export async function startBenchApp(financiers: number): Promise<BenchApp> {
  const database = await openDatabase({ databaseUrl: null, dataDir: ':memory:' });
  const seeded = await seedBenchCatalogue(database, { financiers });
  const config = loadConfig({ ...process.env, DATABASE_URL: '', PORT: '0' }, { dataDir: ':memory:', jwtSecret: randomBytes(32).toString('hex') });
  const app = createApp({ config, database });
  const server: Server = await new Promise((resolve) => { const s = app.express.listen(0, '127.0.0.1', () => resolve(s)); });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  const send = (method: string, path: string, body: unknown, headers: Record<string, string>, retry: boolean): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(`${baseUrl}${path}`, {
        method, agent,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while the bench was busy timing engines: retry once on a new one.
        if (retry && req.reusedSocket && error.code === 'ECONNRESET') send(method, path, body, headers, false).then(resolve, reject);
        else reject(error);
      });
      req.end(payload);
    });
  const request: BenchApp['request'] = (method, path, body, headers = {}) => send(method, path, body, headers, true);

  const login = await request('POST', '/api/v1/auth/login', { email: BENCH_USER.email, password: BENCH_USER.password });
  if (login.status !== 200) throw new Error(`bench login: ${login.status} ${login.text}`);
  const token = (JSON.parse(login.text) as { access: string }).access;

  return {
    baseUrl, app, database, seeded, token, request,
    addBareRoute(path, json, { parse }) {
      const handler = (_req: Request, res: Response) => { res.json(json); };
      if (parse) app.express.post(path, express.json({ limit: '256kb', strict: false }), handler);
      else app.express.post(path, handler);
      // Express appends routes after the app's own 404 handler: move the new layer to the front of the stack.
      const stack = (app.express as unknown as { router: { stack: unknown[] } }).router.stack;
      stack.unshift(stack.pop());
    },
    close: async () => {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await database.close();
    },
  };
}

export interface LoadResult {
  completed: number;
  failed: number;
  firstFailure: string | null;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Closed-loop keep-alive load from a worker thread (bench/load-worker.mjs): bounded by time and by count. */
export function load(options: {
  url: string; method: 'POST' | 'GET'; headers: Record<string, string>; body?: string;
  connections: number; durationMs: number; maxRequests?: number;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { maxRequests: 200_000, ...options },
    });
    worker.once('message', (result: LoadResult) => { resolve(result); void worker.terminate(); });
    worker.once('error', reject);
  });
}
