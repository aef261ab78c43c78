/**
 * CORS for both surfaces (/api/v1 and /graphql), from one allow-list (CORS_ALLOWED_ORIGINS; empty by default: no
 * browser origin may call the API). Only an exact listed origin is echoed; others get no CORS header at all, so the
 * browser withholds the answer. Credentials are bearer tokens in a header, never cookies, so
 * Access-Control-Allow-Credentials is not sent. Preflights are answered here (204) and go no further.
 */
import type { NextFunction, Request, Response } from 'express';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, X-Service-Client, X-Request-Id, If-Match';
/**
 * Response headers a browser client may read: request id, list totals, back-off, the rate card's version, and the
 * recent scenario a metered run was saved as (src/rest/define-route.ts).
 */
const EXPOSED_HEADERS = 'X-Request-Id, X-Total-Count, Retry-After, ETag, X-Scenario-Id, X-Scenario-Change-Threshold';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export function cors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    res.vary('Origin');
    const permitted = origin !== undefined && allowed.has(origin);
    if (permitted) res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
    if (req.method === 'OPTIONS' && req.get('access-control-request-method')) {
      if (permitted) {
        res.set({
          'Access-Control-Allow-Methods': ALLOWED_METHODS,
          'Access-Control-Allow-Headers': ALLOWED_HEADERS,
          'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
        });
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
