/**
 * The amortisation schedule on every priced row, over GraphQL on real HTTP (issue: "each instalment's interest,
 * principal and balance, with the final instalment absorbing the rounding so the balance ends exactly at the
 * balloon"; docs/pricing.md "Amortisation schedule" and its worked example; pricing-conventions Rules 4, 9, 10).
 */
import { gql } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let token: string;
const cat = { asset: 0, plain: 0, fee: 0, worked: 0 };

beforeAll(async () => {
  t = await startTestApp();
  const kit = seedKit(t.database.prisma);
  const org = await kit.financier({ name: 'Schedule Test Finance' });
  const asset = await kit.asset({ name: 'Schedule Widget' });
  const noFees = await org.product({ product_name: 'No Fees' });
  const monthlyFee = await org.product({ product_name: 'Monthly Fee', monthly_fee: 10 });
  // docs/pricing.md worked example: doc fee 495 financed by default, brokerage cap 4%, monthly fee 9.90, funded brokerage.
  const worked = await org.product({
    product_name: 'Worked Example',
    documentation_fee: 495,
    brokerage_cap: 4,
    monthly_fee: 9.9,
  });
  const plain = await noFees.bracket({ name: 'Plain 8.45', base_min: 8.45, base_max: 10.45, assets: [asset] });
  const fee = await monthlyFee.bracket({ name: 'Fee 8.45', base_min: 8.45, base_max: 10.45, assets: [asset] });
  const workedBracket = await worked.bracket({ name: 'Worked 8.25', base_min: 8.25, base_max: 9.25, assets: [asset] });
  Object.assign(cat, { asset: asset.id, plain: plain.id, fee: fee.id, worked: workedBracket.id });
  token = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const CALCULATE = gql`
  query Schedule($input: DealInput!) {
    calculate(input: $input) {
      __typename
      ... on CalculatorResult {
        priced_count
        results {
          rate_bracket_id repayment_min repayment_max e_min rate_min rate_max commission amount_financed balloon instalments advance monthly_fee_per_instalment
          min: schedule { index opening payment interest principal balance }
          max: schedule(band: max) { index opening payment interest principal balance }
        }
      }
      ... on Error { message code }
    }
  }`;

interface Instalment {
  index: number;
  opening: number;
  payment: number;
  interest: number;
  principal: number;
  balance: number;
}
interface Row {
  rate_bracket_id: number;
  repayment_min: string;
  repayment_max: string;
  e_min: string;
  rate_min: string;
  rate_max: string;
  commission: number;
  amount_financed: number;
  balloon: number;
  instalments: number;
  advance: boolean;
  monthly_fee_per_instalment: number;
  min: Instalment[];
  max: Instalment[];
}

async function price(input: Record<string, unknown>): Promise<Row[]> {
  const data = await t
    .graphql(token)
    .request<{ calculate: { __typename: string; results: Row[] } }>(CALCULATE, { input });
  expect(data.calculate.__typename, JSON.stringify(data.calculate)).toBe('CalculatorResult');
  return data.calculate.results;
}
const deal = (extra: Record<string, unknown> = {}) => ({
  cost: 88000,
  cost_gst: true,
  asset_value: cat.asset,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
  balloon: 26400,
  ...extra,
});
const cents = (x: number) => Math.round(x * 100);
const row = (rows: Row[], id: number) => rows.find((r) => r.rate_bracket_id === id)!;

/** Every property the issue and docs/pricing.md promise of one schedule, in integer cents. */
function expectReconciles(r: Row, band: 'min' | 'max', monthlyCompounding = true): void {
  const schedule = r[band];
  const label = `bracket ${r.rate_bracket_id} band ${band} ${r.advance ? 'advance' : 'arrears'}`;
  expect(schedule.length, label).toBe(r.instalments);
  expect(
    schedule.map((s) => s.index),
    label,
  ).toEqual(Array.from({ length: r.instalments }, (_, k) => k + 1));
  for (const s of schedule) {
    for (const f of ['opening', 'payment', 'interest', 'principal', 'balance'] as const) {
      expect(
        Number.isInteger(Math.round(s[f] * 100 * 1e6) / 1e6),
        `${label} #${s.index} ${f} ${s[f]} is whole cents`,
      ).toBe(true);
    }
    expect(cents(s.principal), `${label} #${s.index}`).toBe(cents(s.payment) - cents(s.interest));
    expect(cents(s.balance), `${label} #${s.index}`).toBe(cents(s.opening) - cents(s.principal));
  }
  for (let k = 1; k < schedule.length; k++) expect(schedule[k].opening, label).toBe(schedule[k - 1].balance);
  expect(cents(schedule[0].opening), label).toBe(cents(r.amount_financed));
  // The final balance is exactly the balloon, to the cent.
  expect(schedule[schedule.length - 1].balance, label).toBe(r.balloon);
  // Principal repaid over the schedule is exactly the amount financed less the balloon.
  expect(
    schedule.reduce((sum, s) => sum + cents(s.principal), 0),
    label,
  ).toBe(cents(r.amount_financed) - cents(r.balloon));
  // Every instalment but the last is the row's repayment less the monthly fee share (Rule 9).
  const repayment =
    cents(Number(band === 'min' ? r.repayment_min : r.repayment_max)) - cents(r.monthly_fee_per_instalment);
  for (const s of schedule.slice(0, -1)) expect(cents(s.payment), `${label} #${s.index}`).toBe(repayment);
  // The last absorbs the rounding: at most about a cent per instalment away from the others.
  expect(Math.abs(cents(schedule[schedule.length - 1].payment) - repayment), label).toBeLessThanOrEqual(r.instalments);
  // The first period's interest: on the amount financed (arrears), or on it less the first instalment, paid at settlement (advance).
  if (!monthlyCompounding) return; // i = j / 12 only when c = m = 12 (Rule 2)
  const i = Number(band === 'min' ? r.rate_min : r.rate_max) / 100 / 12;
  const first = schedule[0];
  const base = r.advance ? cents(r.amount_financed) - cents(first.payment) : cents(r.amount_financed);
  expect(cents(first.interest), label).toBe(Math.round(base * i));
}

describe('Amortisation schedule: in arrears, the final balance equals the balloon exactly', () => {
  it('P 88,000, balloon 26,400, 60 monthly in arrears: 60 rows; 59 payments of 1448.23; sum(principal) = P - B; both ends of the band', async () => {
    const rows = await price(deal());
    const r = row(rows, cat.plain);
    expect(r).toMatchObject({
      repayment_min: '1448.23',
      instalments: 60,
      advance: false,
      balloon: 26400,
      amount_financed: 88000,
    });
    expectReconciles(r, 'min');
    expectReconciles(r, 'max');
    expect(r.min.slice(0, -1).every((s) => s.payment === 1448.23)).toBe(true);
    expect(r.min[0].interest).toBe(619.67); // 88,000 * 8.45% / 12 = 619.666..
  });

  it("the monthly fee is not part of the schedule: the fee-bearing card's payments are its repayment less 10.00", async () => {
    const r = row(await price(deal()), cat.fee);
    expect(r.repayment_min).toBe('1458.23');
    expectReconciles(r, 'min');
    expect(r.min[0].payment).toBe(1448.23);
    expect(r.min).toEqual(row(await price(deal()), cat.plain).min);
  });

  it('weekly with no balloon closes at exactly 0.00 after 260 instalments', async () => {
    const rows = await price(deal({ cost: 50000, balloon: 0, repayment_frequency: 'weekly' }));
    expect(rows.map((r) => r.rate_bracket_id).sort((a, b) => a - b)).toEqual([cat.plain, cat.fee, cat.worked]);
    for (const r of rows) {
      expect(r.instalments).toBe(260);
      expect(r.min[r.min.length - 1].balance).toBe(0);
      // weekly interest uses the weekly rate per instalment, not rate/12: checked through the reconciliation
      expect(r.min.length).toBe(260);
      expect(
        r.min
          .slice(0, -1)
          .every((s) => cents(s.payment) === cents(Number(r.repayment_min)) - cents(r.monthly_fee_per_instalment)),
      ).toBe(true);
      expect(r.min.reduce((sum, s) => sum + cents(s.principal), 0)).toBe(cents(r.amount_financed));
    }
  });
});

describe('Amortisation schedule: in advance, the final balance equals the balloon exactly', () => {
  it('P 88,000, balloon 26,400, 60 monthly in advance: 59 payments of 1438.11, the first carrying no interest', async () => {
    const rows = await price(deal({ advance_arrears: 'advance' }));
    for (const id of [cat.plain, cat.fee]) {
      const r = row(rows, id);
      expect(r.advance).toBe(true);
      expect(Number(r.repayment_min) - r.monthly_fee_per_instalment).toBeCloseTo(1438.11, 9);
      expectReconciles(r, 'min');
      expectReconciles(r, 'max');
    }
    const r = row(rows, cat.plain);
    expect(r.min[0]).toMatchObject({
      index: 1,
      opening: 88000,
      payment: 1438.11,
      balance: 88000 - 1438.11 + r.min[0].interest,
    });
  });

  it('zero balloon in advance closes at exactly 0.00', async () => {
    const r = row(await price(deal({ advance_arrears: 'advance', balloon: 0, term: 36 })), cat.plain);
    expectReconciles(r, 'min');
    expect(r.min[35].balance).toBe(0);
  });
});

describe('Amortisation schedule: docs/pricing.md worked example (financed fees and funded brokerage)', () => {
  it('P 53,750.34 at 8.25%: 59 instalments of 961.09 and a final 961.31 closing exactly on the 10,000.00 balloon', async () => {
    const rows = await price({
      cost: 50000,
      cost_gst: false,
      asset_value: cat.asset,
      term: 60,
      advance_arrears: 'arrears',
      repayment_frequency: 'monthly',
      deposit: 10,
      deposit_percentage: true,
      deposit_gst: false,
      balloon: 20,
      balloon_percentage: true,
      balloon_gst: false,
      origination_fee: 900,
      origination_fee_gst: false,
      brokerage: 5,
      brokerage_percentage: true,
      brokerage_gst: false,
    });
    const r = row(rows, cat.worked);
    expect(r).toMatchObject({
      repayment_min: '970.99',
      e_min: '10.9904',
      commission: 2265.34,
      amount_financed: 53750.34,
      balloon: 10000,
      monthly_fee_per_instalment: 9.9,
    });
    expectReconciles(r, 'min');
    expectReconciles(r, 'max');
    expect(r.min.slice(0, 59).every((s) => s.payment === 961.09)).toBe(true);
    expect(r.min[59].payment).toBe(961.31);
    expect(r.min[59].balance).toBe(10000);
  });
});

describe('Amortisation schedule: every priced row of a larger catalogue reconciles', () => {
  it('each demo row, in advance and in arrears, with a balloon, fees and brokerage (funded or rate-loaded), reconciles at both ends of its band', async () => {
    for (const advance_arrears of ['advance', 'arrears']) {
      const rows = await price({
        cost: 65000,
        asset_value: 11,
        term: 48,
        advance_arrears,
        repayment_frequency: 'monthly',
        balloon: 20,
        balloon_percentage: true,
        origination_fee: 500,
        brokerage: 2,
        brokerage_percentage: true,
      });
      expect(rows.length).toBeGreaterThan(3);
      // some demo products compound weekly, so the first-interest check (i = j/12) is left out here
      for (const r of rows) {
        expectReconciles(r, 'min', false);
        expectReconciles(r, 'max', false);
      }
    }
  });
});

describe('Amortisation schedule: bounded work per request', () => {
  it('a term beyond 600 months is refused before any schedule is built (one row per instalment: daily over 2^31 months would be 6.5e10)', async () => {
    for (const term of [601, 2 ** 31 - 1]) {
      const data = await t.graphql(token).request<{ calculate: { __typename: string; errors?: { field: string }[] } }>(
        gql`
        query Long($input: DealInput!) { calculate(input: $input) { __typename ... on ValidationError { errors { field messages } } ... on CalculatorResult { results { schedule { index } } } } }`,
        { input: deal({ term, repayment_frequency: 'daily' }) },
      );
      expect(data.calculate.__typename).toBe('ValidationError');
      expect(data.calculate.errors!.map((e) => e.field)).toEqual(['term']);
    }
  });
});
