/**
 * Mounts the route table under /api/v1: one Express route per table entry (`router[method](path, ...)`, in table
 * order, so the first entry that matches wins), each running the same steps: credentials (401), the root field's
 * scopes (403), the media type (415), then the body (express.json), then the operation. Everything a client can get
 * wrong (malformed JSON, wrong types, unknown routes) answers with the spec's general error body; nothing here answers
 * HTML or a stack trace.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { buildContext, type AppDeps, type Context } from '../graphql/context.ts';
import { unstorableTextErrors } from '../graphql/input-text.ts';
import { UnauthenticatedError } from '../lib/errors.ts';
import { clientKind, say } from '../lib/wording.ts';
import { logger } from '../lib/logger.ts';
import { isJsonBody, jsonBody } from '../http/body-limit.ts';
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
 * to the headers: old-generation garbage about the size of the answer, on every large calculator answer.
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

/**
 * A route path (`/users/:id`) as the router matches it: any one segment per parameter, case-insensitive, one optional
 * trailing slash. For tools that check a path against the table without a request (testkit/conformance.ts).
 */
export function pathPattern(path: string): RegExp {
  const source = path
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

/** True when the request carries body bytes (a chunked body, or a non-zero Content-Length). */
function hasContent(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** True when the path holds a percent-escape that is not UTF-8 (`%C0%80`, `%u0041`, a lone `%`). */
function brokenEscape(path: string): boolean {
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** What the steps of one request share (res.locals). */
interface Locals {
  ctx: Context;
  malformedPath?: true;
}
const localsOf = (res: Response) => res.locals as Locals;

const MALFORMED_PATH: RestReply = [
  400,
  {
    error: 'Malformed path: a path parameter is not valid percent-encoded UTF-8.',
    errors: { path: ['Not valid percent-encoded UTF-8.'] },
  },
];

/**
 * The route table compiled against a schema. Compiling depends on nothing but the two (no app state: each run gets its
 * context), so every router made on one schema shares it: a process that makes many apps (the tests make one per file)
 * parses, validates and compiles the table once.
 */
const compiledRoutes = new WeakMap<GraphQLSchema, CompiledRoute[]>();

function compiledFor(schema: GraphQLSchema): CompiledRoute[] {
  let compiled = compiledRoutes.get(schema);
  if (!compiled) {
    compiled = routes.map((r) => compileRoute(schema, r));
    compiledRoutes.set(schema, compiled);
  }
  return compiled;
}

export function createRestRouter(schema: GraphQLSchema, deps: AppDeps): express.Router {
  const router = express.Router();
  // The one body limit (src/http/body-limit.ts), read only once the steps before it let the request through.
  const readBody = jsonBody(deps.config.maxBodyBytes);

  // A broken escape in a path parameter would make the router's own decoding fail before it knows the route, so the
  // route's credentials could not be judged first and a method with no route there would answer 400, not 404. The
  // escapes are kept out of its way (each `%` escaped), the route found as any other, and answered 400 below.
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (brokenEscape(req.path)) {
      localsOf(res).malformedPath = true;
      req.url = req.url.replace(/^[^?]*/, (path) => path.replaceAll('%', '%25'));
    }
    next();
  });

  for (const route of compiledFor(schema)) {
    /** Credentials, the caller's scopes and the media type, judged before the body is read. */
    const judge = async (req: Request, res: Response, next: NextFunction) => {
      const ctx = await buildContext(deps, {
        authorization: req.get('authorization'),
        serviceClient: req.get('x-service-client'),
        clientAddress: () => req.ip,
      });
      localsOf(res).ctx = ctx;
      // Credentials first: an anonymous caller of a protected endpoint is 401 whatever its body, malformed JSON included.
      if (!route.public && ctx.auth.kind !== 'caller')
        return send(res, [401, { error: new UnauthenticatedError().message }]);
      if (localsOf(res).malformedPath) return send(res, MALFORMED_PATH);
      // Then what the root field's scopes allow this caller (a `read` token on a write, a missing permission): the 403
      // the operation would answer, before the body is read or checked, so no input work is done for a refused caller.
      const refused = refusedEarly(route, ctx);
      if (refused) return send(res, route.respond(refused, ctx) ?? sharedReply(refused)!);
      // A body is JSON or nothing: a write sent with another media type is refused before it is read, rather than run
      // on an empty reading of it. An empty body (no length, or length 0, as fetch sends a bodiless POST) passes.
      if (route.method !== 'get' && route.method !== 'delete' && hasContent(req) && !isJsonBody(req))
        return send(res, [415 as never, { error: say('unsupported_body', ctx.client) }]);
      next();
    };
    const answer = async (req: Request, res: Response) => {
      const { ctx } = localsOf(res);
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
    };
    router[route.method](route.path, judge, readBody, answer);
  }

  router.use((_req: Request, res: Response) => send(res, [404, { error: 'Not found.' }]));
  // Body-parser failures (malformed JSON, too large) and anything unexpected end here, as JSON.
  router.use((err: any, req: Request, res: Response, _next: NextFunction) => {
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
