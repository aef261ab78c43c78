/**
 * Spec (api-v1.md): POST /api/v1/matrix-calculator/ (request table, Rules 1-7, response); "Matrix result shapes"
 * (MatrixCalculatorRow); Errors table rows for /matrix-calculator/ (400, 403, 429); Limits (allowances, Free-tier
 * paywall, input bounds); Authentication 5 and 11; pricing-conventions Rule 13 (Cheapest).
 *
 * Rows under test come from financiers the test inserts itself (products, brackets mapped to asset 11, approvals
 * linked to brackets), and runs name them in `preferred_financier`, so the expected rows are exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from 'graphql-request';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

const clock = new ManualClock(new Date('2026-11-21T02:00:00Z')); // 13:00 in Sydney: one calendar day throughout
let t: TestApp;
let pro: string; // broker.admin@demo.test, Pro (org 8)
let free: string; // free.broker@demo.test, Free (org 9)
let trial: string; // a user of org 10: Free with a Matrix trial (plan_overrides entitlements matrix.enabled)

/** Org 8 (Pro) runs dozens of times in this file: unlimited unless a test sets its own allowances, then restored. */
const UNLIMITED = { calculator_allowance: null, matrix_allowance: null };
const DEAL = { cost: '50000', asset_value: 11, term: 60, advance_arrears: 'arrears', repayment_frequency: 'monthly' } as const;

const ROW_KEYS = ['approval_id', 'approval_name', 'balloon', 'base_max', 'base_min', 'commission', 'deposit_amount', 'deposit_percentage',
  'deposit_required', 'doc_level', 'e_max', 'e_min', 'masked', 'max_term', 'missing_fields', 'organisation_id', 'organisation_name',
  'priced_bracket_count', 'product_id', 'product_name', 'rate_bracket_id', 'rate_bracket_name', 'repayment_max', 'repayment_min', 'status'];
const FIGURES = ['base_min', 'base_max', 'e_min', 'e_max', 'repayment_min', 'repayment_max', 'balloon', 'commission'] as const;
const DOC_RANK: Record<string, number> = { low_doc: 0, lite_doc: 1, full_doc: 2 };
const STATUS_RANK: Record<string, number> = { confirmed: 0, possible: 1 };
/** Mobile wording (ios, android, unrecognised): a fact only, no plan, no price, no link. */
const SALES_TALK = /\bpro\b|\bmax\b|\bteam\b|enterprise|plan|upgrade|\$|price|http|www\.|\/|billing/i;

beforeAll(async () => {
  t = await startTestApp({ clock });
  await t.database.prisma.organisation.update({ where: { id: 8 }, data: { plan_overrides: UNLIMITED } });
  pro = (await t.login('broker.admin@demo.test')).access;
  free = (await t.login('free.broker@demo.test')).access;
  await t.database.prisma.user.create({ data: { email: 'trial.broker@demo.test', password_hash: await hashPassword('trial-password-1'), organisation_id: 10, is_active: true, is_email_verified: true } });
  trial = (await t.login('trial.broker@demo.test', 'trial-password-1')).access;
});
afterAll(async () => { await t?.close(); });

const run = (token: string | null, body: unknown, headers?: Record<string, string>, path = '/api/v1/matrix-calculator/') =>
  t.rest('POST', path, { token, body, headers });

// ---------- a catalogue of the test's own ----------

let seq = 0;
const prisma = () => t.database.prisma;
async function financierOrg(name: string): Promise<number> {
  return (await prisma().organisation.create({ data: { name, type: 'f', plan: 'enterprise' } })).id;
}
async function productOf(organisationId: number, data: Record<string, unknown> = {}): Promise<number> {
  seq += 1;
  return (await prisma().product.create({ data: { product_name: `Test product ${seq}`, organisation_id: organisationId, ...data } })).id;
}
/** A commercial bracket at `base` (base_max = base + 2) mapped to asset 11. No fees: e_min equals base exactly. */
async function bracketOf(organisationId: number, productId: number, base: number, data: Record<string, unknown> = {}): Promise<number> {
  seq += 1;
  const b = await prisma().rateBracket.create({ data: { name: `Bracket ${seq} at ${base}`, organisation_id: organisationId, product_id: productId, base_min: base, base_max: base + 2, ...data } });
  await prisma().assetRateBracket.create({ data: { asset_id: 11, organisation_id: organisationId, product_id: productId, rate_bracket_id: b.id } });
  return b.id;
}
async function approvalOf(organisationId: number, data: Record<string, unknown>, bracketIds: number[]): Promise<number> {
  seq += 1;
  const a = await prisma().approval.create({ data: { name: `Approval ${seq}`, doc_level: 'low_doc', ...data, organisation_id: organisationId } as never });
  if (bracketIds.length) await prisma().approvalRateBracket.createMany({ data: bracketIds.map((id) => ({ approval_id: a.id, rate_bracket_id: id })) });
  return a.id;
}

/** Usage counters of one user today, by metric. */
async function usageOf(userId: number): Promise<Record<string, number>> {
  const rows = await prisma().dailyUsage.findMany({ where: { user_id: userId } });
  return Object.fromEntries(rows.filter((r) => r.count > 0).map((r) => [r.metric, r.count]));
}

const key = (r: any) => [STATUS_RANK[r.status], DOC_RANK[r.doc_level], Number.parseFloat(r.e_min)] as const;

// ---------- request table ----------

describe('POST /matrix-calculator/ request table: types, required fields and bounds answer the general error body naming the fields', () => {
  const expectFields = (res: { status: number; body: any }, fields: string[]) => {
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'errors']);
    expect(typeof res.body.error).toBe('string');
    expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
    for (const messages of Object.values(res.body.errors) as string[][]) {
      expect(messages.length).toBeGreaterThan(0);
      for (const m of messages) expect(typeof m).toBe('string');
    }
  };

  it('the required fields: an empty body names cost, asset_value, term, advance_arrears and repayment_frequency', async () => {
    expectFields(await run(pro, {}), ['cost', 'asset_value']);
    expectFields(await run(pro, { cost: '50000', asset_value: 11 }), ['term', 'advance_arrears', 'repayment_frequency']);
  });

  it('wrong types name the field: term as text, asset_value as a fraction, cost as text, an unknown enum value', async () => {
    expectFields(await run(pro, { ...DEAL, term: 'sixty' }), ['term']);
    expectFields(await run(pro, { ...DEAL, asset_value: 11.5 }), ['asset_value']);
    expectFields(await run(pro, { ...DEAL, cost: 'fifty thousand' }), ['cost']);
    expectFields(await run(pro, { ...DEAL, repayment_frequency: 'fortnightly' }), ['repayment_frequency']);
    expectFields(await run(pro, { ...DEAL, home_owner: 'maybe' }), ['home_owner']);
  });

  it('bounds: asset_value >= 1, term >= 1, ages >= 0, asset_age_plus_term >= 0, negative cost rejected', async () => {
    expectFields(await run(pro, { ...DEAL, asset_value: 0 }), ['asset_value']);
    expectFields(await run(pro, { ...DEAL, term: 0 }), ['term']);
    expectFields(await run(pro, { ...DEAL, cost: '-0.01' }), ['cost']);
    expectFields(await run(pro, { ...DEAL, abn_age: -1, borrower_age: -1, asset_age_plus_term: -1 }), ['abn_age', 'borrower_age', 'asset_age_plus_term']);
    expect((await run(pro, { ...DEAL, abn_age: 0, borrower_age: 0, asset_age_plus_term: 0, cost: '0' })).status).toBe(200);
  });

  it('an unknown asset answers 400 naming asset_value', async () => {
    expectFields(await run(pro, { ...DEAL, asset_value: 987654 }), ['asset_value']);
  });

  it('cost as a string and as a number are both accepted, with the same answer', async () => {
    const asString = await run(pro, DEAL);
    const asNumber = await run(pro, { ...DEAL, cost: 50000 });
    expect(asString.status).toBe(200);
    expect(asNumber.status).toBe(200);
    expect(asString.body.results.length).toBeGreaterThan(0);
    expect(asNumber.body).toEqual(asString.body);
  });

  it('defaults: omitting the optional fields answers exactly as sending their documented defaults', async () => {
    const implicit = await run(pro, DEAL);
    const explicit = await run(pro, {
      ...DEAL, cost_gst: false, type: 'commercial', deposit: 0, deposit_gst: false, deposit_percentage: false, brokerage: 0, brokerage_gst: false,
      brokerage_percentage: false, origination_fee: 0, origination_fee_gst: false, balloon: 0, balloon_gst: false, balloon_percentage: false,
    });
    expect(explicit.status).toBe(200);
    expect(explicit.body).toEqual(implicit.body);
  });

  it('deposit defaults to 0, an answer: an approval needing a deposit is dropped here while the Matrix lists it as possible', async () => {
    const org = await financierOrg('Deposit Default Finance');
    const bracket = await bracketOf(org, await productOf(org), 8);
    const approval = await approvalOf(org, { min_deposit_amount: '1000' }, [bracket]);
    const omitted = await run(pro, { ...DEAL, preferred_financier: [org] });
    expect(omitted.body).toMatchObject({ results: [], destination_count: 0, priced_count: 1, degraded: null });
    const matrix = await t.rest('POST', '/api/v1/matrix/', { token: pro, body: { ...DEAL, preferred_financier: [org] } });
    expect(matrix.body.results[0].approvals[0]).toMatchObject({ approval_id: approval, status: 'possible', missing_fields: ['deposit'] });
    const paid = await run(pro, { ...DEAL, deposit: 1000, preferred_financier: [org] });
    expect(paid.body.results).toEqual([expect.objectContaining({ approval_id: approval, status: 'confirmed', deposit_required: 1000, rate_bracket_id: bracket })]);
  });
});

describe('POST /matrix-calculator/ Rule 1: term is required; type accepts only commercial', () => {
  it('missing term answers 400 naming term', async () => {
    const { term: _term, ...noTerm } = DEAL;
    const res = await run(pro, noTerm);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['term']);
  });

  it('term null is the same as missing', async () => {
    const res = await run(pro, { ...DEAL, term: null });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['term']);
  });

  it('type consumer answers 400 naming type; type commercial is accepted', async () => {
    const consumer = await run(pro, { ...DEAL, type: 'consumer' });
    expect(consumer.status).toBe(400);
    expect(Object.keys(consumer.body.errors)).toEqual(['type']);
    expect((await run(pro, { ...DEAL, type: 'commercial' })).status).toBe(200);
  });

  it('a refused request consumes no allowance', async () => {
    const user = await prisma().user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } });
    const before = await usageOf(user.id);
    await run(pro, { ...DEAL, type: 'consumer' });
    await run(pro, { ...DEAL, term: null });
    expect(await usageOf(user.id)).toEqual(before);
  });
});

describe('POST /matrix-calculator/ Rule 2: home_owner and asset_owner are the same question; different values are rejected', () => {
  it('contradictory home_owner / asset_owner answers 400 naming both', async () => {
    const res = await run(pro, { ...DEAL, home_owner: true, asset_owner: false });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['asset_owner', 'home_owner']);
  });

  it('agreeing values are fine, and asset_owner alone answers exactly as home_owner alone', async () => {
    const both = await run(pro, { ...DEAL, home_owner: false, asset_owner: false });
    expect(both.status).toBe(200);
    const home = await run(pro, { ...DEAL, home_owner: false });
    const asset = await run(pro, { ...DEAL, asset_owner: false });
    expect(asset.body).toEqual(home.body);
    expect(both.body).toEqual(home.body);
    // and the answer matters: it is not the same as leaving the question open
    expect((await run(pro, DEAL)).body).not.toEqual(home.body);
  });
});

describe('POST /matrix-calculator/ Rule 3: a balloon percentage above 100 is rejected; a dollar balloon above 100 is ordinary', () => {
  it('balloon 101 with balloon_percentage answers 400 naming balloon', async () => {
    const res = await run(pro, { ...DEAL, balloon: 101, balloon_percentage: true });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['balloon']);
  });

  it('balloon 101 dollars answers 200 and the balloon is on the rows', async () => {
    const res = await run(pro, { ...DEAL, balloon: 101 });
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const row of res.body.results) expect(row.balloon).toBe(101);
  });

  it('balloon_percentage 100 is not over the limit', async () => {
    expect((await run(pro, { ...DEAL, balloon: 100, balloon_percentage: true })).status).toBe(200);
  });
});

describe('POST /matrix-calculator/ path: with and without the trailing slash', () => {
  it('/matrix-calculator/ and /matrix-calculator answer the same', async () => {
    const slash = await run(pro, DEAL);
    const bare = await run(pro, DEAL, undefined, '/api/v1/matrix-calculator');
    expect(slash.status).toBe(200);
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual(slash.body);
  });
});

// ---------- the join ----------

describe('POST /matrix-calculator/ Rule 4: the rate bracket is the join key (Rule 13 Cheapest; priced_bracket_count; destination_count)', () => {
  let org: number;
  const b: Record<string, number> = {};
  const a: Record<string, number> = {};
  beforeAll(async () => {
    org = await financierOrg('Join Rule Finance');
    const plain = await productOf(org);
    const monthlyFee = await productOf(org, { monthly_fee: 10 });
    const docFee = await productOf(org, { documentation_fee: 2000 });
    b.fee6 = await bracketOf(org, monthlyFee, 6); // created first: the lowest id of the 6% pair
    b.at8 = await bracketOf(org, plain, 8);
    b.at6 = await bracketOf(org, plain, 6);
    b.short5 = await bracketOf(org, plain, 5, { max_term: 24 }); // cheapest of all, but filtered out by term 60
    b.docFee59 = await bracketOf(org, docFee, 5.9); // lower base, but the financed doc fee lifts e above 6
    b.unlinked7 = await bracketOf(org, plain, 7); // priced, linked by no approval
    b.twinA = await bracketOf(org, plain, 9);
    b.twinB = await bracketOf(org, plain, 9);
    a.cheapest = await approvalOf(org, { name: 'Four brackets' }, [b.at8, b.at6, b.short5, b.docFee59]);
    a.allFiltered = await approvalOf(org, { name: 'Only the short bracket' }, [b.short5]);
    a.repaymentTie = await approvalOf(org, { name: 'Same e, different repayment' }, [b.fee6, b.at6]);
    a.idTie = await approvalOf(org, { name: 'Identical twins' }, [b.twinB, b.twinA]);
  });
  const deal = () => ({ ...DEAL, preferred_financier: [org] });
  const rowOf = (body: any, approvalId: number) => body.results.find((r: any) => r.approval_id === approvalId);

  it('each row carries its approval\'s cheapest priced bracket by e_min (not by base rate), with priced_bracket_count counting survivors only', async () => {
    const res = await run(pro, deal());
    expect(res.status).toBe(200);
    const row = rowOf(res.body, a.cheapest);
    expect(row).toMatchObject({ rate_bracket_id: b.at6, base_min: '6.0000', e_min: '6.0000', priced_bracket_count: 3 });
    // the doc-fee bracket has the lower base rate but the higher effective rate
    const calc = await t.rest('POST', '/api/v1/calculator', { token: pro, body: deal() });
    const docFee = calc.body.results.find((r: any) => r.rate_bracket_id === b.docFee59);
    expect(Number.parseFloat(docFee.base_min)).toBeLessThan(6);
    expect(Number.parseFloat(docFee.e_min)).toBeGreaterThan(6);
  });

  it('Rule 13: equal e_min falls to the lower repayment_min, then to the lower id', async () => {
    const res = await run(pro, deal());
    expect(rowOf(res.body, a.repaymentTie)).toMatchObject({ rate_bracket_id: b.at6, e_min: '6.0000', priced_bracket_count: 2 });
    expect(rowOf(res.body, a.idTie)).toMatchObject({ rate_bracket_id: Math.min(b.twinA, b.twinB), priced_bracket_count: 2 });
  });

  it('an approval whose brackets were all filtered out by pricing is omitted from results but counted in destination_count', async () => {
    const res = await run(pro, deal());
    expect(res.body.results.map((r: any) => r.approval_id).sort((x: number, y: number) => x - y)).toEqual([a.cheapest, a.repaymentTie, a.idTie].sort((x, y) => x - y));
    expect(res.body.destination_count).toBe(4);
    expect(res.body.destination_count).toBeGreaterThan(res.body.results.length);
  });

  it('... and it still appears in the standalone Matrix', async () => {
    const matrix = await t.rest('POST', '/api/v1/matrix/', { token: pro, body: deal() });
    expect(matrix.body.results[0].approvals.map((x: any) => x.approval_id)).toContain(a.allFiltered);
    expect(matrix.body.destination_count).toBe(4);
  });

  it('priced_count counts every rate card that survived pricing, linked or not', async () => {
    const res = await run(pro, deal());
    // fee6, at8, at6, docFee59, unlinked7, twinA, twinB; short5 is out on term
    expect(res.body.priced_count).toBe(7);
    const shortTerm = await run(pro, { ...deal(), term: 24 });
    expect(shortTerm.body.priced_count).toBe(8);
    expect(rowOf(shortTerm.body, a.cheapest)).toMatchObject({ rate_bracket_id: b.short5, priced_bracket_count: 4 });
    expect(rowOf(shortTerm.body, a.allFiltered)).toMatchObject({ rate_bracket_id: b.short5, priced_bracket_count: 1 });
  });

  it('a row carries the approval\'s figures and the bracket\'s product', async () => {
    const res = await run(pro, deal());
    const product = await prisma().rateBracket.findUniqueOrThrow({ where: { id: b.at6 }, include: { product: true } });
    expect(rowOf(res.body, a.cheapest)).toMatchObject({
      organisation_id: org, organisation_name: 'Join Rule Finance', approval_name: 'Four brackets', doc_level: 'low_doc', status: 'confirmed',
      missing_fields: [], product_id: product.product_id, product_name: product.product.product_name, rate_bracket_name: product.name, masked: false,
    });
  });
});

// ---------- row order and row shape ----------

/** Five rows over two financiers: every sort key decides at least one pair, and the paywall has a tie at its edge. */
async function orderingCatalogue(prefix: string) {
  const zeta = await financierOrg(`${prefix} Zeta Finance`); // created first: lower org id, lower approval id
  const alpha = await financierOrg(`${prefix} Alpha Finance`);
  const zp = await productOf(zeta);
  const ap = await productOf(alpha);
  const zeta95 = await approvalOf(zeta, { name: 'Zeta 9.5' }, [await bracketOf(zeta, zp, 9.5)]);
  const alpha95 = await approvalOf(alpha, { name: 'Alpha 9.5' }, [await bracketOf(alpha, ap, 9.5)]);
  const alpha1025 = await approvalOf(alpha, { name: 'Alpha 10.25' }, [await bracketOf(alpha, ap, 10.25)]);
  const fullDoc7 = await approvalOf(alpha, { name: 'Alpha full doc 7', doc_level: 'full_doc' }, [await bracketOf(alpha, ap, 7)]);
  const possible6 = await approvalOf(alpha, { name: 'Alpha possible 6', min_credit_score: 600 }, [await bracketOf(alpha, ap, 6)]);
  return { zeta, alpha, zeta95, alpha95, alpha1025, fullDoc7, possible6 };
}

describe('POST /matrix-calculator/ row order: confirmed before possible, then doc level, then e_min ascending (numeric), then financier name', () => {
  let c: Awaited<ReturnType<typeof orderingCatalogue>>;
  beforeAll(async () => { c = await orderingCatalogue('Order'); });

  it('exact order on a constructed catalogue', async () => {
    const res = await run(pro, { ...DEAL, preferred_financier: [c.zeta, c.alpha] });
    expect(res.body.results.map((r: any) => r.approval_id)).toEqual([c.alpha95, c.zeta95, c.alpha1025, c.fullDoc7, c.possible6]);
    expect(res.body.results.map((r: any) => r.e_min)).toEqual(['9.5000', '9.5000', '10.2500', '7.0000', '6.0000']);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['confirmed', 'confirmed', 'confirmed', 'confirmed', 'possible']);
  });

  it('answering the missing criterion moves the possible row up among the confirmed', async () => {
    const res = await run(pro, { ...DEAL, credit_score: 700, preferred_financier: [c.zeta, c.alpha] });
    expect(res.body.results.map((r: any) => r.approval_id)).toEqual([c.possible6, c.alpha95, c.zeta95, c.alpha1025, c.fullDoc7]);
  });

  it('rows whose e_min reads the same (4 dp) fall through to financier name, not to floating-point noise', async () => {
    const zeta = await financierOrg('Near Tie Zeta Finance'); // created first: lower ids
    const alpha = await financierOrg('Near Tie Alpha Finance');
    const zetaRow = await approvalOf(zeta, { name: 'Zeta 7.00001' }, [await bracketOf(zeta, await productOf(zeta), 7.00001)]);
    const alphaRow = await approvalOf(alpha, { name: 'Alpha 7.00004' }, [await bracketOf(alpha, await productOf(alpha), 7.00004)]);
    const res = await run(pro, { ...DEAL, preferred_financier: [zeta, alpha] });
    expect(res.body.results.map((r: any) => r.e_min)).toEqual(['7.0000', '7.0000']);
    expect(res.body.results.map((r: any) => r.approval_id)).toEqual([alphaRow, zetaRow]);
  });

  it('on every financier (the demo catalogue plus this file\'s own), every adjacent pair is in (status, doc level, parsed e_min, financier name) order', async () => {
    const res = await run(pro, DEAL);
    const rows = res.body.results;
    expect(rows.length).toBeGreaterThan(5);
    for (let i = 1; i < rows.length; i++) {
      const [p, q] = [key(rows[i - 1]), key(rows[i])];
      const cmp = p[0] - q[0] || p[1] - q[1] || p[2] - q[2] || rows[i - 1].organisation_name.localeCompare(rows[i].organisation_name, 'en');
      expect(cmp, `rows ${i - 1} and ${i}`).toBeLessThanOrEqual(0);
    }
  });
});

describe('Matrix result shapes: MatrixCalculatorRow (every field present, rates and repayments as strings)', () => {
  it('the 200 body is {results, priced_count, destination_count, degraded: null}; each row has exactly the spec fields with the right types', async () => {
    const res = await run(pro, DEAL);
    expect(Object.keys(res.body).sort()).toEqual(['degraded', 'destination_count', 'priced_count', 'results']);
    expect(res.body.degraded).toBeNull();
    expect(Number.isInteger(res.body.priced_count)).toBe(true);
    expect(res.body.destination_count).toBeGreaterThanOrEqual(res.body.results.length);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const row of res.body.results) {
      expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
      for (const f of ['organisation_id', 'approval_id', 'product_id', 'rate_bracket_id', 'priced_bracket_count']) expect(Number.isInteger(row[f]), f).toBe(true);
      for (const f of ['organisation_name', 'approval_name', 'product_name', 'rate_bracket_name']) expect(typeof row[f], f).toBe('string');
      expect(['low_doc', 'lite_doc', 'full_doc']).toContain(row.doc_level);
      expect(['confirmed', 'possible']).toContain(row.status);
      expect(row.status === 'possible').toBe(row.missing_fields.length > 0);
      for (const f of ['deposit_percentage', 'deposit_amount', 'deposit_required']) expect(row[f] === null || typeof row[f] === 'number', f).toBe(true);
      expect(row.max_term === null || Number.isInteger(row.max_term)).toBe(true);
      // Rule 10: plain decimals, rates to 4 dp, money to cents
      for (const f of ['base_min', 'base_max', 'e_min', 'e_max']) expect(row[f], f).toMatch(/^-?\d+\.\d{4}$/);
      for (const f of ['repayment_min', 'repayment_max']) expect(row[f], f).toMatch(/^\d+\.\d{2}$/);
      expect(typeof row.balloon).toBe('number');
      expect(typeof row.commission).toBe('number');
      expect(row.masked).toBe(false);
      expect(row.priced_bracket_count).toBeGreaterThanOrEqual(1);
      expect(Number.parseFloat(row.e_min)).toBeLessThanOrEqual(Number.parseFloat(row.e_max));
    }
  });
});

// ---------- paywall ----------

describe('Limits: Free-tier paywall (the cheapest three rows stay visible; further rows have figures nulled and masked true)', () => {
  let c: Awaited<ReturnType<typeof orderingCatalogue>>;
  beforeAll(async () => { c = await orderingCatalogue('Paywall'); });

  it('a Free organisation on a Matrix trial: the three lowest e_min rows keep their figures, wherever they sit; ties go to the earlier row', async () => {
    const body = { ...DEAL, preferred_financier: [c.zeta, c.alpha] };
    const res = await t.rest('POST', '/api/v1/matrix-calculator/', { token: trial, body });
    expect(res.status).toBe(200);
    const proRes = await run(pro, body);
    // Rows in order: alpha95, zeta95 (tie with alpha95 on 9.5, later), alpha1025, fullDoc7, possible6.
    // Lowest three e_min: 6 (possible6), 7 (fullDoc7), 9.5 (alpha95, the earlier of the tie).
    expect(res.body.results.map((r: any) => [r.approval_id, r.masked])).toEqual([
      [c.alpha95, false], [c.zeta95, true], [c.alpha1025, true], [c.fullDoc7, false], [c.possible6, false],
    ]);
    res.body.results.forEach((row: any, i: number) => {
      expect(Object.keys(row).sort()).toEqual(ROW_KEYS); // masked figures are present as null, not dropped
      if (row.masked) {
        for (const f of FIGURES) expect(row[f], f).toBeNull();
        // who and what stay
        const { masked: _m, ...identity } = proRes.body.results[i];
        for (const f of FIGURES) delete identity[f];
        expect(row).toMatchObject(identity);
      } else {
        expect(row).toEqual(proRes.body.results[i]);
      }
    });
  });

  it('a tie at the edge of the three is decided by row order as the rows read (e_min to 4 dp), not by hidden decimals', async () => {
    const zeta = await financierOrg('Edge Tie Zeta Finance');
    const alpha = await financierOrg('Edge Tie Alpha Finance');
    const ap = await productOf(alpha);
    const five = await approvalOf(alpha, { name: 'Edge 5' }, [await bracketOf(alpha, ap, 5)]);
    const six = await approvalOf(alpha, { name: 'Edge 6' }, [await bracketOf(alpha, ap, 6)]);
    const zetaRow = await approvalOf(zeta, { name: 'Edge Zeta 7.00001' }, [await bracketOf(zeta, await productOf(zeta), 7.00001)]);
    const alphaRow = await approvalOf(alpha, { name: 'Edge Alpha 7.00004' }, [await bracketOf(alpha, ap, 7.00004)]);
    const res = await t.rest('POST', '/api/v1/matrix-calculator/', { token: trial, body: { ...DEAL, preferred_financier: [zeta, alpha] } });
    // Both 7% rows read "7.0000": the earlier row (Alpha, by financier name) keeps its figures.
    expect(res.body.results.map((r: any) => [r.approval_id, r.masked])).toEqual([[five, false], [six, false], [alphaRow, false], [zetaRow, true]]);
  });

  it('no figure of a masked row appears anywhere in the raw JSON', async () => {
    const body = { ...DEAL, preferred_financier: [c.zeta, c.alpha] };
    const raw = await (await fetch(`${t.baseUrl}/api/v1/matrix-calculator/`, {
      method: 'POST', headers: { authorization: `Bearer ${trial}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    })).text();
    expect(raw).not.toContain('10.2500'); // alpha1025's base/e
    expect(raw).not.toContain('12.2500'); // its base_max
    // zeta95 is masked, alpha95 (same figures) is not: 9.5 appears once as base_min and once as e_min
    expect(raw.split('"9.5000"').length - 1).toBe(2);
    const nulls = raw.match(/"(base_min|base_max|e_min|e_max|repayment_min|repayment_max|balloon|commission)":null/g) ?? [];
    expect(nulls).toHaveLength(2 * FIGURES.length);
  });

  it('on every financier (the demo catalogue plus this file\'s own, with ties at the edge): exactly the three lowest-e_min rows are visible, their figures as a Pro broker sees them', async () => {
    const trialRes = await t.rest('POST', '/api/v1/matrix-calculator/', { token: trial, body: DEAL });
    const proRes = await run(pro, DEAL);
    expect(proRes.body.results.length).toBeGreaterThan(3);
    expect(trialRes.body.results.map((r: any) => r.approval_id)).toEqual(proRes.body.results.map((r: any) => r.approval_id));
    const cheapest = proRes.body.results.map((r: any, i: number) => ({ i, e: Number.parseFloat(r.e_min) }))
      .sort((x: any, y: any) => x.e - y.e || x.i - y.i).slice(0, 3).map((x: any) => x.i).sort((x: number, y: number) => x - y);
    const visible = trialRes.body.results.map((r: any, i: number) => (r.masked ? -1 : i)).filter((i: number) => i >= 0);
    expect(visible).toEqual(cheapest);
    trialRes.body.results.forEach((row: any, i: number) => {
      if (row.masked) for (const f of FIGURES) expect(row[f]).toBeNull();
      else expect(row).toEqual(proRes.body.results[i]);
    });
  });

  it('a Pro broker sees no masked rows', async () => {
    const res = await run(pro, DEAL);
    expect(res.body.results.length).toBeGreaterThan(3);
    expect(res.body.results.every((r: any) => r.masked === false && r.e_min !== null)).toBe(true);
  });

  it('the Free organisation without the trial is refused, not masked', async () => {
    expect((await run(free, DEAL)).status).toBe(403);
  });
});

// ---------- 403 and 429 ----------

describe('Errors: POST /matrix-calculator/ 403 entitlement_required (Matrix not on this account)', () => {
  it('web: {error, detail, message, entitlement}; the web message may name the upgrade', async () => {
    const res = await run(free, DEAL);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'entitlement_required', detail: expect.any(String), message: expect.any(String), entitlement: 'matrix.enabled' });
    expect(res.body.detail.length).toBeGreaterThan(0);
  });

  it('android: detail equals message; no plan, price or link; an unknown client (blackberry) reads like android', async () => {
    const web = await run(free, DEAL);
    const android = await run(free, DEAL, { 'X-Service-Client': 'android' });
    const odd = await run(free, DEAL, { 'X-Service-Client': 'blackberry' });
    const ios = await run(free, DEAL, { 'X-Service-Client': 'ios' });
    expect(android.status).toBe(403);
    expect(android.body).toEqual({ error: 'entitlement_required', detail: expect.any(String), message: expect.any(String), entitlement: 'matrix.enabled' });
    expect(android.body.message).toBe(android.body.detail);
    expect(android.body.message).not.toMatch(SALES_TALK);
    expect(odd.body).toEqual(android.body);
    expect(ios.body).toEqual(android.body);
    expect(web.body.message).not.toBe(android.body.message);
  });
});

describe('Errors: POST /matrix-calculator/ 403 feature_disabled (surfaces.matrix_calculator switched off)', () => {
  let off: TestApp;
  beforeAll(async () => { off = await startTestApp({ clock, shareDatabaseWith: t, config: { disabledSurfaces: ['matrix_calculator'] } }); });
  afterAll(async () => { await off?.close(); });

  it('{error: feature_disabled, detail} with no message or entitlement, client-worded', async () => {
    const web = await off.rest('POST', '/api/v1/matrix-calculator/', { token: pro, body: DEAL });
    expect(web.status).toBe(403);
    expect(web.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
    const android = await off.rest('POST', '/api/v1/matrix-calculator/', { token: pro, body: DEAL, headers: { 'X-Service-Client': 'android' } });
    const odd = await off.rest('POST', '/api/v1/matrix-calculator/', { token: pro, body: DEAL, headers: { 'X-Service-Client': 'blackberry' } });
    expect(android.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
    expect(android.body.detail).not.toMatch(SALES_TALK);
    expect(odd.body).toEqual(android.body);
  });

  it('the standalone Matrix is unaffected', async () => {
    expect((await off.rest('POST', '/api/v1/matrix/', { token: pro, body: DEAL })).status).toBe(200);
  });
});

describe('Errors: POST /matrix-calculator/ 429 cap_hit (either daily allowance is spent; metric names which); Rule 6: a run decrements both', () => {
  let userId: number;
  let session: string;
  beforeAll(async () => {
    userId = (await prisma().user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
    session = (await t.login('broker.user@demo.test')).access;
  });
  afterAll(async () => {
    await prisma().organisation.update({ where: { id: 8 }, data: { plan_overrides: UNLIMITED } });
    await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
  });
  const allow = async (calculator_allowance: number, matrix_allowance: number) => {
    await prisma().organisation.update({ where: { id: 8 }, data: { plan_overrides: { calculator_allowance, matrix_allowance } } });
    await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
  };

  it('Rule 6: one run adds one to each of the calculator and Matrix counters', async () => {
    await allow(100, 100);
    expect((await run(session, DEAL)).status).toBe(200);
    expect(await usageOf(userId)).toEqual({ calculator: 1, matrix: 1 });
    expect((await run(session, DEAL)).status).toBe(200);
    expect(await usageOf(userId)).toEqual({ calculator: 2, matrix: 2 });
  });

  it('calculator allowance spent: 429 with the exact body and metric calculator; the refused run decrements neither', async () => {
    await allow(1, 100);
    expect((await run(session, DEAL)).status).toBe(200);
    const res = await run(session, DEAL);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'cap_hit', detail: expect.any(String), message: expect.any(String), limit: 1, used: 1, metric: 'calculator' });
    expect(await usageOf(userId)).toEqual({ calculator: 1, matrix: 1 });
  });

  it('Matrix allowance spent: 429 with metric matrix; the calculator counter does not move', async () => {
    await allow(100, 2);
    expect((await run(session, DEAL)).status).toBe(200);
    expect((await run(session, DEAL)).status).toBe(200);
    const res = await run(session, DEAL);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'cap_hit', detail: expect.any(String), message: expect.any(String), limit: 2, used: 2, metric: 'matrix' });
    expect(await usageOf(userId)).toEqual({ calculator: 2, matrix: 2 });
  });

  it('the allowances are shared with the other surfaces: Calculator runs spend the calculator one, Matrix runs the Matrix one', async () => {
    await allow(2, 100);
    for (let i = 0; i < 2; i++) expect((await t.rest('POST', '/api/v1/calculator', { token: session, body: DEAL })).status).toBe(200);
    expect((await run(session, DEAL)).body).toMatchObject({ error: 'cap_hit', metric: 'calculator', limit: 2, used: 2 });
    await allow(100, 1);
    expect((await t.rest('POST', '/api/v1/matrix/', { token: session, body: DEAL })).status).toBe(200);
    expect((await run(session, DEAL)).body).toMatchObject({ error: 'cap_hit', metric: 'matrix', limit: 1, used: 1 });
    expect(await usageOf(userId)).toEqual({ matrix: 1 });
  });

  it('client wording: web may point at billing; android and an unknown client state the fact only, and name the allowance', async () => {
    await allow(100, 1);
    await run(session, DEAL);
    const web = await run(session, DEAL);
    const android = await run(session, DEAL, { 'X-Service-Client': 'android' });
    const odd = await run(session, DEAL, { 'X-Service-Client': 'blackberry' });
    expect(android.body).toEqual({ error: 'cap_hit', detail: expect.any(String), message: expect.any(String), limit: 1, used: 1, metric: 'matrix' });
    for (const text of [android.body.detail, android.body.message]) expect(text).not.toMatch(SALES_TALK);
    expect(odd.body).toEqual(android.body);
    expect(web.body.message).not.toBe(android.body.message);
    expect(android.body.message).toMatch(/Matrix/);
    await allow(1, 100);
    await run(session, DEAL);
    const calc = await run(session, DEAL, { 'X-Service-Client': 'android' });
    expect(calc.body.metric).toBe('calculator');
    expect(calc.body.message).toMatch(/calculator/i);
    expect(calc.body.message).not.toMatch(SALES_TALK);
  });

  it('10 concurrent runs with matrix_allowance 3: exactly 3 succeed, 7 are cap_hit matrix, and both counters read 3', async () => {
    await allow(100, 3);
    const answers = await Promise.all(Array.from({ length: 10 }, () => run(session, DEAL)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.body).toMatchObject({ error: 'cap_hit', metric: 'matrix', limit: 3, used: 3 });
    expect(await usageOf(userId)).toEqual({ calculator: 3, matrix: 3 });
  });
});

// ---------- degraded runs ----------

describe('POST /matrix-calculator/ Rule 7: one engine fails, the other answers; degraded names the missing half', () => {
  const engines = () => t.app.deps.services.engines;
  async function withFailing<T>(half: 'priceDeal' | 'evaluateApprovals', fn: () => Promise<T>): Promise<T> {
    const original = engines()[half];
    (engines() as any)[half] = () => { throw new Error('boom'); };
    try { return await fn(); } finally { (engines() as any)[half] = original; }
  }

  it('rate engine throws: 200, degraded rates, financiers present (the Matrix\'s groups), no priced key, results empty', async () => {
    const res = await withFailing('priceDeal', () => run(pro, DEAL));
    expect(res.status).toBe(200);
    expect(res.body.degraded).toBe('rates');
    expect(res.body.results).toEqual([]);
    expect(res.body.priced_count).toBe(0);
    expect('priced' in res.body).toBe(false);
    expect(Array.isArray(res.body.financiers)).toBe(true);
    expect(res.body.financiers.length).toBeGreaterThan(0);
    // the surviving half, unjoined: the same groups the standalone Matrix gives for this deal (deposit 0 is the default here)
    const matrix = await t.rest('POST', '/api/v1/matrix/', { token: pro, body: { ...DEAL, deposit: 0 } });
    expect(res.body.financiers).toEqual(matrix.body.results);
    expect(res.body.destination_count).toBe(matrix.body.destination_count);
  });

  it('approvals engine throws: 200, degraded approvals, priced present (the unjoined cards, cheapest first), no financiers key, results empty', async () => {
    const res = await withFailing('evaluateApprovals', () => run(pro, DEAL));
    expect(res.status).toBe(200);
    expect(res.body.degraded).toBe('approvals');
    expect(res.body.results).toEqual([]);
    expect('financiers' in res.body).toBe(false);
    expect(res.body.priced.length).toBeGreaterThan(0);
    expect(res.body.priced_count).toBe(res.body.priced.length);
    const calculator = await t.rest('POST', '/api/v1/calculator', { token: pro, body: DEAL });
    expect(res.body.priced.map((p: any) => p.rate_bracket_id)).toEqual(calculator.body.results.map((r: any) => r.rate_bracket_id));
    for (const p of res.body.priced) {
      expect(p.masked).toBe(false);
      expect(p.e_min).toMatch(/^\d+\.\d{4}$/);
    }
  });

  it('the paywall holds on a degraded run: beyond the cheapest three, priced cards are masked with figures null', async () => {
    const res = await withFailing('evaluateApprovals', () => t.rest('POST', '/api/v1/matrix-calculator/', { token: trial, body: DEAL }));
    expect(res.body.degraded).toBe('approvals');
    expect(res.body.priced.length).toBeGreaterThan(3);
    expect(res.body.priced.map((p: any) => p.masked)).toEqual(res.body.priced.map((_: unknown, i: number) => i >= 3));
    for (const p of res.body.priced.slice(3)) for (const f of FIGURES) expect(p[f], f).toBeNull();
  });

  it('a deal no financier matches: empty results, degraded null, and neither key', async () => {
    const org = await financierOrg('No Match Finance');
    await approvalOf(org, { home_owner: true }, [await bracketOf(org, await productOf(org), 8)]);
    const res = await run(pro, { ...DEAL, home_owner: false, preferred_financier: [org] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [], priced_count: 1, destination_count: 0, degraded: null });
  });

  it('both engines failing is a 500, not an empty answer', async () => {
    const res = await withFailing('priceDeal', () => withFailing('evaluateApprovals', () => run(pro, DEAL)));
    expect(res.status).toBe(500);
    expect('results' in (res.body ?? {})).toBe(false);
  });

  it('the engines are restored: a normal run is not degraded', async () => {
    const res = await run(pro, DEAL);
    expect(res.body.degraded).toBeNull();
    expect(res.body.results.length).toBeGreaterThan(0);
  });
});

// ---------- API token and GraphQL ----------

describe('Authentication 5: a read API token may run the Matrix Calculator', () => {
  it('answers 200 with the same body as a session of the same user; 401 without credentials', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', { token: pro, body: { name: 'mc read', scope: 'read' } });
    expect(minted.status).toBe(201);
    const viaToken = await run(minted.body.token, DEAL);
    expect(viaToken.status).toBe(200);
    expect(viaToken.body).toEqual((await run(pro, DEAL)).body);
    expect((await run(null, DEAL)).status).toBe(401);
    expect((await run(null, {})).status).toBe(401);
  });
});

describe('Both Matrix surfaces: a financier caller sees only its own organisation', () => {
  it('financier.admin@demo.test (org 1): every row, priced card and count is org 1\'s, whatever preferred_financier says', async () => {
    const lender = (await t.login('financier.admin@demo.test')).access;
    const own = await run(lender, DEAL);
    expect(own.status).toBe(200);
    expect(own.body.results.length).toBeGreaterThan(0);
    expect(new Set(own.body.results.map((r: any) => r.organisation_id))).toEqual(new Set([1]));
    const broker = await run(pro, { ...DEAL, preferred_financier: [1] });
    expect(own.body).toEqual(broker.body);
    const others = await run(lender, { ...DEAL, preferred_financier: [2, 3] });
    expect(others.body).toEqual({ results: [], priced_count: 0, destination_count: 0, degraded: null });
  });
});

const FULL_ROW = `organisation_id organisation_name approval_id approval_name doc_level status missing_fields deposit_percentage
  deposit_amount deposit_required max_term product_id product_name rate_bracket_id rate_bracket_name base_min base_max e_min e_max
  repayment_min repayment_max balloon commission masked priced_bracket_count`;
const MATRIX_CALCULATOR = gql`
  query Dashboard($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename
      ... on MatrixCalculatorResult { results { ${FULL_ROW} } priced_count destination_count degraded }
      ... on Error { message code }
      ... on ValidationError { errors { field messages } }
      ... on CapHitError { detail limit used metric }
      ... on EntitlementRequiredError { detail entitlement }
      ... on FeatureDisabledError { detail }
    }
  }`;

describe('GraphQL matrixCalculator(input): the same rows as REST, and typed errors', () => {
  it('returns the same rows, counts and degraded flag as POST /matrix-calculator/', async () => {
    const data: any = await t.graphql(pro).request(MATRIX_CALCULATOR, { input: DEAL });
    const rest = await run(pro, DEAL);
    expect(data.matrixCalculator.__typename).toBe('MatrixCalculatorResult');
    const { __typename, ...result } = data.matrixCalculator;
    expect(result).toEqual(rest.body);
  });

  it('a dashboard asking for only some fields gets just those, in the same order', async () => {
    const data: any = await t.graphql(pro).request(gql`
      query Few($input: DealInput!) { matrixCalculator(input: $input) { ... on MatrixCalculatorResult { results { approval_name e_min masked } } } }`, { input: DEAL });
    const rest = await run(pro, DEAL);
    expect(data.matrixCalculator.results).toEqual(rest.body.results.map((r: any) => ({ approval_name: r.approval_name, e_min: r.e_min, masked: r.masked })));
  });

  it('ValidationError names the fields (missing term, consumer type)', async () => {
    const { term: _term, ...noTerm } = DEAL;
    const data: any = await t.graphql(pro).request(MATRIX_CALCULATOR, { input: { ...noTerm, type: 'consumer' } });
    expect(data.matrixCalculator.__typename).toBe('ValidationError');
    expect(data.matrixCalculator.errors.map((e: any) => e.field).sort()).toEqual(['term', 'type']);
  });

  it('EntitlementRequiredError for the Free broker, worded for the client header', async () => {
    const web: any = await t.graphql(free).request(MATRIX_CALCULATOR, { input: DEAL });
    expect(web.matrixCalculator).toEqual({ __typename: 'EntitlementRequiredError', code: 'entitlement_required', message: expect.any(String), detail: expect.any(String), entitlement: 'matrix.enabled' });
    const android: any = await t.graphql(free, { 'X-Service-Client': 'android' }).request(MATRIX_CALCULATOR, { input: DEAL });
    expect(android.matrixCalculator.message).toBe(android.matrixCalculator.detail);
    expect(android.matrixCalculator.message).not.toMatch(SALES_TALK);
  });

  it('CapHitError with limit, used and metric once an allowance is spent', async () => {
    const userId = (await prisma().user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
    await prisma().organisation.update({ where: { id: 8 }, data: { plan_overrides: { calculator_allowance: 1 } } });
    await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
    try {
      const session = (await t.login('broker.user@demo.test')).access;
      const first: any = await t.graphql(session).request(MATRIX_CALCULATOR, { input: DEAL });
      expect(first.matrixCalculator.__typename).toBe('MatrixCalculatorResult');
      const second: any = await t.graphql(session).request(MATRIX_CALCULATOR, { input: DEAL });
      expect(second.matrixCalculator).toEqual({ __typename: 'CapHitError', code: 'cap_hit', message: expect.any(String), detail: expect.any(String), limit: 1, used: 1, metric: 'calculator' });
    } finally {
      await prisma().organisation.update({ where: { id: 8 }, data: { plan_overrides: UNLIMITED } });
      await prisma().dailyUsage.deleteMany({ where: { user_id: userId } });
    }
  });

  it('FeatureDisabledError when the surface is switched off', async () => {
    const off = await startTestApp({ clock, shareDatabaseWith: t, config: { disabledSurfaces: ['matrix_calculator'] } });
    try {
      const data: any = await off.graphql(pro).request(MATRIX_CALCULATOR, { input: DEAL });
      expect(data.matrixCalculator).toEqual({ __typename: 'FeatureDisabledError', code: 'feature_disabled', message: expect.any(String), detail: expect.any(String) });
    } finally { await off.close(); }
  });
});
