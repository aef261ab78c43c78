/**
 * Prometheus metrics (prom-client), one registry per process, read at GET /metrics (src/http/metrics.ts).
 * Modules count what they refuse or time what they compute through the metrics here; labels are bounded sets
 * (route templates, never raw paths; vocabulary values), so no caller can grow the series without limit.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to the last byte of the answer, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const engineDuration = new Histogram({
  name: 'engine_duration_seconds',
  help: 'Time inside the pure engines per call (pricing: priceDeal; approvals: evaluateApprovals)',
  labelNames: ['engine'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [registry],
});

export const allowanceRefusals = new Counter({
  name: 'allowance_refusals_total',
  help: 'Runs refused because a daily allowance was spent (cap_hit), by metric',
  labelNames: ['metric'] as const,
  registers: [registry],
});

export const signInThrottled = new Counter({
  name: 'sign_in_throttled_total',
  help: 'Sign-in attempts refused during a lockout (429)',
  registers: [registry],
});

/** Connections of the database pool; a process on embedded PGlite reports one connection, never waiting. */
export const databasePool = new Gauge({
  name: 'database_pool_connections',
  help: 'Database pool connections by state: total, idle, waiting (requests queued for a connection)',
  labelNames: ['state'] as const,
  registers: [registry],
});

/** Wraps a synchronous engine so each call is timed into engine_duration_seconds. */
export function timedEngine<A extends unknown[], R>(engine: string, fn: (...args: A) => R): (...args: A) => R {
  const histogram = engineDuration.labels(engine);
  return (...args: A) => {
    const end = histogram.startTimer();
    try {
      return fn(...args);
    } finally {
      end();
    }
  };
}
