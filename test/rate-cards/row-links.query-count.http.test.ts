/**
 * Result rows link to the records they were priced from: `financier`, `product` and `rate_bracket` on calculator and
 * Matrix Calculator rows. Each link is one batched query per response, whatever the number of rows: a warm run that
 * asks for all three costs the run's own statements plus three, on the demo catalogue and on one ten times larger.
 * A masked Matrix Calculator row links no rate bracket (the bracket would show the rates the paywall hides).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let pro: string;
let free: string;
const DEAL = { cost: '50000', asset_value: 11, term: 60, advance_arrears: 'arrears', repayment_frequency: 'monthly' };
const LINKS =
  'financier { id name } product { id product_name organisation_id } rate_bracket { id name base_min product_id }';
const CALCULATE = `query($input: DealInput!) { calculate(input: $input) { __typename ... on CalculatorResult {
  results { organisation_id product_id rate_bracket_id ${LINKS} } } } }`;
const BARE_CALCULATE = `query($input: DealInput!) { calculate(input: $input) { __typename ... on CalculatorResult {
  results { organisation_id product_id rate_bracket_id } } } }`;
const MATRIX = `query($input: DealInput!) { matrixCalculator(input: $input) { __typename ... on MatrixCalculatorResult {
  results { organisation_id product_id rate_bracket_id masked ${LINKS} } } } }`;
const BARE_MATRIX = `query($input: DealInput!) { matrixCalculator(input: $input) { __typename ... on MatrixCalculatorResult {
  results { organisation_id product_id rate_bracket_id masked } } } }`;

beforeAll(async () => {
  t = await startTestApp();
  const kit = seedKit(t.database.prisma);
  await kit.planOverrides(8, { calculator_allowance: null, matrix_allowance: null });
  await kit.planOverrides(10, { entitlements: ['matrix.enabled'], calculator_allowance: null, matrix_allowance: null });
  pro = (await t.login('broker.admin@demo.test')).access;
  const freeUser = await kit.user({ email: 'free@bayside.test', organisation: 10 });
  free = (await t.login(freeUser.email)).access;
});
afterAll(async () => {
  await t?.close();
});

async function counted(token: string, query: string): Promise<{ queries: number; data: any }> {
  const before = t.database.queryCount();
  const data = await t.graphql(token).request(query, { input: DEAL });
  return { queries: t.database.queryCount() - before, data };
}

function checkLinks(rows: any[]): void {
  expect(rows.length).toBeGreaterThan(3);
  for (const row of rows) {
    expect(row.financier.id).toBe(row.organisation_id);
    expect(row.product).toMatchObject({ id: row.product_id, organisation_id: row.organisation_id });
    if (row.masked) expect(row.rate_bracket).toBeNull();
    else expect(row.rate_bracket).toMatchObject({ id: row.rate_bracket_id, product_id: row.product_id });
  }
}

describe('Row links are batched: three more queries per response, at 1x and 10x the catalogue', () => {
  const measured: Record<string, number> = {};

  beforeAll(async () => {
    for (const size of ['1x', '10x']) {
      if (size === '10x') await seedKit(t.database.prisma).copyCatalogue(9);
      await counted(pro, BARE_CALCULATE); // warms the snapshot
      measured[`${size} calculate bare`] = (await counted(pro, BARE_CALCULATE)).queries;
      const linked = await counted(pro, CALCULATE);
      checkLinks(linked.data.calculate.results);
      measured[`${size} calculate linked`] = linked.queries;
      measured[`${size} rows`] = linked.data.calculate.results.length;
      measured[`${size} matrix bare`] = (await counted(pro, BARE_MATRIX)).queries;
      const matrix = await counted(pro, MATRIX);
      checkLinks(matrix.data.matrixCalculator.results);
      measured[`${size} matrix linked`] = matrix.queries;
    }
  }, 300_000);

  it('the 10x catalogue really gives ten times the rows', () => {
    expect(measured['10x rows']).toBe(10 * measured['1x rows']);
  });

  it('calculator rows: financier, product and rate_bracket cost exactly three queries, at either size', () => {
    expect(measured['1x calculate linked']).toBe(measured['1x calculate bare'] + 3);
    expect(measured['10x calculate linked']).toBe(measured['1x calculate linked']);
  });

  it('Matrix Calculator rows: the same three, at either size', () => {
    expect(measured['1x matrix linked']).toBe(measured['1x matrix bare'] + 3);
    expect(measured['10x matrix linked']).toBe(measured['1x matrix linked']);
  });
});

describe('A masked Matrix Calculator row links no rate bracket', () => {
  it('Free-tier rows beyond the cheapest three have rate_bracket null; visible rows have theirs', async () => {
    const { data } = await counted(free, MATRIX);
    const rows = data.matrixCalculator.results;
    expect(rows.some((r: any) => r.masked)).toBe(true);
    checkLinks(rows);
  });
});
