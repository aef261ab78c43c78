/**
 * GraphiQL, outside prod: GET /graphql from a browser (Accept: text/html, Yoga's own rule) answers a small page that
 * names its script, styles, editor workers and icon as separate files under /graphiql/assets/, each named by its
 * content hash: cached for a year (immutable) and sent brotli- or gzip-compressed (src/http/static-assets.ts). Yoga's
 * own page inlines all of them (megabytes, uncompressed, uncacheable, on every load).
 * Everything comes from @graphql-yoga/render-graphiql's bundle, so it works with no internet. The bundle is imported
 * and compressed once, on the first request or when `prepare()` is called (main.ts, after listen): it is heap that
 * prod, where GraphiQL is off, never loads.
 */
import { readFileSync } from 'node:fs';
import { Router, type Request } from 'express';
import { precompress, sendStaticAsset, staticAsset, type StaticAsset } from './static-assets.ts';

export interface GraphiQLPageOptions {
  title: string;
  defaultQuery: string;
  /** The headers editor's starting text (JSON). */
  headers: string;
}

const GRAPHIQL_ASSET_PREFIX = '/graphiql/assets';

interface Bundle {
  assets: Map<string, StaticAsset>;
  /** Every compression made. */
  compressed: Promise<void>;
  urls: { css: string; js: string; start: string; favicon: string; workers: Record<string, string> };
}

const SCRIPT = 'text/javascript; charset=utf-8';

async function loadBundle(): Promise<Bundle> {
  const bundle = await import('@graphql-yoga/render-graphiql/graphiql');
  const assets = new Map<string, StaticAsset>();
  const compressions: Promise<void>[] = [];
  const add = (name: string, extension: string, item: StaticAsset): string => {
    const url = `${GRAPHIQL_ASSET_PREFIX}/${name}-${item.hash}.${extension}`;
    assets.set(url, item);
    compressions.push(precompress(item));
    return url;
  };
  const icon = /^data:([^;,]+);base64,(.*)$/s.exec(bundle.favicon);
  if (!icon) throw new Error('@graphql-yoga/render-graphiql: the favicon is not a base64 data URL');
  const urls: Bundle['urls'] = {
    css: add('graphiql', 'css', staticAsset(bundle.css, 'text/css; charset=utf-8')),
    js: add('graphiql', 'js', staticAsset(bundle.js, SCRIPT)),
    start: add('start', 'js', staticAsset(readFileSync(new URL('./graphiql/start.js', import.meta.url)), SCRIPT)),
    favicon: add('favicon', 'ico', staticAsset(Buffer.from(icon[2], 'base64'), icon[1])),
    // Monaco's labels (getWorkerUrl in start.js): the same three workers Yoga's page makes from inline blobs.
    workers: {
      editorWorkerService: add('editor-worker', 'js', staticAsset(bundle.editorWorkerService, SCRIPT)),
      json: add('json-worker', 'js', staticAsset(bundle.jsonWorker, SCRIPT)),
      graphql: add('graphql-worker', 'js', staticAsset(bundle.graphqlWorker, SCRIPT)),
    },
  };
  return { assets, urls, compressed: Promise.all(compressions).then(() => {}) };
}

let loading: Promise<Bundle> | undefined;
function bundle(): Promise<Bundle> {
  loading ??= loadBundle().catch((e) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON inside a <script> element: no `<` may appear, or `</script>` in a string would end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function renderPage(urls: Bundle['urls'], options: GraphiQLPageOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="${urls.favicon}">
<link rel="stylesheet" href="${urls.css}">
</head>
<body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div>
<script id="graphiql-config" type="application/json">${scriptJson({ workers: urls.workers, options })}</script>
<script src="${urls.start}"></script>
<script src="${urls.js}"></script>
</body>
</html>
`;
}

/** Yoga's rule for "a browser opening the endpoint". */
const wantsPage = (req: Request) => req.method === 'GET' && (req.get('accept') ?? '').includes('text/html');

export interface GraphiQLExplorer {
  router: Router;
  /** Imports and compresses the bundle now, so the first reader does not wait for it; settles when both are done. */
  prepare(): Promise<void>;
}

export function graphiqlExplorer(endpoint: string, options: GraphiQLPageOptions): GraphiQLExplorer {
  let page: string | undefined;
  const router = Router();
  router.get(endpoint, async (req, res, next) => {
    if (!wantsPage(req)) return next();
    page ??= renderPage((await bundle()).urls, options);
    res.set({
      'Content-Type': 'text/html; charset=utf-8',
      // The page is small and names the current assets: always revalidated, so an upgrade shows at the next load.
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    res.send(page);
  });
  // Exact URLs from a fixed table: nothing from the request reaches the file system.
  router.get(`${GRAPHIQL_ASSET_PREFIX}/*path`, async (req, res, next) => {
    const item = (await bundle()).assets.get(req.path);
    if (item) await sendStaticAsset(req, res, item);
    else next();
  });
  return {
    router,
    prepare: async () => {
      await (await bundle()).compressed;
    },
  };
}
