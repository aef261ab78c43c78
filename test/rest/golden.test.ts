/**
 * Every /api/v1 endpoint of the route table answers byte for byte as the committed corpus says: one request per
 * endpoint that succeeds on the demo catalogue, and for each kind of refusal (400 validation, 401, 403, 404, 409, 429)
 * a few requests that earn it; the hot paths (calculator, matrix, matrix calculator, recalculate) on several deals, and
 * the same operations through POST /graphql (typed results, typed errors and GraphQL's own errors). The gateway may
 * change how it executes an operation, never the bytes a client receives. Each answer's status, the headers a client reads (content type and length, ETag,
 * Cache-Control, Retry-After, Location, X-Scenario-Id, X-Scenario-Change-Threshold, X-Total-Count) and the exact body text are compared with
 * test/rest/golden/rest-v1.json, recorded on the code before dependencies replaced hand-written execution and
 * database plumbing.
 *
 * The requests run in order on one app over a fresh copy of the demo data and a fixed clock, so ids from sequences
 * and timestamps are the same on every run. Normalised (the only text that varies run to run): signed access
 * tokens (`<jwt>`), refresh tokens and API-token secrets and their shown parts (`<secret>`), a checkout session's
 * random id, and the times the database stamps with its own clock (`<now>`); Content-Length is kept as sent (each
 * of these has a fixed length).
 *
 * `GOLDEN_UPDATE=1 npx vitest run test/rest/golden.test.ts` rewrites the corpus: only for a deliberate change of the
 * contract, reviewed in the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { type AbnRegisterStandIn, startAbnRegisterStandIn } from '../../testkit/abn-register.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';
import { recalculationBody } from '../../testkit/recalculation.ts';

const CORPUS = new URL('./golden/rest-v1.json', import.meta.url);

type Caller = 'broker' | 'user' | 'free' | 'financier' | 'readToken' | null;

interface Case {
  /** The route table entry it exercises: `METHOD /path` as written in the table. */
  route: string;
  name: string;
  method: string;
  path: string;
  caller: Caller;
  body?: unknown;
  raw?: string;
  /** The body, read when sent (after `before`). */
  bodyOf?: () => unknown;
  /** Runs first: sets up what the request's ids name. */
  before?: () => Promise<void>;
}

interface Answer {
  name: string;
  request: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const KEPT_HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'retry-after',
  'location',
  'x-scenario-id',
  'x-scenario-change-threshold',
  'x-total-count',
];

const clock = new ManualClock(new Date('2026-11-21T02:00:00Z')); // 13:00 in Sydney: one calendar day throughout
let t: TestApp;
let register: AbnRegisterStandIn;
const tokens: Record<string, string> = {};

const BROKER_ORG = 8;
const IMPORT = {
  format: 'json',
  content: JSON.stringify({
    products: [
      {
        key: 'equipment',
        product_name: 'Harbour Equipment Loan',
        min_range: 12,
        max_range: 84,
        min_amount: 10000,
        max_amount: 2000000,
        monthly_fee: 4.95,
        documentation_fee: 495,
        compounding_frequency: 'm',
        doc_fee_financed: 'both',
        private_sale: 'both',
        sale_hire_back: 'both',
        home_owner: 'both',
      },
    ],
    rate_brackets: [
      {
        product: 'equipment',
        name: 'Primary assets, new to 3 years',
        min_term: 12,
        max_term: 84,
        max_asset_age: 36,
        base_min: 7.29,
        base_max: 9.29,
        max_lvr: 110,
      },
    ],
  }),
};

const APPROVAL = {
  name: 'Low Doc, ABN 2 years, asset-backed',
  doc_level: 'low_doc',
  priority: 10,
  min_abn_age: 24,
  min_gst_age: 12,
  max_asset_cost: '150000',
  min_credit_score: 600,
  home_owner: true,
  max_term: 60,
  asset_ids: [1, 2, 3],
  transaction_types: ['purchase', 'refinance'],
  rate_bracket_ids: [5, 6],
};

const c = (route: string, name: string, caller: Caller, path: string, extra: Partial<Case> = {}): Case => ({
  route,
  name,
  method: route.split(' ')[0],
  path: `/api/v1${path}`,
  caller,
  ...extra,
});

async function freshRefresh(email: string): Promise<string> {
  return (await t.login(email)).refresh;
}

function corpus(): Case[] {
  let refreshToken = '';
  return [
    // Sign-in and sessions.
    c('POST /auth/login', 'sign in', null, '/auth/login', {
      body: { email: 'broker.user@demo.test', password: 'demo-password-1' },
    }),
    c('POST /auth/login', '401 wrong password', null, '/auth/login', {
      body: { email: 'broker.user@demo.test', password: 'not-the-password' },
    }),
    c('POST /auth/login', '400 email missing', null, '/auth/login', { body: { password: 'x' } }),
    c('POST /auth/login', '400 malformed JSON', null, '/auth/login', { raw: '{"email": ' }),
    c('POST /auth/refresh', 'refresh', null, '/auth/refresh', {
      before: async () => {
        refreshToken = await freshRefresh('broker.user@demo.test');
      },
      bodyOf: () => ({ refresh: refreshToken }),
    }),
    c('POST /auth/refresh', '401 unknown refresh token', null, '/auth/refresh', { body: { refresh: 'nope' } }),
    c('POST /auth/logout', 'logout', null, '/auth/logout', {
      before: async () => {
        refreshToken = await freshRefresh('broker.user@demo.test');
      },
      bodyOf: () => ({ refresh: refreshToken }),
    }),
    c('POST /auth/resend-verification', 'resend verification', null, '/auth/resend-verification', {
      body: { email: 'broker.admin@demo.test' },
    }),
    c('POST /auth/forgot-password', 'forgot password', null, '/auth/forgot-password', {
      body: { email: 'broker.admin@demo.test' },
    }),
    c('POST /auth/forgot-password', '400 not an email', null, '/auth/forgot-password', { body: { email: 42 } }),

    // API tokens.
    c('GET /api-tokens', 'list, none yet', 'broker', '/api-tokens'),
    c('POST /api-tokens', 'create', 'broker', '/api-tokens', { body: { name: 'Reporting script', scope: 'read' } }),
    c('POST /api-tokens', '400 scope unknown', 'broker', '/api-tokens', { body: { name: 'x', scope: 'everything' } }),
    c('GET /api-tokens', 'list, one', 'broker', '/api-tokens'),
    c('POST /api-tokens', '401 no credentials', null, '/api-tokens', { body: { name: 'x', scope: 'read' } }),
    c('DELETE /api-tokens/:id', 'revoke', 'broker', '/api-tokens/2'), // 1 is the financier's read token
    c('DELETE /api-tokens/:id', '404 revoke unknown', 'broker', '/api-tokens/999'),
    c('DELETE /api-tokens/:id', '400 id not a number', 'broker', '/api-tokens/abc'),

    // Organisations and users.
    c('GET /organisations/:id', 'own organisation', 'broker', `/organisations/${BROKER_ORG}`),
    c('GET /organisations/:id', '404 unknown organisation', 'broker', '/organisations/99999'),
    c('PUT /users/:id', 'update a team member', 'broker', '/users/2', {
      body: { first_name: 'Jack', last_name: 'Thompson', is_admin: false, is_active: true },
    }),
    c('PUT /users/:id', '403 non-admin updates a user', 'user', '/users/1', { body: { first_name: 'Nope' } }),
    c('PUT /users/:id', '409 the last active admin demotes themself', 'broker', '/users/1', {
      body: { is_admin: false },
    }),

    // Billing and feature flags.
    c('GET /billing/subscription', 'subscription', 'broker', '/billing/subscription'),
    c('POST /billing/reactivate', '409 nothing to reactivate', 'broker', '/billing/reactivate'),
    c('POST /billing/reactivate', 'reactivate', 'broker', '/billing/reactivate', {
      before: async () => {
        await t.database.prisma.subscription.update({
          where: { organisation_id: BROKER_ORG },
          data: { cancel_at_period_end: true, processor_id: 'sub_demo' },
        });
      },
    }),
    c('POST /billing/checkout-session', 'checkout', 'free', '/billing/checkout-session', {
      body: { plan: 'pro', seats: 1 },
    }),
    c('POST /billing/checkout-session', '400 plan unknown', 'free', '/billing/checkout-session', {
      body: { plan: 'gold', seats: 1 },
    }),
    c('GET /feature-flags', 'feature flags', 'broker', '/feature-flags'),

    // Pricing and approvals for a deal.
    c('POST /calculator', 'calculate', 'broker', '/calculator', { body: DEMO_DEAL }),
    c('POST /calculator', '400 calculator rules', 'broker', '/calculator', {
      body: { ...DEMO_DEAL, term: 1000, deposit: -5 },
    }),
    c('POST /calculator/recalculate', 'recalculate', 'broker', '/calculator/recalculate', {
      body: {
        rate_bracket_id: 1,
        base_min: 7.25,
        base_max: 9.49,
        compounding_freq_value: 12,
        pv: 55000,
        balloon: 0,
        cost: 55000,
        deposit: 0,
        noi_min: 60,
        noi_max: 60,
        billing_type: null,
        repayment_frequency: 'monthly',
      },
    }),
    c('POST /calculator/recalculate', '400 recalculate fields missing', 'broker', '/calculator/recalculate', {
      body: { rate_bracket_id: 1 },
    }),
    c('GET /calculator/financiers', 'financiers', 'broker', '/calculator/financiers?surface=calculator'),
    c('POST /calculator/scenarios/:id/promote', 'promote the recent run', 'broker', '/calculator/scenarios/1/promote', {
      body: { name: 'Excavator for Smith Civil' },
    }),
    c('POST /calculator/scenarios/:id/promote', '404 unknown scenario', 'broker', '/calculator/scenarios/999/promote', {
      body: { name: 'x' },
    }),
    c('POST /matrix/', 'matrix', 'broker', '/matrix/', { body: DEMO_DEAL }),
    c('POST /matrix/', '403 Free broker on the Matrix', 'free', '/matrix/', { body: DEMO_DEAL }),
    c('POST /matrix-calculator/', 'matrix calculator', 'broker', '/matrix-calculator/', { body: DEMO_DEAL }),
    c('POST /matrix-calculator/', '400 fields missing and wrong', 'broker', '/matrix-calculator/', {
      body: { cost: 'abc', term: 'x', repayment_frequency: 'daily' },
    }),
    c('POST /matrix-calculator/', '401 bad token', null, '/matrix-calculator/', { body: DEMO_DEAL }),
    c('POST /what-would-it-take/', 'what would it take', 'broker', '/what-would-it-take/', {
      body: {
        ...DEMO_DEAL,
        abn_age: 20,
        gst_age: undefined,
        bounds: { max_deposit: 15000, min_term: 24, max_term: 60 },
        rank_by: 'repayment',
      },
    }),
    c('POST /what-would-it-take/', '400 bounds wrong', 'broker', '/what-would-it-take/', {
      body: { ...DEMO_DEAL, bounds: { min_term: 'soon' } },
    }),
    c('POST /calculator/abn-lookup', 'ABN lookup', 'broker', '/calculator/abn-lookup', {
      body: { abn: '51824753556' },
    }),
    c('POST /calculator/abn-lookup', '400 ABN checksum', 'broker', '/calculator/abn-lookup', {
      body: { abn: '12345678901' },
    }),

    // The asset tree.
    c('GET /assets/search', 'asset search', 'broker', '/assets/search?q=excavator&limit=5'),
    c('GET /assets/search', '400 limit not a number', 'broker', '/assets/search?q=car&limit=many'),
    c('PATCH /assets/:id', 'rename an asset', 'financier', '/assets/31', {
      body: { name: 'Excavator', alias: 'digger, earthmover' },
    }),
    c('PATCH /assets/:id', '403 broker edits the tree', 'broker', '/assets/31', { body: { name: 'Digger' } }),
    c('PATCH /assets/:id', '404 unknown asset', 'financier', '/assets/99999', { body: { name: 'Digger' } }),

    // An AI assistant's connection.
    c('DELETE /mcp-connections/:id', 'revoke an assistant', 'broker', '/mcp-connections/1', {
      before: async () => {
        const minted = await t.rest('POST', '/api/v1/api-tokens', {
          token: tokens.broker,
          body: { name: 'Claude', scope: 'read', origin: 'mcp' },
        });
        expect(minted.status).toBe(201);
        const initialize = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Claude', version: '1' } },
        };
        const handshake = await t.rest('POST', '/mcp', {
          token: minted.body.token,
          body: initialize,
          headers: { accept: 'application/json, text/event-stream' },
        });
        expect(handshake.status).toBe(200);
      },
    }),
    c('DELETE /mcp-connections/:id', '404 unknown connection', 'broker', '/mcp-connections/999'),

    // Rate cards: an import, product changes, their versions.
    c('POST /rate-cards/import/preview', 'import preview', 'financier', '/rate-cards/import/preview', {
      body: IMPORT,
    }),
    c('POST /rate-cards/import/preview', '400 format unknown', 'financier', '/rate-cards/import/preview', {
      body: { ...IMPORT, format: 'xml' },
    }),
    c('POST /rate-cards/import', 'import', 'financier', '/rate-cards/import', {
      body: { ...IMPORT, expected_version: 0 },
    }),
    c('POST /rate-cards/import', '409 stale expected version', 'financier', '/rate-cards/import', {
      body: { ...IMPORT, expected_version: 0 },
    }),
    c('POST /rate-cards/import', '403 broker imports a card', 'broker', '/rate-cards/import', {
      body: { ...IMPORT, expected_version: 0 },
    }),
    c('POST /products', 'create a product', 'financier', '/products', {
      body: {
        product_name: 'Harbour Solar & Battery Loan',
        min_range: 12,
        max_range: 84,
        min_amount: 10000,
        max_amount: 500000,
        monthly_fee: 4.95,
        documentation_fee: 495,
        compounding_frequency: 'm',
        doc_fee_financed: 'both',
        private_sale: 'no',
        sale_hire_back: 'no',
        home_owner: 'both',
      },
    }),
    c('POST /products', '400 product fields missing', 'financier', '/products', { body: { product_name: '' } }),
    c('POST /products', '403 read-only token writes', 'readToken', '/products', { body: { product_name: 'x' } }),
    c('PATCH /products/:id', 'update a product', 'financier', '/products/1', {
      body: { monthly_fee: 5.95, documentation_fee: 450 },
    }),
    c('PATCH /products/:id', '404 unknown product', 'financier', '/products/99999', { body: { monthly_fee: 1 } }),
    c('GET /rate-card-versions/:id/diff', 'version diff', 'financier', '/rate-card-versions/1/diff'),
    c('GET /rate-card-versions/:id/diff', '404 unknown version', 'financier', '/rate-card-versions/999/diff'),
    c('POST /rate-card-versions/:id/restore', 'restore a version', 'financier', '/rate-card-versions/1/restore', {
      body: {},
    }),

    // Issue reports.
    c(
      'GET /reports/duplicates',
      'duplicates, none yet',
      'broker',
      '/reports/duplicates?kind=pricing&subject_org=1&rate_bracket=1&subject_field=base_min',
    ),
    c('POST /reports', 'file a report', 'broker', '/reports', {
      body: {
        kind: 'pricing',
        subject_org: 1,
        rate_bracket: 1,
        subject_field: 'base_min',
        comment: "Harbour's new-asset rate is 7.29% on their broker portal, not 7.49%.",
      },
    }),
    c(
      'GET /reports/duplicates',
      'duplicates, one',
      'user',
      '/reports/duplicates?kind=pricing&subject_org=1&rate_bracket=1&subject_field=base_min',
    ),
    c('POST /reports', '400 kind unknown', 'broker', '/reports', { body: { kind: 'gossip' } }),

    // Notifications.
    c('GET /notifications/preferences', 'preferences', 'broker', '/notifications/preferences'),
    c('PATCH /notifications/preferences', 'update preferences', 'broker', '/notifications/preferences', {
      body: {
        categories: { rate_card: false },
        quiet_hours_enabled: true,
        quiet_hours_start: '22:00',
        quiet_hours_end: '07:00',
        timezone: 'Australia/Sydney',
      },
    }),
    c('PATCH /notifications/preferences', '400 timezone unknown', 'broker', '/notifications/preferences', {
      body: { timezone: 'Mars/Olympus' },
    }),
    c('POST /notifications/devices', 'register a device', 'broker', '/notifications/devices', {
      body: {
        token: 'dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx',
        platform: 'android',
        timezone: 'Australia/Sydney',
      },
    }),
    c('POST /notifications/devices/unregister', 'unregister a device', 'broker', '/notifications/devices/unregister', {
      body: { token: 'dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx' },
    }),

    // Approval criteria.
    c('GET /approvals', 'approvals of a financier', 'broker', '/approvals?organisation_id=1'),
    c('GET /approvals/options', 'approval options', 'broker', '/approvals/options'),
    c('PUT /approvals/:id', 'update an approval', 'financier', '/approvals/1', { body: APPROVAL }),
    c('PUT /approvals/:id', '403 broker edits criteria', 'broker', '/approvals/1', { body: APPROVAL }),
    c('PUT /approvals/:id', '404 unknown approval', 'financier', '/approvals/99999', { body: APPROVAL }),
    c('PUT /approvals/:id', '400 doc level missing', 'financier', '/approvals/1', { body: { name: 'x' } }),

    // Outside the table.
    c('GET /nothing-here', '404 unknown route', 'broker', '/nothing-here'),

    // The hot paths again: more deals and their typed refusals, on the data as the requests above left it.
    ...DEALS.flatMap((deal, i) => [
      c('POST /matrix-calculator/', `matrix calculator deal ${i + 1}`, 'broker', '/matrix-calculator/', { body: deal }),
      c('POST /matrix/', `matrix deal ${i + 1}`, 'broker', '/matrix/', { body: deal }),
      c('POST /calculator', `calculate deal ${i + 1}`, 'broker', '/calculator', { body: deal }),
    ]),
    c('POST /calculator/recalculate', 'recalculate weekly with balloon', 'broker', '/calculator/recalculate', {
      body: recalculationBody(1, { repayment_frequency: 'weekly', balloon: 5000, noi_min: 156, noi_max: 260 }),
    }),
    c('POST /calculator/recalculate', 'recalculate unknown bracket', 'broker', '/calculator/recalculate', {
      body: recalculationBody(987654),
    }),
    c('GET /calculator/financiers', 'financiers, no surface named', 'broker', '/calculator/financiers'),
    c('GET /calculator/financiers', 'financiers, Free broker', 'free', '/calculator/financiers'),
    c('POST /calculator', '400 malformed JSON on a deal', 'broker', '/calculator', { raw: '{"cost": 5' }),
    c('POST /matrix-calculator/', '401 no credentials', null, '/matrix-calculator/', { body: DEMO_DEAL }),
    c('POST /matrix-calculator/', '403 Free broker on the Matrix Calculator', 'free', '/matrix-calculator/', {
      body: DEMO_DEAL,
    }),
    c('POST /matrix-calculator/', '429 matrix allowance spent', 'broker', '/matrix-calculator/', {
      body: DEMO_DEAL,
      before: () => allow(100, 0),
    }),
    c('POST /calculator', '429 calculator allowance spent', 'broker', '/calculator', {
      body: DEMO_DEAL,
      before: () => allow(0, 100),
    }),
    c('POST /matrix-calculator/', 'matrix calculator, allowances restored', 'user', '/matrix-calculator/', {
      body: DEALS[0],
      before: () => allow(null, null),
    }),

    // GraphQL, the same operations: its typed results and its own errors.
    graphql('matrixCalculator', 'broker', GRAPHQL_MATRIX_CALCULATOR, { input: DEMO_DEAL }),
    graphql('matrixCalculator second deal', 'user', GRAPHQL_MATRIX_CALCULATOR, { input: DEALS[1] }),
    graphql('calculate', 'broker', GRAPHQL_CALCULATE, { input: DEALS[2] }),
    graphql('matrixCalculator validation error', 'broker', GRAPHQL_MATRIX_CALCULATOR, {
      input: { ...DEMO_DEAL, term: 0 },
    }),
    graphql('matrixCalculator entitlement error', 'free', GRAPHQL_MATRIX_CALCULATOR, { input: DEMO_DEAL }),
    graphql('matrixCalculator unauthenticated', null, GRAPHQL_MATRIX_CALCULATOR, { input: DEMO_DEAL }),
    graphql(
      'calculate unauthenticated',
      null,
      '{ calculate(input: {cost: "1", asset_value: 11, term: 12}) { __typename ... on Error { message code } } }',
    ),
    graphql('variable coercion error', 'broker', GRAPHQL_MATRIX_CALCULATOR, { input: { ...DEMO_DEAL, term: 'sixty' } }),
    graphql('unknown field', 'broker', '{ matrixCalculator(input: {cost: "1"}) { nope } }'),
    graphql('syntax error', 'broker', '{ matrixCalculator(input: '),
    graphql(
      'financiers',
      'broker',
      '{ financiers { __typename ... on QueryFinanciersSuccess { data { id name } } ... on Error { message } } }',
    ),
    graphql(
      'me',
      'user',
      '{ me { __typename ... on User { email first_name organisation_id } ... on Error { message code } } }',
    ),
  ];
}

/** Deals beside DEMO_DEAL: advance, a weekly balloon, a quarterly deposit. */
const DEALS = [
  { cost: 30000, asset_value: 11, term: 48, advance_arrears: 'advance', repayment_frequency: 'monthly' },
  {
    cost: '120000.50',
    asset_value: 11,
    term: 36,
    advance_arrears: 'arrears',
    repayment_frequency: 'weekly',
    balloon: 10,
  },
  {
    cost: 15000,
    asset_value: 11,
    term: 24,
    advance_arrears: 'arrears',
    repayment_frequency: 'quarterly',
    deposit: 2000,
  },
];

const GRAPHQL_MATRIX_CALCULATOR = `query G($input: DealInput!) {
  matrixCalculator(input: $input) {
    __typename
    ... on MatrixCalculatorResult {
      priced_count destination_count degraded
      results { organisation_id organisation_name approval_id approval_name doc_level status missing_fields
        product_id rate_bracket_id base_min base_max e_min e_max repayment_min repayment_max balloon commission masked
        priced_bracket_count financier { __typename } }
    }
    ... on Error { message code }
    ... on ValidationError { errors { field messages } }
    ... on CapHitError { detail limit used metric }
  }
}`;
const GRAPHQL_CALCULATE = `query G($input: DealInput!) {
  calculate(input: $input) {
    __typename
    ... on CalculatorResult { priced_count results { organisation_id rate_bracket_id rate_min rate_max repayment_min
      repayment_max amount_financed instalments advance monthly_fee_per_instalment } }
    ... on Error { message code }
    ... on ValidationError { errors { field messages } }
  }
}`;

/** A POST /graphql request (outside the route table; the same operations the hot-path routes run). */
const graphql = (name: string, caller: Caller, query: string, variables?: unknown): Case => ({
  route: 'POST /graphql',
  name: `graphql ${name}`,
  method: 'POST',
  path: '/graphql',
  caller,
  body: { query, ...(variables === undefined ? {} : { variables }) },
});

/** Sets the broker's daily allowances (null: the plan's) and forgets today's usage, for a 429 and back. */
async function allow(calculator_allowance: number | null, matrix_allowance: number | null): Promise<void> {
  await t.database.prisma.organisation.update({
    where: { id: BROKER_ORG },
    data: { plan_overrides: { calculator_allowance, matrix_allowance } },
  });
  await t.database.prisma.dailyUsage.deleteMany({});
}

/**
 * What may differ between two correct runs: signed tokens, the random parts of handed-out secrets and of a checkout
 * session's id, and the times the database stamps with its own clock (within hours of the real time, far from the
 * fixed clock's 2026-11-21).
 */
function normalise(text: string): string {
  const now = Date.now();
  return text
    .replace(/[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, '<jwt>')
    .replace(/"(refresh|token|token_id|last_four)":"[^"]*"/g, '"$1":"<secret>"')
    .replace(/bcs_[A-Za-z0-9_-]+/g, 'bcs_<random>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, (stamp) =>
      Math.abs(Date.parse(stamp) - now) < 12 * HOUR && stamp !== clock.now().toISOString() ? '<now>' : stamp,
    );
}

const HOUR = 3_600_000;

async function answer(k: Case): Promise<Answer> {
  await k.before?.();
  const headers: Record<string, string> = {};
  if (k.caller) headers.authorization = `Bearer ${tokens[k.caller]}`;
  else if (k.name.startsWith('401 bad token')) headers.authorization = 'Bearer not-a-token';
  let payload: string | undefined = k.raw;
  const sent = k.bodyOf ? k.bodyOf() : k.body;
  if (sent !== undefined) payload = JSON.stringify(sent);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.baseUrl}${k.path}`, { method: k.method, headers, body: payload });
  const text = await res.text();
  const kept: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) kept[h] = v;
  }
  return { name: k.name, request: `${k.method} ${k.path}`, status: res.status, headers: kept, body: normalise(text) };
}

beforeAll(async () => {
  register = await startAbnRegisterStandIn();
  t = await startTestApp({
    clock,
    config: {
      abnLookupUrl: register.url,
      abnLookupGuid: 'demo-guid',
    },
  });
  tokens.broker = (await t.login('broker.admin@demo.test')).access;
  tokens.user = (await t.login('broker.user@demo.test')).access;
  tokens.free = (await t.login('free.broker@demo.test')).access;
  tokens.financier = (await t.login('financier.admin@demo.test')).access;
  const read = await t.rest('POST', '/api/v1/api-tokens', {
    token: tokens.financier,
    body: { name: 'Read only', scope: 'read' },
  });
  expect(read.status).toBe(201);
  tokens.readToken = read.body.token;
});
afterAll(async () => {
  await t?.close();
  await register?.close();
});

describe('Every REST endpoint answers byte for byte as the committed corpus records', () => {
  const cases = corpus();

  it('the corpus sends at least one request to every route of the table', () => {
    const table = routes.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort();
    const covered = new Set(cases.map((k) => k.route));
    expect(table.filter((r) => !covered.has(r))).toEqual([]);
  });

  it('each answer (status, the headers a client reads, body text) equals the recorded one', async () => {
    const answers: Answer[] = [];
    for (const k of cases) answers.push(await answer(k));
    const statuses = new Set(answers.map((a) => a.status));
    for (const s of [200, 201, 204, 400, 401, 403, 404, 409, 429])
      expect(statuses, `a ${s} in the corpus`).toContain(s);
    if (process.env.GOLDEN_UPDATE) writeFileSync(CORPUS, `${JSON.stringify(answers, null, 1)}\n`);
    expect(existsSync(CORPUS), 'the corpus file exists (GOLDEN_UPDATE=1 records it)').toBe(true);
    const recorded = JSON.parse(readFileSync(CORPUS, 'utf8')) as Answer[];
    expect(answers.map((a) => a.name)).toEqual(recorded.map((g) => g.name));
    for (const [i, a] of answers.entries()) expect(a, a.name).toEqual(recorded[i]);
  }, 300_000); // over a hundred requests in sequence, several of them full engine runs
});
