/**
 * Result rows link to the records they were priced from: `financier`, `product` and `rate_bracket` on calculator and
 * Matrix Calculator rows, and `approval` (with its own `financier` and `rate_brackets`) on Matrix Calculator rows.
 * Each link is batched per response, whatever the number of rows: a warm run that asks for them on every row costs
 * the same statements on the demo catalogue and on one 24 times larger, where every surface returns 300 rows or more.
 * A masked Matrix Calculator row links no rate bracket (the bracket would show the rates the paywall hides).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let pro: string;
let free: string;
// The demo deal with the most rows on each surface (a ute: 14 calculator rows, 13 Matrix Calculator rows).
const DEAL = { cost: '20000', asset_value: 12, term: 36, advance_arrears: 'arrears', repayment_frequency: 'monthly' };
const SCALE = 24;
const CARD_LINKS =
  'financier { id name } product { id product_name organisation_id } rate_bracket { id name base_min product_id }';
const APPROVAL_LINK =
  'approval { id name organisation_id rate_bracket_ids financier { id name } rate_brackets { id name base_min } }';
const CALCULATE = `query($input: DealInput!) { calculate(input: $input) { __typename ... on CalculatorResult {
  results { organisation_id product_id rate_bracket_id ${CARD_LINKS} } } } }`;
const BARE_CALCULATE = `query($input: DealInput!) { calculate(input: $input) { __typename ... on CalculatorResult {
  results { organisation_id product_id rate_bracket_id } } } }`;
const MATRIX = `query($input: DealInput!) { matrixCalculator(input: $input) { __typename ... on MatrixCalculatorResult {
  results { organisation_id product_id rate_bracket_id approval_id masked ${CARD_LINKS} ${APPROVAL_LINK} } } } }`;
const BARE_MATRIX = `query($input: DealInput!) { matrixCalculator(input: $input) { __typename ... on MatrixCalculatorResult {
  results { organisation_id product_id rate_bracket_id approval_id masked } } } }`;

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

/** 1x to 24x: copyCatalogue copies every financier there is, so one copy doubles (2x, 4x, 8x), then two more. */
async function growTo24x(): Promise<void> {
  const kit = seedKit(t.database.prisma);
  for (let doubling = 0; doubling < 3; doubling++) await kit.copyCatalogue(1);
  await kit.copyCatalogue(2);
}

async function counted(token: string, query: string): Promise<{ queries: number; data: any }> {
  const client = t.graphql(token);
  const before = t.database.queryCount();
  const data = await client.request(query, { input: DEAL });
  return { queries: t.database.queryCount() - before, data };
}

function checkCardLinks(rows: any[]): void {
  for (const row of rows) {
    expect(row.financier.id).toBe(row.organisation_id);
    expect(row.product).toMatchObject({ id: row.product_id, organisation_id: row.organisation_id });
    if (row.masked) expect(row.rate_bracket).toBeNull();
    else expect(row.rate_bracket).toMatchObject({ id: row.rate_bracket_id, product_id: row.product_id });
  }
}

function checkApprovalLinks(rows: any[]): void {
  for (const row of rows) {
    expect(row.approval).toMatchObject({ id: row.approval_id, organisation_id: row.organisation_id });
    expect(row.approval.financier.id).toBe(row.organisation_id);
    if (row.masked) expect(row.approval.rate_brackets).toBeNull();
    else {
      expect(row.approval.rate_brackets.map((b: any) => b.id)).toEqual(row.approval.rate_bracket_ids);
      // The row joined on one of the approval's brackets.
      expect(row.approval.rate_bracket_ids).toContain(row.rate_bracket_id);
    }
  }
}

describe('Row links are batched: the same statements per response at 1x and 24x the catalogue', () => {
  const measured: Record<string, number> = {};

  beforeAll(async () => {
    for (const size of ['1x', '24x']) {
      if (size === '24x') await growTo24x();
      // Warms the snapshot. After the long copy the server may have just closed the idle keep-alive socket this
      // request went out on (fetch failed): that request never reached the app, so it is sent again.
      await counted(pro, BARE_CALCULATE).catch((e) => {
        if (!(e instanceof TypeError)) throw e;
        return counted(pro, BARE_CALCULATE);
      });
      measured[`${size} calculate bare`] = (await counted(pro, BARE_CALCULATE)).queries;
      const linked = await counted(pro, CALCULATE);
      checkCardLinks(linked.data.calculate.results);
      measured[`${size} calculate linked`] = linked.queries;
      measured[`${size} calculate rows`] = linked.data.calculate.results.length;
      measured[`${size} matrix bare`] = (await counted(pro, BARE_MATRIX)).queries;
      const matrix = await counted(pro, MATRIX);
      const rows = matrix.data.matrixCalculator.results;
      checkCardLinks(rows);
      checkApprovalLinks(rows);
      measured[`${size} matrix linked`] = matrix.queries;
      measured[`${size} matrix rows`] = rows.length;
    }
  }, 120_000);

  it('the 24x catalogue gives 24 times the rows: at least 300 on each surface', () => {
    expect(measured['24x calculate rows']).toBe(SCALE * measured['1x calculate rows']);
    expect(measured['24x matrix rows']).toBe(SCALE * measured['1x matrix rows']);
    expect(measured['24x calculate rows']).toBeGreaterThanOrEqual(300);
    expect(measured['24x matrix rows']).toBeGreaterThanOrEqual(300);
  });

  it('calculator rows: financier, product and rate_bracket cost exactly three queries, at either size', () => {
    expect(measured['1x calculate linked']).toBe(measured['1x calculate bare'] + 3);
    expect(measured['24x calculate linked']).toBe(measured['1x calculate linked']);
  });

  it("Matrix Calculator rows: all four links, with the approval's financier and rate brackets, cost exactly eight queries, at either size", () => {
    // financier, product, rate_bracket, approval, approval.financier, approval.rate_bracket_ids: one each;
    // approval.rate_brackets: two (the links, then the brackets).
    expect(measured['1x matrix linked']).toBe(measured['1x matrix bare'] + 8);
    expect(measured['24x matrix linked']).toBe(measured['1x matrix linked']);
  });
});

describe('A masked Matrix Calculator row links no rate bracket', () => {
  it('Free-tier rows beyond the cheapest three have rate_bracket and approval.rate_brackets null; visible rows have theirs', async () => {
    const { data } = await counted(free, MATRIX);
    const rows = data.matrixCalculator.results;
    expect(rows.some((r: any) => r.masked)).toBe(true);
    expect(rows.some((r: any) => !r.masked)).toBe(true);
    checkCardLinks(rows);
    checkApprovalLinks(rows);
  });
});
