/**
 * Per-request observability: a request id (the caller's `X-Request-Id` when it is a sane token, else a new UUID),
 * sent back in `X-Request-Id` and attached to every log line written while the request runs; one JSON log line per
 * request (pino-http: method, route template, path, status, duration); and the request counters and latency
 * histogram of GET /metrics. Paths are logged without their query string, and no header or body is logged.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { baseLogger, inRequestScope } from '../lib/logger.ts';
import { httpRequestDuration, httpRequests } from '../lib/metrics.ts';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The route template a request matched (`/api/v1/users/:id`), never the raw path: a bounded label set. */
function routeOf(req: IncomingMessage): string {
  const r = req as Request;
  return r.route?.path ? `${r.baseUrl ?? ''}${r.route.path}` : 'unmatched';
}

function pathOf(req: IncomingMessage): string {
  const url = (req as Request).originalUrl ?? req.url ?? '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function requestObservability(options: { log: boolean }): RequestHandler[] {
  const assignId: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const offered = req.get('x-request-id');
    const id = offered && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
    (req as { id?: string }).id = id;
    res.setHeader('X-Request-Id', id);
    const end = httpRequestDuration.startTimer();
    res.on('finish', () => {
      const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
      httpRequests.inc(labels);
      end(labels);
    });
    inRequestScope(id, next);
  };
  if (!options.log) return [assignId];
  const log = pinoHttp<IncomingMessage, ServerResponse>({
    logger: baseLogger,
    genReqId: (req) => (req as { id?: string }).id ?? randomUUID(),
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    // The line names the request; nothing of its headers (tokens) or body (passwords) is ever written.
    serializers: {
      req: (req: IncomingMessage) => ({ method: req.method, path: pathOf(req) }),
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
    wrapSerializers: false,
    // Added when the answer is sent: only then is the matched route known.
    customSuccessObject: (req, _res, val) => ({ event: 'http.request', route: routeOf(req), ...val }),
    customErrorObject: (req, _res, _err, val) => ({ event: 'http.request', route: routeOf(req), ...val }),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request answered',
    customErrorMessage: () => 'request failed',
    quietReqLogger: true,
  });
  return [assignId, log as unknown as RequestHandler];
}
