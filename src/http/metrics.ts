/**
 * GET /metrics: the Prometheus text format (src/lib/metrics.ts), with the database pool read at scrape time.
 * With METRICS_TOKEN set it needs `Authorization: Bearer <METRICS_TOKEN>`; in prod without one it is not served,
 * since the figures (routes, volumes, refusals) are not for the public internet.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { databasePool, registry } from '../lib/metrics.ts';

export function metricsHandler(options: {
  token: string | null;
  production: boolean;
  poolState: () => { total: number; idle: number; waiting: number };
}): RequestHandler {
  const expected = options.token ? Buffer.from(`Bearer ${options.token}`) : null;
  return async (req: Request, res: Response) => {
    if (!expected && options.production) {
      res.status(404).json({ error: 'Not found.' });
      return;
    }
    if (expected) {
      const offered = Buffer.from(req.get('authorization') ?? '');
      if (offered.length !== expected.length || !timingSafeEqual(offered, expected)) {
        res.status(401).json({ error: 'Authentication credentials were not provided or are invalid.' });
        return;
      }
    }
    const pool = options.poolState();
    databasePool.set({ state: 'total' }, pool.total);
    databasePool.set({ state: 'idle' }, pool.idle);
    databasePool.set({ state: 'waiting' }, pool.waiting);
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };
}
