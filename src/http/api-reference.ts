/**
 * GET /docs: the interactive REST API reference (Swagger UI over /api/v1/openapi.json), served entirely by this
 * service, so it works with no internet and its page can carry a strict Content-Security-Policy. Every asset is read
 * once at start from swagger-ui-dist (a missing file stops the start, not a reader) plus our own initializer script.
 * Only the files the page uses are served: not the package's index.html or swagger-initializer.js (they open the
 * petstore), nor its source maps. On in every environment, prod included (docs/operations.md): the contract is public.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';
import { sendStaticAsset, staticAsset as asset, type StaticAsset as Asset } from './static-assets.ts';

const distPackage = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
const distDir = dirname(distPackage);
const distVersion = String(JSON.parse(readFileSync(distPackage, 'utf8')).version);

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
  [`${ASSET_PREFIX}/initializer-${initializer.hash}.js`, initializer],
]);

/**
 * Everything from this origin only: no inline script or style, no eval; connections to this origin only, so "Try it
 * out" cannot be pointed elsewhere. Swagger UI needs no 'unsafe-inline' for styles: React sets its style props through
 * the DOM (element.style), which the policy allows; only style attributes in markup are refused, and it writes none
 * (the browser test fails on any violation). img-src allows data: for the icons swagger-ui.css embeds. No framing:
 * "Try it out" acts with the reader's token.
 */
const API_REFERENCE_CSP = [
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
    if (item) await sendStaticAsset(req, res, item);
    else next();
  });
  return router;
}
