/**
 * One request-body limit for both surfaces (MAX_BODY_BYTES, config.maxBodyBytes), and one reader (`bodyReader`). REST
 * and MCP parse JSON with it (src/rest/router.ts, src/modules/mcp/server.ts); /graphql reads its body here, with the
 * same limit, before Yoga sees it, so an oversized body is refused from its Content-Length (or, chunked, as soon as it
 * passes the limit) with 413 and is never buffered whole. Compressed bodies are measured inflated.
 */
import express, { type NextFunction, type Request, type Response } from 'express';

const TOO_LARGE_MESSAGE = 'Request body is too large.';

/** `application/json`, with no parameter or only a UTF-8 charset: what every JSON client sends. */
const PLAIN_JSON = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;
const BOM = 0xfeff;

/** True when the body is JSON by its media type (`application/json`, any parameters), as body-parser judges it. */
export function isJsonBody(req: Request): boolean {
  return PLAIN_JSON.test(req.headers['content-type'] ?? '') || Boolean(req.is('application/json'));
}

/** What body-parser attaches to the errors the routers' error handlers read (`type`, `status`). */
function bodyError(type: string, status: number, message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { type, status, statusCode: status, expose: true });
}

/** The error body-parser gives a body its client stopped sending. */
const aborted = () => bodyError('request.aborted', 400, 'request aborted');

/**
 * Reads a request body under the limit into `req.body`: parsed JSON (`json`) or the bytes (`bytes`). The common
 * request, a Content-Length within the limit and no content encoding (and, for JSON, `application/json` in UTF-8), is
 * read straight off the socket: body-parser's general pipeline (media-type and charset negotiation, a decoder, the
 * finish listeners) cost about 0.09 ms of a small REST request's 1.4 ms of CPU (docs/performance.md). Every other
 * request goes through body-parser itself, so chunked and compressed bodies, other charsets and the 413 for a
 * declared length over the limit are answered exactly as before. Errors carry body-parser's `type` and `status`.
 */
export function bodyReader(limitBytes: number, kind: 'json' | 'bytes'): (req: Request, res: Response) => Promise<void> {
  const general =
    kind === 'json'
      ? express.json({ limit: limitBytes, strict: false })
      : express.raw({ type: () => true, limit: limitBytes });
  const viaBodyParser = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => {
      general(req, res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
  return (req, res) => {
    const { headers } = req;
    const declared = headers['content-length'];
    const plain =
      declared !== undefined &&
      headers['transfer-encoding'] === undefined &&
      (headers['content-encoding'] === undefined || headers['content-encoding'].toLowerCase() === 'identity') &&
      /^\d{1,15}$/.test(declared) &&
      Number(declared) <= limitBytes &&
      (kind === 'bytes' || PLAIN_JSON.test(headers['content-type'] ?? ''));
    if (!plain) return viaBodyParser(req, res);
    // A client gone while the credentials were judged: its stream will say nothing more.
    if (req.destroyed) return Promise.reject(aborted());
    return new Promise<void>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let done = false;
      const finish = (error?: Error) => {
        if (done) return;
        done = true;
        req.removeListener('data', onData);
        req.removeListener('end', onEnd);
        req.removeListener('error', onAbort);
        req.removeListener('close', onAbort);
        if (error) reject(error);
        else resolve();
      };
      const onData = (chunk: Buffer) => chunks.push(chunk);
      const onEnd = () => {
        const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        (req as { _body?: boolean })._body = true;
        if (kind === 'bytes') {
          req.body = bytes;
          return finish();
        }
        // As body-parser reads JSON: UTF-8 (a leading byte-order mark dropped), an empty body as {}, any JSON value.
        let text = bytes.toString('utf8');
        if (text.charCodeAt(0) === BOM) text = text.slice(1);
        if (text.length === 0) {
          req.body = {};
          return finish();
        }
        try {
          req.body = JSON.parse(text);
          finish();
        } catch (error) {
          finish(bodyError('entity.parse.failed', 400, (error as Error).message, error));
        }
      };
      // A stream error, or the connection closed before the end: the client is gone either way.
      const onAbort = () => finish(aborted());
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onAbort);
      req.on('close', onAbort);
    });
  };
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
