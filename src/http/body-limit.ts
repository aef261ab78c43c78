/**
 * One request-body limit for both surfaces (MAX_BODY_BYTES, config.maxBodyBytes), read by body-parser (express.json,
 * express.raw). REST reads JSON with `jsonBody` as a step of each route, after the route's credentials and scopes are
 * judged (src/rest/router.ts); MCP with `bodyReader` (src/mcp/server.ts); /graphql reads its body here as
 * bytes, with the same limit, before Yoga sees it, so an oversized body is refused from its Content-Length (or,
 * chunked, as soon as it passes the limit) with 413 and is never buffered whole. Compressed bodies are measured
 * inflated.
 *
 * One addition to body-parser: a client gone before its body is read (while its credentials were judged) is the
 * `request.aborted` error. body-parser treats a request already finished as one without a body and passes it on
 * unread, so a write would run on an empty reading of a body its client never finished sending.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

const TOO_LARGE_MESSAGE = 'Request body is too large.';

/** `application/json`, with no parameter or only a UTF-8 charset: what every JSON client sends. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * True when the body is JSON by its media type (`application/json`, any parameters): the one judgement of what is
 * read as JSON, for the 415 and for body-parser (its `type`). The common header is judged without parsing it.
 */
export function isJsonBody(req: Request): boolean {
  return PLAIN_JSON.test(req.headers['content-type'] ?? '') || Boolean(req.is('application/json'));
}

/** The error body-parser gives a body its client stopped sending (`type`, `status` as the error handlers read them). */
const aborted = () =>
  Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400, statusCode: 400, expose: true });

/** body-parser's reader, refusing a request whose client is already gone (see above). */
function unlessGone(parser: RequestHandler): RequestHandler {
  return (req, res, next) => (req.destroyed ? next(aborted()) : parser(req, res, next));
}

/** Reads a JSON body under the limit into `req.body` (any JSON value; an empty body is {}); errors go to `next`. */
export function jsonBody(limitBytes: number): RequestHandler {
  return unlessGone(express.json({ limit: limitBytes, type: (req) => isJsonBody(req as Request), strict: false }));
}

/** `jsonBody`, or the bytes of any body, as a promise (for a handler that reads the body part way through). */
export function bodyReader(limitBytes: number, kind: 'json' | 'bytes'): (req: Request, res: Response) => Promise<void> {
  const read =
    kind === 'json' ? jsonBody(limitBytes) : unlessGone(express.raw({ type: () => true, limit: limitBytes }));
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      read(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
}

/** Reads a /graphql body as bytes (Yoga parses it); 413 and 400 as GraphQL-shaped JSON. */
export function graphqlBody(limitBytes: number): express.RequestHandler[] {
  const readBytes = bodyReader(limitBytes, 'bytes');
  const read: express.RequestHandler = (req, res, next) => {
    readBytes(req, res).then(() => next(), next);
  };
  const refuse = (err: any, _req: Request, res: Response, next: NextFunction): void => {
    if (err?.type === 'entity.too.large') {
      res.status(413).json({
        errors: [
          {
            message: `${TOO_LARGE_MESSAGE} The limit is ${limitBytes} bytes.`,
            extensions: { code: 'PAYLOAD_TOO_LARGE' },
          },
        ],
      });
    } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) {
      res
        .status(err.status)
        .json({ errors: [{ message: 'The request body could not be read.', extensions: { code: 'BAD_REQUEST' } }] });
    } else next(err);
  };
  // An empty body (`Content-Length: 0`, or chunked with no chunk) is said so in the headers: Yoga would otherwise wait
  // on the request stream this reader has already consumed.
  const empty: express.RequestHandler = (req, _res, next) => {
    if (Buffer.isBuffer(req.body) && req.body.length === 0) {
      req.headers['content-length'] = '0';
      delete req.headers['transfer-encoding'];
    }
    next();
  };
  return [read, refuse as unknown as express.RequestHandler, empty];
}
