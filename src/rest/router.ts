/**
 * Mounts the route table under /api/v1. Everything a client can get wrong (malformed JSON, wrong types, unknown
 * routes) answers with the spec's general error body; nothing here answers HTML or a stack trace.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { buildContext, type AppDeps } from '../graphql/context.ts';
import { unstorableTextErrors } from '../graphql/input-text.ts';
import { UnauthenticatedError } from '../lib/errors.ts';
import { clientKind, say } from '../lib/wording.ts';
import { logger } from '../lib/logger.ts';
import { bodyReader, isJsonBody } from '../http/body-limit.ts';
import { retryableReply } from '../lib/database-errors.ts';
import type { RestReply } from './define-route.ts';
import {
  coerceVariables,
  compileRoute,
  fieldErrorBody,
  refusedEarly,
  run,
  sharedReply,
  type CompiledRoute,
} from './bridge.ts';
import { routes } from './routes/index.ts';

/**
 * Writes a reply. The body is JSON.stringify's, as `res.json` writes it, without the work `res.send` does for
 * bodies this router never sends (ETags, freshness, charset negotiation): a request's response is written once.
 * It is encoded to UTF-8 once, into a Buffer outside V8's heap, whose length is the Content-Length. Written as a
 * string, a body was measured in one pass and then copied once more inside the heap, where Node's write joined it
 * to the headers: ~650 KB of old-generation garbage for a 700 KB calculator answer.
 */
function send(res: Response, [status, body, headers]: RestReply): void {
  if (headers) res.set(headers);
  res.statusCode = status;
  if (status === 204 || body === undefined) {
    res.end();
    return;
  }
  const bytes = Buffer.from(JSON.stringify(body));
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

/** A route path (`/users/:id`) as Express matches it: any one segment per parameter, case-insensitive, one optional trailing slash. */
export function pathPattern(path: string): RegExp {
  const source = path
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

interface IndexedRoute {
  route: CompiledRoute;
  pattern: RegExp;
  keys: string[];
}

/**
 * The route table by method and first path segment: a request is tried against the few routes that could match it,
 * in table order (the first match wins, as in an Express router), instead of against every route. HEAD runs GET's
 * route, as Express does. Parameters are decoded here; a broken escape throws URIError (answered 400 below).
 */
function routeIndex(compiled: readonly CompiledRoute[]) {
  const candidates = new Map<string, IndexedRoute[]>();
  const keyOf = (method: string, segment: string) => `${method} ${segment.toLowerCase()}`;
  for (const route of compiled) {
    const first = route.path.split('/')[1] ?? '';
    if (first.startsWith(':')) throw new Error(`REST ${route.path}: a route must start with a fixed segment`);
    const key = keyOf(route.method, first);
    const list = candidates.get(key) ?? [];
    list.push({
      route,
      pattern: pathPattern(route.path),
      keys: route.path
        .split('/')
        .filter((segment) => segment.startsWith(':'))
        .map((segment) => segment.slice(1)),
    });
    candidates.set(key, list);
  }
  /** The route a request names, with its raw (still percent-encoded) parameters; undefined when none matches. */
  const find = (method: string, path: string): { indexed: IndexedRoute; raw: RegExpExecArray } | undefined => {
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    const slash = path.indexOf('/', 1);
    for (const indexed of candidates.get(keyOf(verb, slash === -1 ? path.slice(1) : path.slice(1, slash))) ?? []) {
      const raw = indexed.pattern.exec(path);
      if (raw) return { indexed, raw };
    }
    return undefined;
  };
  return {
    find,
    /** The matching route and its decoded parameters. */
    match(method: string, path: string): { route: CompiledRoute; params: Record<string, string> } | undefined {
      const found = find(method, path);
      if (!found) return undefined;
      const params: Record<string, string> = {};
      found.indexed.keys.forEach((key, i) => {
        params[key] = decodeURIComponent(found.raw[i + 1]);
      });
      return { route: found.indexed.route, params };
    },
  };
}

/** True when the request carries body bytes (a chunked body, or a non-zero Content-Length). */
function hasContent(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function createRestRouter(schema: GraphQLSchema, deps: AppDeps): express.Router {
  const compiled: CompiledRoute[] = routes.map((r) => compileRoute(schema, r));
  const router = express.Router();
  // The one body limit (src/http/body-limit.ts). The body is read only after credentials are judged (a parse failure
  // goes to the error handler below).
  const readBody = bodyReader(deps.config.maxBodyBytes, 'json');

  const index = routeIndex(compiled);
  const contextOf = (req: Request) =>
    buildContext(deps, {
      authorization: req.get('authorization'),
      serviceClient: req.get('x-service-client'),
      clientAddress: () => req.ip,
    });
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    const found = index.match(req.method, req.path);
    if (!found) return next();
    const { route } = found;
    req.params = found.params;
    // The route template, where an Express route would have put it: the request log and metrics label by it.
    req.route = { path: route.path };
    const ctx = await contextOf(req);
    // Credentials first: an anonymous caller of a protected endpoint is 401 whatever its body, malformed JSON included.
    if (!route.public && ctx.auth.kind !== 'caller')
      return send(res, [401, { error: new UnauthenticatedError().message }]);
    // Then what the root field's scopes allow this caller (a `read` token on a write, a missing permission): the 403
    // the operation would answer, before the body is read or checked, so no input work is done for a refused caller.
    const refused = refusedEarly(route, ctx);
    if (refused) return send(res, route.respond(refused, ctx) ?? sharedReply(refused)!);
    // A body is JSON or nothing: a write sent with another media type is refused before it is read, rather than run
    // on an empty reading of it. An empty body (no length, or length 0, as fetch sends a bodiless POST) passes.
    if (route.method !== 'get' && route.method !== 'delete' && hasContent(req) && !isJsonBody(req))
      return send(res, [415 as never, { error: say('unsupported_body', ctx.client) }]);
    await readBody(req, res);
    // Text PostgreSQL cannot store is refused before any field sees it: body (keys too), query string, path.
    const unstorable = [
      ...unstorableTextErrors(req.body),
      ...unstorableTextErrors(req.query, 'query'),
      ...unstorableTextErrors(req.params, 'path'),
    ];
    if (unstorable.length) return send(res, [400, fieldErrorBody(unstorable)]);
    const coerced = coerceVariables(route, route.variables ? route.variables(req) : {});
    if ('errors' in coerced) return send(res, [400, fieldErrorBody(coerced.errors)]);
    const outcome = await run(route, ctx, coerced.values);
    if ('bug' in outcome) {
      const retry = retryableReply(outcome.bug);
      if (retry) return send(res, retry);
      logger.error('rest.graphql_errors', {
        route: `${route.method.toUpperCase()} ${route.path}`,
        errors: outcome.bug.map((e) => ({
          message: e.message,
          path: e.path,
          stack: (e.originalError as Error | undefined)?.stack,
        })),
      });
      return send(res, [500, { error: 'Internal server error.' }]);
    }
    const reply = route.respond(outcome.result, ctx) ?? sharedReply(outcome.result);
    if (!reply) {
      logger.error('rest.unmapped_result', { route: route.path, typename: outcome.result.__typename });
      return send(res, [500, { error: 'Internal server error.' }]);
    }
    send(res, reply);
  });

  router.use((_req: Request, res: Response) => send(res, [404, { error: 'Not found.' }]));
  // Body-parser failures (malformed JSON, too large) and anything unexpected end here, as JSON.
  /**
   * Path parameters are decoded while matching, before any handler: a broken escape (`/users/%C0%80`) is a 400,
   * after credentials on a protected route, as everywhere else.
   */
  const malformedPath = async (req: Request, res: Response): Promise<void> => {
    const route = index.find(req.method, req.path)?.indexed.route;
    if (route && !route.public) {
      const ctx = await contextOf(req);
      if (ctx.auth.kind !== 'caller') return send(res, [401, { error: new UnauthenticatedError().message }]);
    }
    send(res, [
      400,
      {
        error: 'Malformed path: a path parameter is not valid percent-encoded UTF-8.',
        errors: { path: ['Not valid percent-encoded UTF-8.'] },
      },
    ]);
  };
  // Body-parser failures (malformed JSON, too large) and anything unexpected end here, as JSON.
  router.use(async (err: any, req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof URIError) {
      try {
        return await malformedPath(req, res);
      } catch (e) {
        err = e;
      } // buildContext failed: judged below
    }
    if (err?.type === 'entity.parse.failed')
      return send(res, [400, { error: 'Malformed JSON in request body.', errors: { body: ['Malformed JSON.'] } }]);
    if (err?.type === 'entity.too.large') return send(res, [413 as never, { error: 'Request body is too large.' }]);
    // JSON in a charset or content encoding the reader does not take: the same 415 as another media type.
    if (err?.type === 'charset.unsupported' || err?.type === 'encoding.unsupported')
      return send(res, [415 as never, { error: say('unsupported_body', clientKind(req.get('x-service-client'))) }]);
    if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500)
      return send(res, [err.status, { error: err.message ?? 'Bad request.' }]);
    // buildContext() queries the caller before a route runs: a database outage there is a 503 too.
    const retry = retryableReply([err]);
    if (retry) return send(res, retry);
    logger.error('rest.unhandled', { message: err?.message, stack: err?.stack });
    send(res, [500, { error: 'Internal server error.' }]);
  });
  return router;
}
