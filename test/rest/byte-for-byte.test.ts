/**
 * The gateway may change how it executes an operation (graphql-js, compiled execution, its caches), never the bytes a
 * client receives. A fixed corpus of requests (the hot-path endpoints, their large result lists, and typed errors) is
 * answered by the real app on the demo catalogue and a fixed clock; each answer's status, the headers the spec names
 * and the body's exact text are compared with test/rest/__golden__/corpus.json, written from the code before the
 * gateway learned compiled execution. Access and refresh tokens are the only varying text: they are normalised.
 *
 * `UPDATE_GOLDEN=1 npx vitest run test/rest/byte-for-byte.test.ts` rewrites the file (only when the contract itself
 * changes on purpose).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { recalculationBody } from '../../testkit/recalculation.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';

const GOLDEN = new URL('./__golden__/corpus.json', import.meta.url);

interface Answer {
  name: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Case {
  name: string;
  method: string;
  path: string;
  caller: 'pro' | 'user' | 'free' | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Runs first (allowances set for a 429). */
  before?: () => Promise<void>;
}

const clock = new ManualClock(new Date('2026-11-21T02:00:00Z')); // 13:00 in Sydney: one calendar day throughout
let t: TestApp;
const tokens: Record<string, string> = {};
let bracketId: number;

const DEAL = DEMO_DEAL;
const DEALS = [
  DEAL,
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

const graphql = (name: string, caller: Case['caller'], query: string, variables?: unknown): Case => ({
  name: `graphql ${name}`,
  method: 'POST',
  path: '/graphql',
  caller,
  body: { query, ...(variables === undefined ? {} : { variables }) },
});

async function allow(calculator_allowance: number | null, matrix_allowance: number | null): Promise<void> {
  const prisma = t.database.prisma;
  await prisma.organisation.update({
    where: { id: 8 },
    data: { plan_overrides: { calculator_allowance, matrix_allowance } },
  });
  await prisma.dailyUsage.deleteMany({});
}

function corpus(): Case[] {
  const cases: Case[] = [];
  DEALS.forEach((deal, i) => {
    cases.push({
      name: `matrix-calculator deal ${i}`,
      method: 'POST',
      path: '/api/v1/matrix-calculator/',
      caller: 'pro',
      body: deal,
    });
    cases.push({ name: `matrix deal ${i}`, method: 'POST', path: '/api/v1/matrix/', caller: 'pro', body: deal });
    cases.push({ name: `calculator deal ${i}`, method: 'POST', path: '/api/v1/calculator', caller: 'pro', body: deal });
  });
  cases.push(
    {
      name: 'recalculate',
      method: 'POST',
      path: '/api/v1/calculator/recalculate',
      caller: 'pro',
      body: recalculationBody(bracketId),
    },
    {
      name: 'recalculate weekly with balloon',
      method: 'POST',
      path: '/api/v1/calculator/recalculate',
      caller: 'pro',
      body: recalculationBody(bracketId, { repayment_frequency: 'weekly', balloon: 5000, noi_min: 156, noi_max: 260 }),
    },
    {
      name: 'recalculate unknown bracket',
      method: 'POST',
      path: '/api/v1/calculator/recalculate',
      caller: 'pro',
      body: recalculationBody(987654),
    },
    { name: 'financiers', method: 'GET', path: '/api/v1/calculator/financiers', caller: 'pro' },
    { name: 'financiers, free broker', method: 'GET', path: '/api/v1/calculator/financiers', caller: 'free' },
    {
      name: '400 validation: fields missing and wrong',
      method: 'POST',
      path: '/api/v1/matrix-calculator/',
      caller: 'pro',
      body: { cost: 'abc', term: 'x', repayment_frequency: 'daily' },
    },
    {
      name: '400 validation: calculator rules',
      method: 'POST',
      path: '/api/v1/calculator',
      caller: 'pro',
      body: { ...DEAL, term: 1000, deposit: -5 },
    },
    { name: '400 malformed JSON', method: 'POST', path: '/api/v1/calculator', caller: 'pro', raw: '{"cost": 5' },
    { name: '401 no credentials', method: 'POST', path: '/api/v1/matrix-calculator/', caller: null, body: DEAL },
    {
      name: '403 entitlement: Free broker on the Matrix Calculator',
      method: 'POST',
      path: '/api/v1/matrix-calculator/',
      caller: 'free',
      body: DEAL,
    },
    {
      name: '403 entitlement: Free broker on the Matrix',
      method: 'POST',
      path: '/api/v1/matrix/',
      caller: 'free',
      body: DEAL,
    },
    {
      name: '429 cap_hit: matrix allowance spent',
      method: 'POST',
      path: '/api/v1/matrix-calculator/',
      caller: 'pro',
      body: DEAL,
      before: () => allow(100, 0),
    },
    {
      name: '429 cap_hit: calculator allowance spent',
      method: 'POST',
      path: '/api/v1/calculator',
      caller: 'pro',
      body: DEAL,
      before: () => allow(0, 100),
    },
    {
      name: 'matrix-calculator after allowances restored',
      method: 'POST',
      path: '/api/v1/matrix-calculator/',
      caller: 'user',
      body: DEALS[1],
      before: () => allow(null, null),
    },
    { name: '404 unknown route', method: 'GET', path: '/api/v1/nothing-here', caller: 'pro' },
    graphql('matrixCalculator', 'pro', GRAPHQL_MATRIX_CALCULATOR, { input: DEAL }),
    graphql('matrixCalculator second deal', 'user', GRAPHQL_MATRIX_CALCULATOR, { input: DEALS[2] }),
    graphql('calculate', 'pro', GRAPHQL_CALCULATE, { input: DEALS[3] }),
    graphql('matrixCalculator validation error', 'pro', GRAPHQL_MATRIX_CALCULATOR, { input: { ...DEAL, term: 0 } }),
    graphql('matrixCalculator entitlement error', 'free', GRAPHQL_MATRIX_CALCULATOR, { input: DEAL }),
    graphql('matrixCalculator unauthenticated', null, GRAPHQL_MATRIX_CALCULATOR, { input: DEAL }),
    graphql(
      'calculate unauthenticated',
      null,
      '{ calculate(input: {cost: "1", asset_value: 11, term: 12}) { __typename ... on Error { message code } } }',
    ),
    graphql('variable coercion error', 'pro', GRAPHQL_MATRIX_CALCULATOR, { input: { ...DEAL, term: 'sixty' } }),
    graphql('unknown field', 'pro', '{ matrixCalculator(input: {cost: "1"}) { nope } }'),
    graphql('syntax error', 'pro', '{ matrixCalculator(input: '),
    graphql(
      'financiers',
      'pro',
      '{ financiers { __typename ... on QueryFinanciersSuccess { data { id name } } ... on Error { message } } }',
    ),
    graphql(
      'me',
      'user',
      '{ me { __typename ... on User { email first_name organisation_id } ... on Error { message code } } }',
    ),
  );
  return cases;
}

/** What may differ between two correct runs: signed tokens. Everything else is fixed by the seed and the clock. */
function normalise(text: string): string {
  return text.replace(/[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, '<jwt>');
}

const KEPT_HEADERS = ['content-type', 'retry-after'];

async function answer(c: Case): Promise<Answer> {
  await c.before?.();
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (c.caller) headers.authorization = `Bearer ${tokens[c.caller]}`;
  let payload: string | undefined = c.raw;
  if (c.body !== undefined) payload = JSON.stringify(c.body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.baseUrl}${c.path}`, { method: c.method, headers, body: payload });
  const kept: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) kept[h] = v;
  }
  return { name: c.name, status: res.status, headers: kept, body: normalise(await res.text()) };
}

beforeAll(async () => {
  t = await startTestApp({ clock });
  tokens.pro = (await t.login('broker.admin@demo.test')).access;
  tokens.user = (await t.login('broker.user@demo.test')).access;
  tokens.free = (await t.login('free.broker@demo.test')).access;
  bracketId = (
    await t.database.prisma.rateBracket.findFirstOrThrow({ where: { type: 'commercial' }, orderBy: { id: 'asc' } })
  ).id;
  await allow(null, null);
});
afterAll(async () => {
  await t?.close();
});

describe('The contract stays byte-for-byte the same: REST and GraphQL answers on a fixed corpus match the golden file', () => {
  it('every answer (status, content type, Retry-After, body text) equals the committed one', async () => {
    const answers: Answer[] = [];
    for (const c of corpus()) answers.push(await answer(c));
    // The corpus exercises what it claims to: large lists, typed errors and GraphQL errors.
    const statuses = new Set(answers.map((a) => a.status));
    for (const s of [200, 400, 401, 403, 404, 429]) expect(statuses, `a ${s} in the corpus`).toContain(s);
    if (process.env.UPDATE_GOLDEN || !existsSync(GOLDEN)) {
      writeFileSync(GOLDEN, `${JSON.stringify(answers, null, 1)}\n`);
      if (!process.env.UPDATE_GOLDEN) throw new Error('golden file was missing: written; run again');
    }
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Answer[];
    expect(answers.map((a) => a.name)).toEqual(golden.map((g) => g.name));
    for (const [i, a] of answers.entries()) expect(a, a.name).toEqual(golden[i]);
  });
});
