/**
 * Browser assets served by the service itself (the /docs reference, GraphiQL): each is held in memory, named by a URL
 * that never changes meaning (a package version or the content's hash in it), so it is cached for a year (immutable),
 * and sent gzipped or brotli-compressed to clients that accept it. Each compression is made once, off the event
 * loop, and shared by every request (concurrent first requests wait for the same one).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface StaticAsset {
  body: Buffer;
  type: string;
  /** Quoted strong ETag of the uncompressed bytes; each encoding gets its own (different bytes). */
  etag: string;
  /** Short content hash, for URLs that carry it. */
  hash: string;
  /** Images (PNG, the icon's PNGs) are compressed already: sent as they are. */
  compressible: boolean;
  gzipped?: Promise<Buffer>;
  brotli?: Promise<Buffer>;
}

export function staticAsset(body: Buffer | string, type: string): StaticAsset {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const digest = createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
  return {
    body: bytes,
    type,
    etag: `"${digest}"`,
    hash: digest.slice(0, 12),
    compressible: !type.startsWith('image/'),
  };
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Brotli at quality 5: close to quality 9's size at a fraction of its time, which matters because the GraphiQL bundle
 * is megabytes of script, compressed on the first request or at start. gzip (its default level) for clients without it.
 */
function brotli(item: StaticAsset): Promise<Buffer> {
  item.brotli ??= brotliAsync(item.body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: item.body.length,
    },
  });
  return item.brotli;
}

function gzipped(item: StaticAsset): Promise<Buffer> {
  item.gzipped ??= gzipAsync(item.body);
  return item.gzipped;
}

/** Starts both compressions now, so the first browser to ask does not wait for them; settles when both are made. */
export async function precompress(item: StaticAsset): Promise<void> {
  if (!item.compressible) return;
  await Promise.all([brotli(item), gzipped(item)]);
}

/** Sends `item` with a year's immutable caching, in the best encoding the client accepts. */
export async function sendStaticAsset(req: Request, res: Response, item: StaticAsset): Promise<void> {
  res.set({
    'Content-Type': item.type,
    'Cache-Control': IMMUTABLE,
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
  });
  // res.send answers 304 itself when If-None-Match matches the ETag set here.
  // Brotli whenever the client takes it (browsers list gzip first, which a plain negotiation would pick).
  const encoding = !item.compressible
    ? null
    : req.acceptsEncodings('br')
      ? 'br'
      : req.acceptsEncodings('gzip')
        ? 'gzip'
        : null;
  if (encoding) {
    const body = await (encoding === 'br' ? brotli(item) : gzipped(item));
    res.set({ 'Content-Encoding': encoding, ETag: `${item.etag.slice(0, -1)}-${encoding}"` });
    res.send(body);
    return;
  }
  res.set('ETag', item.etag);
  res.send(item.body);
}
