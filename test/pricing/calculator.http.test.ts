/**
 * POST /api/v1/calculator over real HTTP (api-v1.md: Matrix Calculator request table for the pricing fields,
 * Authentication 5 and 11, Limits; pricing-conventions Rules 4, 8, 10, 11, 13 and the reference values).
 *
 * A small exact catalogue is built in the test database (two new financiers, fee-free and fee-bearing products,
 * brackets mapped to two new assets), so the conventions' reference values can be asserted to the cent over HTTP.
 * Expected figures come from the conventions table, or from @formulajs/formulajs as an independent oracle.
 */
import { PMT as excelPmt } from '@formulajs/formulajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type ProductSeed } from '../../testkit/seed.ts';

/** Excel PMT (formulajs, the test oracle); its error values fail the test. */
function PMT(rate: number, nper: number, pv: number, fv: number, type: 0 | 1): number {
  const value = excelPmt(rate, nper, pv, fv, type);
  if (typeof value !== 'number') throw value;
  return value;
}

let t: TestApp;
let pro: string; // broker.admin@demo.test: Pro, BID broker (org 8)
let member: string; // broker.user@demo.test: Pro, BID broker (org 8)
let free: string; // free.broker@demo.test: Free, not BID (org 9)
let lender: string; // financier.admin@demo.test: org 1
let proNonBid: string; // a Pro broker without Best Interests Duty standing
let userIds: Record<'pro' | 'member' | 'free', number>;

/** Ids of the exact catalogue. */
const cat = {
  exact: 0,
  other: 0,
  widget: 0,
  reference: 0,
  plain: 0,
  twin: 0,
  fee: 0,
  doc: 0,
  ten: 0,
  otherBracket: 0,
  funded: 0,
  balloon: 0,
  zero: 0,
  loaded: 0,
};

const ROW_FIELDS = [
  'advance',
  'amount_financed',
  'balloon',
  'base_max',
  'base_min',
  'commission',
  'e_max',
  'e_min',
  'instalments',
  'monthly_fee_per_instalment',
  'organisation_id',
  'organisation_name',
  'product_id',
  'product_name',
  'rate_bracket_id',
  'rate_bracket_name',
  'rate_max',
  'rate_min',
  'repayment_frequency',
  'repayment_max',
  'repayment_min',
];
const RATE = /^-?\d+\.\d{4}$/;
const MONEY = /^-?\d+\.\d{2}$/;

async function buildExactCatalogue(): Promise<void> {
  const kit = seedKit(t.database.prisma);
  const exact = await kit.financier({ name: 'Exact Test Finance' });
  const other = await kit.financier({ name: 'Other Test Finance' });
  const category = await kit.asset({ name: 'Test Category', is_asset: false });
  const widget = await category.child({ name: 'Test Widget' });
  const reference = await kit.asset({ name: 'Reference Widget' });
  const noFees = await exact.product({ product_name: 'Exact No Fees' });
  const monthlyFee = await exact.product({ product_name: 'Exact Monthly Fee', monthly_fee: 10 });
  const docFee = await exact.product({
    product_name: 'Exact Financed Doc Fee',
    documentation_fee: 500,
    doc_fee_financed: 'yes',
  });
  const referenceProduct = await exact.product({ product_name: 'Exact Reference' });
  const loadedProduct = await exact.product({ product_name: 'Exact Rate-Loaded', brokerage_loading_treatment: 0.5 });
  const otherProduct = await other.product({ product_name: 'Other No Fees' });
  const bracket = (p: ProductSeed, name: string, base_min: number, base_max: number, asset: { id: number }) =>
    p.bracket({ name, base_min, base_max, assets: [asset] });
  const plain = await bracket(noFees, 'Plain 9.50', 9.5, 11.5, widget);
  const twin = await bracket(noFees, 'Plain 9.50 twin', 9.5, 11.5, widget);
  const fee = await bracket(monthlyFee, 'Monthly fee 9.50', 9.5, 11.5, widget);
  const doc = await bracket(docFee, 'Doc fee 9.20', 9.2, 11.2, widget);
  const ten = await bracket(noFees, 'Ten and a quarter', 10.25, 12.25, widget);
  const otherBracket = await otherProduct.bracket({ name: 'Other 9.75', base_min: 9.75, base_max: 11.75 });
  const funded = await bracket(referenceProduct, 'Reference 7.50', 7.5, 7.5, reference);
  const balloon = await bracket(referenceProduct, 'Reference 8.45', 8.45, 8.45, reference);
  const zero = await bracket(referenceProduct, 'Reference 0.00', 0, 0, reference);
  const loaded = await bracket(loadedProduct, 'Loaded 7.50', 7.5, 8.5, reference);
  // Through the ancestor category, the whole product (rate_bracket_id null).
  await otherProduct.mapTo(category);
  Object.assign(cat, {
    exact: exact.id,
    other: other.id,
    widget: widget.id,
    reference: reference.id,
    plain: plain.id,
    twin: twin.id,
    fee: fee.id,
    doc: doc.id,
    ten: ten.id,
    otherBracket: otherBracket.id,
    funded: funded.id,
    balloon: balloon.id,
    zero: zero.id,
    loaded: loaded.id,
  });
}

async function createBrokers(): Promise<void> {
  const kit = seedKit(t.database.prisma);
  const nonBid = await kit.broker({ name: 'Pro Non-BID Brokers', plan: 'pro', is_bid_broker: false });
  await nonBid.user({ email: 'pro.nonbid@test.example' });
}

beforeAll(async () => {
  t = await startTestApp();
  await buildExactCatalogue();
  await createBrokers();
  [pro, member, free, lender, proNonBid] = await Promise.all(
    [
      'broker.admin@demo.test',
      'broker.user@demo.test',
      'free.broker@demo.test',
      'financier.admin@demo.test',
      'pro.nonbid@test.example',
    ].map(async (email) => (await t.login(email)).access),
  );
  const idOf = async (email: string) => (await t.database.prisma.user.findUniqueOrThrow({ where: { email } })).id;
  userIds = {
    pro: await idOf('broker.admin@demo.test'),
    member: await idOf('broker.user@demo.test'),
    free: await idOf('free.broker@demo.test'),
  };
});
afterAll(async () => {
  await t?.close();
});

/** A fee-free deal: cost given GST-inclusive so P is the cost itself (Rule 5, Rule 6). */
const plainDeal = (extra: Record<string, unknown> = {}) => ({
  cost: 50000,
  cost_gst: true,
  asset_value: cat.widget,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
  ...extra,
});
const calc = (token: string | null, body: unknown, headers?: Record<string, string>) =>
  t.rest('POST', '/api/v1/calculator', { token, body, headers });
const rowOf = (body: any, bracketId: number) => {
  const row = body.results.find((r: any) => r.rate_bracket_id === bracketId);
  if (!row) throw new Error(`bracket ${bracketId} not priced: ${JSON.stringify(body).slice(0, 400)}`);
  return row;
};
const money = (x: number) => x.toFixed(2);
const calculatorUsage = async (userId: number) =>
  (await t.database.prisma.dailyUsage.findMany({ where: { user_id: userId, metric: 'calculator' } })).reduce(
    (s, r) => s + r.count,
    0,
  );
const recents = (userId: number) =>
  t.database.prisma.scenario.findMany({
    where: { user_id: userId, kind: 'recent', tool: 'calculator' },
    orderBy: { id: 'asc' },
  });

describe('Reference values (docs/pricing-conventions.md worked examples) over HTTP, to the cent', () => {
  // Rule 4 Repayment: plain monthly reference value
  it('P 50,000 at 9.50% monthly, 60 in arrears, no fees: repayment "1050.09", e "9.5000" (Rule 8: nothing financed beyond the asset)', async () => {
    const res = await calc(pro, plainDeal());
    expect(res.status).toBe(200);
    const row = rowOf(res.body, cat.plain);
    expect(row).toMatchObject({
      organisation_id: cat.exact,
      organisation_name: 'Exact Test Finance',
      product_name: 'Exact No Fees',
      rate_bracket_name: 'Plain 9.50',
      base_min: '9.5000',
      rate_min: '9.5000',
      e_min: '9.5000',
      repayment_min: '1050.09',
      balloon: 0,
      commission: 0,
      amount_financed: 50000,
      instalments: 60,
      advance: false,
      repayment_frequency: 'monthly',
      monthly_fee_per_instalment: 0,
    });
  });

  it('advance_arrears none prices in arrears (Rule 4)', async () => {
    const res = await calc(pro, plainDeal({ advance_arrears: 'none' }));
    expect(rowOf(res.body, cat.plain)).toMatchObject({ repayment_min: '1050.09', advance: false });
  });

  it('a GST-exclusive cost is financed with GST added (Rule 5): 50,000 + GST prices as P 55,000', async () => {
    const res = await calc(pro, plainDeal({ cost_gst: false }));
    const row = rowOf(res.body, cat.plain);
    expect(row.amount_financed).toBe(55000);
    expect(row.repayment_min).toBe(money(PMT(0.095 / 12, 60, -55000, 0, 0)));
  });

  // Rule 7 Brokerage: the funded brokerage reference value
  it('P 60,000, base 7.50%, 48 monthly in advance, balloon 12,000, brokerage 1,800 funded: repayment "1271.16", e "8.8807"', async () => {
    const res = await calc(pro, {
      cost: 60000,
      cost_gst: true,
      asset_value: cat.reference,
      term: 48,
      advance_arrears: 'advance',
      repayment_frequency: 'monthly',
      balloon: 12000,
      brokerage: 1800,
      brokerage_gst: true,
    });
    expect(res.status).toBe(200);
    expect(rowOf(res.body, cat.funded)).toMatchObject({
      base_min: '7.5000',
      rate_min: '7.5000',
      repayment_min: '1271.16',
      e_min: '8.8807',
      e_max: '8.8807',
      commission: 1800,
      amount_financed: 61800,
      balloon: 12000,
      instalments: 48,
      advance: true,
    });
  });

  // Rule 7 Brokerage: the rate-loaded alternative
  it('L 0.5 and 2% brokerage + GST on 60,000: priced at 8.5% on P 60,000, repayment "1259.20", e "8.5000", commission 1,320', async () => {
    const res = await calc(pro, {
      cost: 60000,
      cost_gst: true,
      asset_value: cat.reference,
      term: 48,
      advance_arrears: 'advance',
      repayment_frequency: 'monthly',
      balloon: 12000,
      brokerage: 2,
      brokerage_percentage: true,
      brokerage_gst: false,
    });
    expect(rowOf(res.body, cat.loaded)).toMatchObject({
      base_min: '7.5000',
      rate_min: '8.5000',
      base_max: '8.5000',
      rate_max: '9.5000',
      repayment_min: '1259.20',
      e_min: '8.5000',
      amount_financed: 60000,
      commission: 1320,
    });
  });

  // Rule 4 Repayment: advance with balloon and zero rate reference values
  const deal = (advance_arrears: string, extra: Record<string, unknown> = {}) => ({
    cost: 88000,
    cost_gst: true,
    asset_value: cat.reference,
    term: 60,
    advance_arrears,
    repayment_frequency: 'monthly',
    balloon: 26400,
    ...extra,
  });

  it('P 88,000 at 8.45%, 60 monthly, balloon 26,400: advance "1438.11", arrears "1448.23"', async () => {
    expect(rowOf((await calc(pro, deal('advance'))).body, cat.balloon).repayment_min).toBe('1438.11');
    expect(rowOf((await calc(pro, deal('arrears'))).body, cat.balloon).repayment_min).toBe('1448.23');
  });

  it('a balloon percentage is of the cost (Rule 5): 30% of 88,000 inc GST prices as the 26,400 balloon', async () => {
    const row = rowOf(
      (await calc(pro, deal('advance', { balloon: 30, balloon_percentage: true, balloon_gst: true }))).body,
      cat.balloon,
    );
    expect(row).toMatchObject({ balloon: 26400, repayment_min: '1438.11' });
  });

  it('P 24,000 at 0%, 24 instalments, balloon 6,000: "750.00" in either mode, e "0.0000"', async () => {
    for (const mode of ['advance', 'arrears']) {
      const row = rowOf((await calc(pro, { ...deal(mode), cost: 24000, term: 24, balloon: 6000 })).body, cat.zero);
      expect(row).toMatchObject({ repayment_min: '750.00', repayment_max: '750.00', e_min: '0.0000' });
    }
  });

  // Rule 2 Rate per instalment: weekly with monthly compounding
  it('P 50,000 at 9.5%, weekly for 5 years in arrears, product compounding monthly: "241.59" over 260 instalments (Rule 3)', async () => {
    const row = rowOf((await calc(pro, plainDeal({ repayment_frequency: 'weekly' }))).body, cat.plain);
    expect(row).toMatchObject({ repayment_min: '241.59', instalments: 260, repayment_frequency: 'weekly' });
  });

  it('repayment_frequency none prices monthly (Rule 1)', async () => {
    const row = rowOf((await calc(pro, plainDeal({ repayment_frequency: 'none' }))).body, cat.plain);
    expect(row).toMatchObject({ repayment_min: '1050.09', instalments: 60 });
  });
});

describe('Rule 11 Brackets and ranges: the _min figures price at base_min, the _max figures at base_max', () => {
  it('rate band 9.50..11.50 gives repayment_min "1050.09" and repayment_max at 11.50%, e_max "11.5000"', async () => {
    const row = rowOf((await calc(pro, plainDeal())).body, cat.plain);
    expect(row).toMatchObject({
      base_max: '11.5000',
      rate_max: '11.5000',
      e_max: '11.5000',
      repayment_max: money(PMT(0.115 / 12, 60, -50000, 0, 0)),
    });
    expect(row.repayment_max).toBe('1099.63');
  });

  it('a bracket mapped through an ancestor category prices the deal; one mapped to another asset does not', async () => {
    const body = (await calc(pro, plainDeal())).body;
    expect(rowOf(body, cat.otherBracket).organisation_id).toBe(cat.other);
    expect(body.results.map((r: any) => r.rate_bracket_id)).not.toContain(cat.funded);
  });
});

describe('Rule 9 Monthly fee: added to each repayment, not in e', () => {
  it('a 10.00 monthly fee adds 10.00 to the monthly repayment and leaves e at the base rate', async () => {
    const row = rowOf((await calc(pro, plainDeal())).body, cat.fee);
    expect(row).toMatchObject({ repayment_min: '1060.09', e_min: '9.5000', monthly_fee_per_instalment: 10 });
  });
});

describe('Rule 13 Cheapest: rows cheapest first by e_min numerically, then repayment_min, then id', () => {
  it('orders the exact catalogue by e (not by base rate, not as strings), ties on e by repayment, then by id', async () => {
    const res = await calc(pro, plainDeal());
    expect(res.status).toBe(200);
    // e: plain 9.5 (1050.09), twin 9.5 (1050.09, later id), fee 9.5 (1060.09), doc 9.6273 (base 9.20 but a financed fee),
    // other 9.75, ten 10.25 ("10.2500" would sort first as a string).
    expect(res.body.results.map((r: any) => r.rate_bracket_id)).toEqual([
      cat.plain,
      cat.twin,
      cat.fee,
      cat.doc,
      cat.otherBracket,
      cat.ten,
    ]);
    expect(rowOf(res.body, cat.doc)).toMatchObject({
      e_min: '9.6273',
      repayment_min: '1053.21',
      amount_financed: 50500,
    });
  });

  it('on the demo catalogue every consecutive pair is in (e_min, repayment_min, id) order, compared as numbers', async () => {
    const res = await calc(pro, {
      cost: 50000,
      asset_value: 11,
      term: 60,
      advance_arrears: 'arrears',
      repayment_frequency: 'monthly',
    });
    expect(res.body.results.length).toBeGreaterThan(3);
    const rows = res.body.results;
    for (let k = 1; k < rows.length; k++) {
      const [a, b] = [rows[k - 1], rows[k]];
      const order =
        Number(a.e_min) - Number(b.e_min) ||
        Number(a.repayment_min) - Number(b.repayment_min) ||
        a.rate_bracket_id - b.rate_bracket_id;
      expect(order, `${a.rate_bracket_id} before ${b.rate_bracket_id}`).toBeLessThan(0);
    }
  });
});

describe('Rule 10 Rounding: every row field present; rates and repayments plain decimal strings', () => {
  it('each row carries exactly the documented fields, with the right types', async () => {
    const res = await calc(pro, {
      cost: 50000,
      asset_value: 11,
      term: 60,
      advance_arrears: 'arrears',
      repayment_frequency: 'monthly',
    });
    expect(Object.keys(res.body).sort()).toEqual(['priced_count', 'results', 'scenario_id']);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const row of res.body.results) {
      expect(Object.keys(row).sort()).toEqual(ROW_FIELDS);
      for (const f of ['base_min', 'base_max', 'rate_min', 'rate_max', 'e_min', 'e_max'])
        expect(row[f], f).toMatch(RATE);
      for (const f of ['repayment_min', 'repayment_max']) expect(row[f], f).toMatch(MONEY);
      for (const f of ['balloon', 'commission', 'amount_financed', 'monthly_fee_per_instalment'])
        expect(typeof row[f], f).toBe('number');
      for (const f of ['organisation_id', 'product_id', 'rate_bracket_id', 'instalments'])
        expect(Number.isInteger(row[f]), f).toBe(true);
      expect(typeof row.organisation_name).toBe('string');
      expect(row.organisation_name.length).toBeGreaterThan(0);
      expect(typeof row.product_name).toBe('string');
      expect(typeof row.rate_bracket_name).toBe('string');
      expect(typeof row.advance).toBe('boolean');
    }
  });

  it('large figures carry no thousands separators or symbols: P 2,000,000 repays "42001.86"', async () => {
    const row = rowOf((await calc(pro, plainDeal({ cost: 2_000_000 }))).body, cat.plain);
    expect(row.repayment_min).toBe(money(PMT(0.095 / 12, 60, -2_000_000, 0, 0)));
    expect(row.repayment_min).toMatch(/^\d{5}\.\d{2}$/);
    expect(row.amount_financed).toBe(2_000_000);
  });

  it('priced_count equals the number of rows', async () => {
    const sizes: number[] = [];
    for (const body of [
      plainDeal(),
      plainDeal({ preferred_financier: [cat.other] }),
      plainDeal({ preferred_financier: [2] }),
    ]) {
      const res = await calc(pro, body);
      expect(res.status).toBe(200);
      expect(res.body.priced_count).toBe(res.body.results.length);
      sizes.push(res.body.priced_count);
    }
    expect(sizes).toEqual([6, 1, 0]); // Southern Cross (org 2) has no card mapped to the test widget
  });
});

describe("Rule 11 Brackets and ranges: the caller's book, card type and preferred_financier", () => {
  const demoDeal = (extra: Record<string, unknown> = {}) => ({
    cost: 30000,
    asset_value: 11,
    term: 48,
    advance_arrears: 'arrears',
    repayment_frequency: 'monthly',
    ...extra,
  });
  let consumerBracketIds: number[];
  beforeAll(async () => {
    consumerBracketIds = (
      await t.database.prisma.rateBracket.findMany({ where: { type: 'consumer' }, select: { id: true } })
    ).map((b) => b.id);
    expect(consumerBracketIds.length).toBeGreaterThan(0);
  });

  it('a commercial run (the default type) never shows a consumer card', async () => {
    const res = await calc(pro, demoDeal());
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const row of res.body.results) expect(consumerBracketIds).not.toContain(row.rate_bracket_id);
  });

  it('a Pro BID broker may price type consumer and gets only consumer cards (Tasman Motor Finance)', async () => {
    const res = await calc(pro, demoDeal({ type: 'consumer' }));
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const row of res.body.results) {
      expect(consumerBracketIds).toContain(row.rate_bracket_id);
      expect(row.organisation_name).toBe('Tasman Motor Finance');
    }
  });

  it('the Free non-BID broker gets 403 feature_disabled for consumer, and the refused run is not metered or saved', async () => {
    const usage = await calculatorUsage(userIds.free);
    const saved = (await recents(userIds.free)).length;
    const res = await calc(free, demoDeal({ type: 'consumer' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
    expect(res.body.detail.length).toBeGreaterThan(0);
    expect(await calculatorUsage(userIds.free)).toBe(usage);
    expect((await recents(userIds.free)).length).toBe(saved);
    // The same broker may price commercial.
    expect((await calc(free, demoDeal())).status).toBe(200);
  });

  it('a Pro broker without BID standing, and a lender, also get 403 feature_disabled for consumer: the plan alone is not enough', async () => {
    for (const token of [proNonBid, lender]) {
      const res = await calc(token, demoDeal({ type: 'consumer' }));
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'feature_disabled' });
    }
    expect((await calc(proNonBid, demoDeal())).status).toBe(200);
  });

  it("a lender (financier.admin, org 1) sees only its own organisation's cards; a broker sees several financiers", async () => {
    const broker = await calc(pro, demoDeal());
    expect(new Set(broker.body.results.map((r: any) => r.organisation_id)).size).toBeGreaterThan(1);
    const own = await calc(lender, demoDeal());
    expect(own.status).toBe(200);
    expect(own.body.results.length).toBeGreaterThan(0);
    for (const row of own.body.results)
      expect(row).toMatchObject({ organisation_id: 1, organisation_name: 'Harbour Equipment Finance' });
    // and nothing of another financier, even when it names one
    expect((await calc(lender, demoDeal({ preferred_financier: [2] }))).body.results).toEqual([]);
  });

  it('preferred_financier restricts the rows to those organisations', async () => {
    const one = await calc(pro, plainDeal({ preferred_financier: [cat.other] }));
    expect(one.body.results.map((r: any) => r.rate_bracket_id)).toEqual([cat.otherBracket]);
    const demo = await calc(pro, demoDeal({ preferred_financier: [2, 6] }));
    expect(demo.body.results.length).toBeGreaterThan(0);
    expect(new Set(demo.body.results.map((r: any) => r.organisation_id))).toEqual(new Set([2, 6]));
    // an empty list means every financier
    const all = await calc(pro, plainDeal({ preferred_financier: [] }));
    expect(all.body.priced_count).toBe(6);
  });
});

describe('Request validation: 400s name the fields', () => {
  const expect400 = async (body: unknown, fields: string[]) => {
    const res = await calc(pro, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
    for (const f of fields) {
      expect(Array.isArray(res.body.errors[f])).toBe(true);
      expect(res.body.errors[f].length).toBeGreaterThan(0);
      for (const m of res.body.errors[f]) expect(typeof m).toBe('string');
    }
    return res;
  };

  it('missing term, advance_arrears and repayment_frequency answer 400 naming each', async () => {
    await expect400({ cost: 50000, asset_value: cat.widget }, ['term', 'advance_arrears', 'repayment_frequency']);
    const { term: _term, ...noTerm } = plainDeal();
    await expect400(noTerm, ['term']);
  });

  it('missing cost and asset_value answer 400 naming each', async () => {
    const { cost: _c, asset_value: _a, ...rest } = plainDeal();
    await expect400(rest, ['asset_value', 'cost']);
  });

  it('a body that is not a JSON object answers 400 naming the required fields', async () => {
    for (const raw of ['[1,2]', '"x"', 'null']) {
      const res = await t.rest('POST', '/api/v1/calculator', { token: pro, raw });
      expect(res.status, raw).toBe(400);
      expect(Object.keys(res.body.errors), raw).toEqual(expect.arrayContaining(['cost', 'asset_value']));
    }
  });

  it('a negative cost (number or string) answers 400 naming cost', async () => {
    await expect400(plainDeal({ cost: -1 }), ['cost']);
    await expect400(plainDeal({ cost: '-50000' }), ['cost']);
  });

  it('wrong types answer 400 naming each field', async () => {
    await expect400(plainDeal({ term: 'sixty', cost_gst: 'yes', preferred_financier: 'all' }), [
      'cost_gst',
      'preferred_financier',
      'term',
    ]);
    await expect400(plainDeal({ cost: 'fifty thousand' }), ['cost']);
    await expect400(plainDeal({ asset_value: 11.5 }), ['asset_value']);
    await expect400(plainDeal({ term: 60.5 }), ['term']);
    await expect400(plainDeal({ repayment_frequency: 'fortnightly', advance_arrears: 'both' }), [
      'advance_arrears',
      'repayment_frequency',
    ]);
    await expect400(plainDeal({ type: 'personal' }), ['type']);
  });

  it('out-of-range inputs answer 400 naming each field (Limits: input bounds)', async () => {
    await expect400(plainDeal({ term: 0, asset_age: -1 }), ['asset_age', 'term']);
    await expect400(plainDeal({ asset_value: 0 }), ['asset_value']);
    // an upper bound on term (50 years) bounds the instalment count a card without a term bound would accept
    await expect400(plainDeal({ term: 601 }), ['term']);
    await expect400(plainDeal({ term: 2 ** 31 - 1, repayment_frequency: 'daily' }), ['term']);
    expect(rowOf((await calc(pro, plainDeal({ term: 600 }))).body, cat.plain).instalments).toBe(600);
    await expect400(plainDeal({ home_owner: true, asset_owner: false }), ['asset_owner', 'home_owner']);
  });

  it('a refused request is neither metered nor saved', async () => {
    const usage = await calculatorUsage(userIds.pro);
    const saved = (await recents(userIds.pro)).map((s) => s.id);
    await expect400(plainDeal({ asset_value: 987654 }), ['asset_value']);
    await expect400(plainDeal({ cost: -5 }), ['cost']);
    expect(await calculatorUsage(userIds.pro)).toBe(usage);
    expect((await recents(userIds.pro)).map((s) => s.id)).toEqual(saved);
  });
});

describe('Limits: a calculator surface switched off for the deployment answers 403 feature_disabled', () => {
  it('POST /calculator with the calculator surface off is 403 feature_disabled, not metered; consumer pricing is a separate surface', async () => {
    const off = await startTestApp({ shareDatabaseWith: t, config: { disabledSurfaces: ['calculator'] } });
    try {
      const usage = await calculatorUsage(userIds.pro);
      const res = await off.rest('POST', '/api/v1/calculator', { token: pro, body: plainDeal() });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
      expect(await calculatorUsage(userIds.pro)).toBe(usage);
      const consumer = await off.rest('POST', '/api/v1/calculator', {
        token: pro,
        body: {
          cost: 30000,
          asset_value: 11,
          term: 48,
          advance_arrears: 'arrears',
          repayment_frequency: 'monthly',
          type: 'consumer',
        },
      });
      expect(consumer.status).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe("Scenario: each run is saved as one of the caller's recent scenarios", () => {
  it('one run adds one recent calculator scenario, and scenario_id points to it', async () => {
    const before = await recents(userIds.member);
    const res = await calc(member, plainDeal({ term: 48 }));
    expect(res.status).toBe(200);
    const after = await recents(userIds.member);
    expect(after.length).toBe(Math.min(before.length + 1, 20));
    const newest = after[after.length - 1];
    expect(res.body.scenario_id).toBe(newest.id);
    expect(newest).toMatchObject({ user_id: userIds.member, tool: 'calculator', kind: 'recent', name: null });
    expect(newest.request).toMatchObject({ asset_value: cat.widget, term: 48, cost: 50000 });
    expect(before.map((s) => s.id)).not.toContain(res.body.scenario_id);
  });

  it('every run gets its own scenario; recents trim to the newest 20', async () => {
    const seen = new Set<number>();
    for (let k = 0; k < 22; k++) {
      const res = await calc(member, plainDeal({ term: 12 + k }));
      expect(res.status).toBe(200);
      seen.add(res.body.scenario_id);
    }
    expect(seen.size).toBe(22);
    const kept = await recents(userIds.member);
    expect(kept.length).toBe(20);
    expect(kept.map((s) => s.id)).toEqual([...seen].sort((a, b) => a - b).slice(-20));
  });
});

describe('Authentication 5: a read API token may run the calculator', () => {
  it('a read-scoped API token prices, is metered and saves a recent for its owner', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: pro,
      body: { name: 'calculator read', scope: 'read' },
    });
    expect(minted.status).toBe(201);
    const usage = await calculatorUsage(userIds.pro);
    const res = await calc(minted.body.token, plainDeal());
    expect(res.status).toBe(200);
    expect(rowOf(res.body, cat.plain).repayment_min).toBe('1050.09');
    expect(await calculatorUsage(userIds.pro)).toBe(usage + 1);
    const saved = await t.database.prisma.scenario.findUniqueOrThrow({ where: { id: res.body.scenario_id } });
    expect(saved).toMatchObject({ user_id: userIds.pro, kind: 'recent', tool: 'calculator' });
  });
});
