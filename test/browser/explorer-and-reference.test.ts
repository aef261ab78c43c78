/**
 * GraphiQL (/graphql) and the API reference (/docs) in a real browser (Debian's chromium through playwright-core), on
 * the real app and the demo catalogue. A request to anywhere but this machine is refused and fails the test, as does
 * any console error, page error or Content-Security-Policy violation: both pages must work with no internet.
 * Screenshots land in test-results/browser/. Without chromium the file is skipped, except in CI, where it fails.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOGUE_PATH, DEMO_PASSWORD, startTestApp, type TestApp } from '../../testkit/app.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI === 'true') {
  throw new Error(`CI must run the browser tests: ${CHROMIUM} is missing (.ci/run installs Debian's chromium)`);
}
if (!hasChromium) console.warn(`Skipping the browser tests: no chromium at ${CHROMIUM} (apt-get install chromium)`);

const SCREENSHOTS = 'test-results/browser';
/** Every wait is on a selector or a response; this only bounds a page that never gets there. */
const WAIT_MS = 15_000;
/**
 * /docs is opened under this name, mapped to 127.0.0.1 inside the browser: swagger-ui treats a document on localhost or
 * 127.0.0.1 specially (no call to its online validator), and a reader's host is neither.
 */
const DOCS_HOST = 'reference.test';

/** The README's example deal, on one line (Monaco would indent typed newlines). */
const MATRIX_QUERY =
  'query Matrix { matrixCalculator(input: {cost: "55000", cost_gst: true, asset_value: 11, term: 60, ' +
  'advance_arrears: arrears, repayment_frequency: monthly}) { __typename ... on MatrixCalculatorResult { ' +
  'priced_count results { financier { name } approval_name e_min masked } } ... on Error { message } } }';

const demoFinanciers: string[] = JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8'))
  .organisations.filter((o: { type: string }) => o.type === 'f')
  .map((o: { name: string }) => o.name);

let app: TestApp;
let browser: Browser;
let port: string;

beforeAll(async () => {
  if (!hasChromium) return;
  [app, browser] = await Promise.all([
    startTestApp(),
    chromium.launch({
      executablePath: CHROMIUM,
      // CI runs as root, where chromium's sandbox cannot start. No HTTPS upgrade attempts for the mapped name.
      args: [
        '--no-sandbox',
        `--host-resolver-rules=MAP ${DOCS_HOST} 127.0.0.1`,
        '--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable',
      ],
    }),
  ]);
  port = new URL(app.baseUrl).port;
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

interface Guarded {
  context: BrowserContext;
  page: Page;
  /** Requests to anywhere but this machine (refused), console errors, page errors, CSP violations. */
  problems: string[];
}

/** A URL on this machine: the app's host names, or a blob/data URL made by one of its pages. */
function isLocal(url: string): boolean {
  if (url.startsWith('data:')) return true;
  const parsed = new URL(url.startsWith('blob:') ? url.slice('blob:'.length) : url);
  return (
    (parsed.protocol === 'http:' || parsed.protocol === 'ws:') &&
    ['127.0.0.1', 'localhost', DOCS_HOST].includes(parsed.hostname) &&
    parsed.port === port
  );
}

async function guardedPage(): Promise<Guarded> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(WAIT_MS);
  const problems: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    problems.push(`request to another host: ${url}`);
    return route.abort('blockedbyclient');
  });
  // Not every request passes through routing (workers, blob URLs): the event sees them all.
  context.on('request', (request) => {
    if (!isLocal(request.url())) problems.push(`request to another host: ${request.url()}`);
  });
  // Chromium does not report CSP refusals as console messages to the driver; the page's own event does.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} ${e.sample}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

/** Replaces a Monaco editor's text as a paste would (typing would trigger auto-closing brackets and completion). */
async function replaceEditorText(page: Page, editor: string, text: string): Promise<void> {
  await page.locator(`${editor} .graphiql-editor:not(.hidden) .view-lines`).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Monaco renders spaces as no-break spaces. */
async function visibleText(page: Page, selector: string): Promise<string> {
  return ((await page.locator(selector).textContent()) ?? '').replace(/\u00a0/g, ' ');
}

/**
 * Nothing here is timed (these machines are shared and noisy): what keeps a first visit quick is the size of what it
 * downloads, bounded in test/graphql/explorer.test.ts. This proves the page works from those assets alone.
 */
describe.skipIf(!hasChromium)('GraphiQL works on a first visit', () => {
  it('a first visit (empty cache) shows the example in an editor that takes input', async () => {
    await app.app.explorer!.prepare();
    const { context, page, problems } = await guardedPage();
    try {
      await page.goto(`${app.baseUrl}/graphql`, { waitUntil: 'commit' });
      const editor = page.locator('section[aria-label="Operation Editor"] .monaco-editor');
      await editor.locator('.view-line', { hasText: /mutation\s+SignIn/ }).waitFor();
      await editor.locator('.view-lines').click();
      await page.locator('section[aria-label="Operation Editor"] .monaco-editor.focused').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe.skipIf(!hasChromium)('GraphiQL runs a Matrix Calculator query in a real browser, offline', () => {
  it('signs in through the headers editor, runs the query and shows the rows of the demo catalogue', async () => {
    const { access } = await app.login('broker.admin@demo.test');
    const { context, page, problems } = await guardedPage();
    try {
      await page.goto(`${app.baseUrl}/graphql`, { waitUntil: 'domcontentloaded' });
      await page.locator('section[aria-label="Operation Editor"] .monaco-editor').waitFor();

      await replaceEditorText(
        page,
        'section[aria-label="Headers"]',
        JSON.stringify({ Authorization: `Bearer ${access}` }),
      );
      await replaceEditorText(page, 'section[aria-label="Operation Editor"]', MATRIX_QUERY);
      await page.locator('button[aria-label^="Prettify query"]').click();
      // Prettified: the operation's first line stands alone (before, the whole query was one line).
      await page
        .locator('section[aria-label="Operation Editor"] .view-line', { hasText: /^\s*query\s+Matrix\s+\{\s*$/ })
        .waitFor();
      // GraphiQL reads the operations out of the editor 100 ms after the last edit. Until then it still holds the
      // example's two (SignIn, Me), and the execute button opens a menu to pick one instead of sending anything.
      await page.locator('button.graphiql-execute-button:not([aria-haspopup])').waitFor();
      const answered = page.waitForResponse(
        (res) => res.url().endsWith('/graphql') && (res.request().postData() ?? '').includes('matrixCalculator'),
      );
      await page.locator('button.graphiql-execute-button').click();
      const response = await answered;
      expect(response.status()).toBe(200);
      expect(response.request().headers().authorization).toBe(`Bearer ${access}`);
      const result = (await response.json()).data.matrixCalculator;
      expect(result.__typename).toBe('MatrixCalculatorResult');
      expect(result.results.length).toBeGreaterThan(0);
      const financier: string = result.results[0].financier.name;
      expect(demoFinanciers).toContain(financier);

      // The result pane shows what came back: the first row's financier.
      await page.waitForFunction(
        (name) =>
          (document.querySelector('section[aria-label="Result Window"]')?.textContent ?? '')
            .replace(/\u00a0/g, ' ')
            .includes(name),
        financier,
        { timeout: WAIT_MS },
      );
      const pane = await visibleText(page, 'section[aria-label="Result Window"]');
      expect(pane).toContain('"matrixCalculator"');
      expect(pane).toContain('"approval_name"');
      await page.screenshot({ path: `${SCREENSHOTS}/graphiql.png` });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!hasChromium)(
  'The API reference at /docs signs in through Try it out in a real browser, offline',
  () => {
    it('lists the operations, runs POST /api/v1/auth/login with the demo credentials and shows 200 with `access`', async () => {
      const { context, page, problems } = await guardedPage();
      try {
        await page.goto(`http://${DOCS_HOST}:${port}/docs`, { waitUntil: 'domcontentloaded' });
        const login = page.locator('.opblock', {
          has: page.locator('.opblock-summary-path', { hasText: /^\/api\/v1\/auth\/login$/ }),
        });
        await login.locator('.opblock-summary').click();
        // tryItOutEnabled: the body is editable at once (the button offers Cancel).
        const body = login.locator('textarea.body-param__text');
        await body.fill(JSON.stringify({ email: 'broker.admin@demo.test', password: DEMO_PASSWORD }));
        const answered = page.waitForResponse(
          (res) => res.url().endsWith('/api/v1/auth/login') && res.request().method() === 'POST',
        );
        await login.locator('button.execute').click();
        const response = await answered;
        expect(response.status()).toBe(200);

        const status = login.locator('.live-responses-table tbody .response-col_status');
        await status.filter({ hasText: '200' }).waitFor();
        const shown = await login.locator('.live-responses-table tbody .response-col_description').textContent();
        expect(shown).toMatch(/"access":\s*"[^"]+"/);
        await page.screenshot({ path: `${SCREENSHOTS}/api-reference.png`, fullPage: true });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
