/**
 * One request-body limit for both surfaces (MAX_BODY_BYTES, config.maxBodyBytes). REST parses JSON with it
 * (src/rest/router.ts); /graphql reads its body here, with the same limit, before Yoga sees it, so an oversized body is
 * refused from its Content-Length (or, chunked, as soon as it passes the limit) with 413 and is never buffered whole.
 * Compressed bodies are measured inflated.
 */
import express, { type NextFunction, type Request, type Response } from 'express';

export const TOO_LARGE_MESSAGE = 'Request body is too large.';

/** Reads a /graphql body as bytes (Yoga parses it); 413 and 400 as GraphQL-shaped JSON. */
export function graphqlBody(limitBytes: number): express.RequestHandler[] {
  const read = express.raw({ type: () => true, limit: limitBytes });
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
