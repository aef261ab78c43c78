/**
 * Spec (api-v1.md): POST /api/v1/matrix-calculator/ request table (types, required fields, bounds, defaults) and
 * Rules 1-3 (term required and commercial only; home_owner = asset_owner; balloon percentage at most 100); the path with
 * and without its trailing slash.
 */
import { describe, expect, it } from 'vitest';
import {
  t,
  pro,
  DEAL,
  useMatrixCalculatorApp,
  run,
  prisma,
  usageOf,
  financierOrg,
  productOf,
  bracketOf,
  approvalOf,
} from './fixtures.ts';

useMatrixCalculatorApp();

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
    expectFields(await run(pro, { cost: '50000', asset_value: 11 }), [
      'term',
      'advance_arrears',
      'repayment_frequency',
    ]);
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
    expectFields(await run(pro, { ...DEAL, abn_age: -1, borrower_age: -1, asset_age_plus_term: -1 }), [
      'abn_age',
      'borrower_age',
      'asset_age_plus_term',
    ]);
    expect((await run(pro, { ...DEAL, abn_age: 0, borrower_age: 0, asset_age_plus_term: 0, cost: '0' })).status).toBe(
      200,
    );
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
      ...DEAL,
      cost_gst: false,
      type: 'commercial',
      deposit: 0,
      deposit_gst: false,
      deposit_percentage: false,
      brokerage: 0,
      brokerage_gst: false,
      brokerage_percentage: false,
      origination_fee: 0,
      origination_fee_gst: false,
      balloon: 0,
      balloon_gst: false,
      balloon_percentage: false,
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
    const matrix = await t.rest('POST', '/api/v1/matrix/', {
      token: pro,
      body: { ...DEAL, preferred_financier: [org] },
    });
    expect(matrix.body.results[0].approvals[0]).toMatchObject({
      approval_id: approval,
      status: 'possible',
      missing_fields: ['deposit'],
    });
    const paid = await run(pro, { ...DEAL, deposit: 1000, preferred_financier: [org] });
    expect(paid.body.results).toEqual([
      expect.objectContaining({
        approval_id: approval,
        status: 'confirmed',
        deposit_required: 1000,
        rate_bracket_id: bracket,
      }),
    ]);
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
