/**
 * GET /docs: the interactive REST API reference (Swagger UI over /api/v1/openapi.json), served entirely by this
 * service, so it works with no internet and its page can carry a strict Content-Security-Policy. Every asset is read
 * once at start from swagger-ui-dist (a missing file stops the start, not a reader) plus our own initializer script.
 * Only the files the page uses are served: not the package's index.html or swagger-initializer.js (they open the
 * petstore), nor its source maps. On in every environment, prod included (docs/operations.md): the contract is public.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Router, type Request, type Response } from 'express';

const distPackage = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
const distDir = dirname(distPackage);
const distVersion = String(JSON.parse(readFileSync(distPackage, 'utf8')).version);

interface Asset {
  body: Buffer;
  /**
   * gzip of body, made once, off the event loop, on the first request that accepts it (the bundle is 1.7 MB, about
   * 0.5 MB gzipped); concurrent first requests share the one compression.
   */
  gzipped?: Promise<Buffer>;
  type: string;
  etag: string;
}

function asset(body: Buffer, type: string): Asset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

const initializer = asset(
  readFileSync(new URL('./api-reference/initializer.js', import.meta.url)),
  'text/javascript; charset=utf-8',
);

/**
 * Asset URLs carry swagger-ui's version or the content's hash, so they never change meaning and are cached for a year
 * (immutable); the page itself is revalidated, so an upgrade shows at the next load.
 */
const ASSET_PREFIX = '/docs/assets';
const DIST_PREFIX = `${ASSET_PREFIX}/swagger-ui-${distVersion}`;
const assets = new Map<string, Asset>([
  [`${DIST_PREFIX}/swagger-ui.css`, asset(readFileSync(join(distDir, 'swagger-ui.css')), 'text/css; charset=utf-8')],
  [
    `${DIST_PREFIX}/swagger-ui-bundle.js`,
    asset(readFileSync(join(distDir, 'swagger-ui-bundle.js')), 'text/javascript; charset=utf-8'),
  ],
  [`${DIST_PREFIX}/favicon-32x32.png`, asset(readFileSync(join(distDir, 'favicon-32x32.png')), 'image/png')],
  [`${DIST_PREFIX}/favicon-16x16.png`, asset(readFileSync(join(distDir, 'favicon-16x16.png')), 'image/png')],
  [`${ASSET_PREFIX}/initializer-${initializer.etag.slice(1, 13)}.js`, initializer],
]);

/**
 * Everything from this origin only: no inline script or style, no eval; connections to this origin only, so "Try it
 * out" cannot be pointed elsewhere. Swagger UI needs no 'unsafe-inline' for styles: React sets its style props through
 * the DOM (element.style), which the policy allows; only style attributes in markup are refused, and it writes none
 * (the browser test fails on any violation). img-src allows data: for the icons swagger-ui.css embeds. No framing:
 * "Try it out" acts with the reader's token.
 */
export const API_REFERENCE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Asset-finance pricing and approval service: REST API reference</title>
<link rel="stylesheet" href="${DIST_PREFIX}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DIST_PREFIX}/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${DIST_PREFIX}/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DIST_PREFIX}/swagger-ui-bundle.js"></script>
<script src="${[...assets.keys()].find((path) => path.includes('/initializer-'))}"></script>
</body>
</html>
`;

const gzipAsync = promisify(gzip);

async function sendAsset(req: Request, res: Response, item: Asset): Promise<void> {
  res.set({
    'Content-Type': item.type,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
  });
  // res.send answers 304 itself when If-None-Match matches the ETag set here (one per encoding: different bytes).
  if (item.type !== 'image/png' && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    item.gzipped ??= gzipAsync(item.body);
    const body = await item.gzipped;
    res.set({ 'Content-Encoding': 'gzip', ETag: `${item.etag.slice(0, -1)}-gzip"` });
    res.send(body);
    return;
  }
  res.set('ETag', item.etag);
  res.send(item.body);
}

export function apiReference(): Router {
  const router = Router();
  // Express matches /docs and /docs/ alike (non-strict routing); every asset URL on the page is absolute.
  router.get('/docs', (_req, res) => {
    res.set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': API_REFERENCE_CSP,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    res.send(PAGE);
  });
  // Exact paths from a fixed table: nothing from the request reaches the file system.
  router.get(`${ASSET_PREFIX}/*path`, async (req, res, next) => {
    const item = assets.get(req.path);
    if (item) await sendAsset(req, res, item);
    else next();
  });
  return router;
}
