import { describe, expect, it } from 'vitest';
import type { Product, RateBracket } from '../../src/modules/catalogue/model.ts';
import type { TriState } from '../../src/lib/vocabulary.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import type { PricedBracket } from '../../src/modules/pricing/index.ts';
import type { ApprovalOutcome } from '../../src/modules/matrix/criteria.ts';
import {
  buildPricingIndex,
  compareCheapest,
  priceDeal,
  reachableBracketCount,
  sortCheapestFirst,
  type PricingCatalogue,
} from '../../src/modules/pricing/engine.ts';
import { recalculate, type RecalculateInput } from '../../src/modules/pricing/recalculate.ts';
import { formatMoney, pmt, ratePerInstalment } from '../../src/modules/pricing/finance.ts';
import { makeAsset, makeBracket, makeDeal, makeProduct, makeRelation, syntheticCatalogue } from './fixtures.ts';
import { joinMatrixCalculator } from '../../src/modules/matrix/join.ts';
import { approval, outcome, pricedBracket } from '../matrix/fixtures.ts';

/**
 * Asset tree used throughout:
 *   1 Vehicles > 2 Cars > 1000 Sedan, 1001 Ute
 *   3 Plant > 1002 Excavator
 */
const TREE = [
  makeAsset({ id: 1, name: 'Vehicles', is_asset: false }),
  makeAsset({ id: 2, name: 'Cars', parent_id: 1, is_asset: false }),
  makeAsset({ id: 1000, name: 'Sedan', parent_id: 2 }),
  makeAsset({ id: 1001, name: 'Ute', parent_id: 2 }),
  makeAsset({ id: 3, name: 'Plant', is_asset: false }),
  makeAsset({ id: 1002, name: 'Excavator', parent_id: 3 }),
];

function build(parts: Partial<PricingCatalogue>) {
  return buildPricingIndex({ assets: TREE, products: [], brackets: [], relations: [], ...parts });
}

/** One product (id 1) with one bracket (id 100) mapped directly to the Sedan. */
function single(product: Partial<Product> = {}, bracket: Partial<RateBracket> = {}) {
  return build({
    products: [makeProduct({ id: 1, ...product })],
    brackets: [makeBracket({ id: 100, product_id: 1, ...bracket })],
    relations: [makeRelation(1000, { rate_bracket_id: 100 })],
  });
}

function priceOne(product: Partial<Product>, deal: Partial<Deal>, bracket: Partial<RateBracket> = {}): PricedBracket[] {
  return priceDeal(single(product, bracket), makeDeal(deal));
}

const ids = (rows: PricedBracket[]) => rows.map((row) => row.rate_bracket_id);

describe('Rule 11 Brackets and ranges: asset mapping', () => {
  it('prices a bracket mapped directly to the asset', () => {
    expect(ids(priceOne({}, {}))).toEqual([100]);
  });

  it('prices every bracket of a product mapped to an ancestor category (rate_bracket_id null)', () => {
    const index = build({
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100 }), makeBracket({ id: 101, base_min: 8, base_max: 9 })],
      relations: [makeRelation(1, { product_id: 1 })], // Vehicles, two levels above the Sedan
    });
    expect(ids(priceDeal(index, makeDeal({ asset_value: 1000 })))).toEqual([100, 101]);
    expect(ids(priceDeal(index, makeDeal({ asset_value: 2 })))).toEqual([100, 101]); // a category can be priced too
  });

  it('prices nothing for an unmapped asset or an unknown asset id', () => {
    const index = single();
    expect(priceDeal(index, makeDeal({ asset_value: 1001 }))).toEqual([]); // sibling of the mapped Sedan
    expect(priceDeal(index, makeDeal({ asset_value: 1002 }))).toEqual([]);
    expect(priceDeal(index, makeDeal({ asset_value: 999_999 }))).toEqual([]);
  });

  it('prices nothing for a deleted asset, even when mapped', () => {
    const index = buildPricingIndex({
      assets: TREE.map((a) => (a.id === 1000 ? { ...a, is_deleted: true } : a)),
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100 })],
      relations: [makeRelation(1000, { rate_bracket_id: 100 }), makeRelation(1, { product_id: 1 })],
    });
    expect(priceDeal(index, makeDeal({ asset_value: 1000 }))).toEqual([]);
  });

  it('a deleted category maps nothing itself, but its live ancestors still do', () => {
    const index = buildPricingIndex({
      assets: TREE.map((a) => (a.id === 2 ? { ...a, is_deleted: true } : a)),
      products: [makeProduct({ id: 1 }), makeProduct({ id: 2 })],
      brackets: [makeBracket({ id: 100, product_id: 1 }), makeBracket({ id: 200, product_id: 2 })],
      relations: [makeRelation(2, { product_id: 1 }), makeRelation(1, { product_id: 2 })],
    });
    expect(ids(priceDeal(index, makeDeal({ asset_value: 1000 })))).toEqual([200]);
  });

  it('maps only the relation organisation’s brackets of a shared product', () => {
    const index = build({
      products: [makeProduct({ id: 1, organisation_id: null })],
      brackets: [makeBracket({ id: 100, organisation_id: 10 }), makeBracket({ id: 101, organisation_id: 20 })],
      relations: [makeRelation(1000, { product_id: 1, organisation_id: 10 })],
    });
    expect(ids(priceDeal(index, makeDeal()))).toEqual([100]);
  });

  it('ignores a single-bracket relation of another organisation (catalogue error)', () => {
    const index = build({
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100, organisation_id: 10 })],
      relations: [makeRelation(1000, { rate_bracket_id: 100, organisation_id: 20 })],
    });
    expect(priceDeal(index, makeDeal())).toEqual([]);
  });

  it('prices a bracket mapped twice in the chain once', () => {
    const index = build({
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100 })],
      relations: [
        makeRelation(1000, { rate_bracket_id: 100 }),
        makeRelation(2, { product_id: 1 }),
        makeRelation(1, { product_id: 1 }),
      ],
    });
    expect(ids(priceDeal(index, makeDeal()))).toEqual([100]);
    expect(reachableBracketCount(index, 1000)).toBe(1);
  });

  it('survives a cycle in the parent chain', () => {
    const index = buildPricingIndex({
      assets: [
        makeAsset({ id: 1, parent_id: 2, is_asset: false }),
        makeAsset({ id: 2, parent_id: 1, is_asset: false }),
        makeAsset({ id: 1000, parent_id: 2 }),
        makeAsset({ id: 1003, parent_id: 1003 }), // its own parent
      ],
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100 }), makeBracket({ id: 101 })],
      relations: [makeRelation(2, { rate_bracket_id: 100 }), makeRelation(1003, { rate_bracket_id: 101 })],
    });
    expect(ids(priceDeal(index, makeDeal({ asset_value: 1000 })))).toEqual([100]);
    expect(ids(priceDeal(index, makeDeal({ asset_value: 1003 })))).toEqual([101]);
  });

  it('does not price a bracket whose product is missing from the snapshot', () => {
    const index = build({
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100, product_id: 1 }), makeBracket({ id: 101, product_id: 99 })],
      relations: [makeRelation(1000, { rate_bracket_id: 100 }), makeRelation(1000, { rate_bracket_id: 101 })],
    });
    expect(ids(priceDeal(index, makeDeal()))).toEqual([100]);
  });
});

describe('Rule 11 Brackets and ranges: product and bracket bounds', () => {
  const passes = (product: Partial<Product>, deal: Partial<Deal>, bracket: Partial<RateBracket> = {}) =>
    priceOne(product, deal, bracket).length === 1;

  it('term: bracket min_term/max_term and product min_range/max_range, inclusive', () => {
    expect(passes({}, { term: 36 }, { min_term: 36, max_term: 60 })).toBe(true);
    expect(passes({}, { term: 60 }, { min_term: 36, max_term: 60 })).toBe(true);
    expect(passes({}, { term: 35 }, { min_term: 36, max_term: 60 })).toBe(false);
    expect(passes({}, { term: 61 }, { min_term: 36, max_term: 60 })).toBe(false);
    expect(passes({ min_range: 24, max_range: 48 }, { term: 48 })).toBe(true);
    expect(passes({ min_range: 24, max_range: 48 }, { term: 12 })).toBe(false);
    expect(passes({ min_range: 24, max_range: 48 }, { term: 60 })).toBe(false);
  });

  it('a deal without a term, or whose term gives no instalment, prices nothing', () => {
    expect(passes({}, { term: null })).toBe(false);
    expect(passes({}, { term: 5, repayment_frequency: 'yearly' })).toBe(false); // round(5/12) = 0 instalments
  });

  it('amount financed (P incl. funded brokerage and financed fees) vs bracket and product min/max_amount', () => {
    // P = 60,000 exactly at the bounds passes.
    expect(passes({ min_amount: 60_000, max_amount: 60_000 }, {}, { min_amount: 60_000, max_amount: 60_000 })).toBe(
      true,
    );
    expect(passes({}, {}, { max_amount: 59_999.99 })).toBe(false);
    expect(passes({}, {}, { min_amount: 60_000.01 })).toBe(false);
    expect(passes({ max_amount: 59_999 }, {})).toBe(false);
    expect(passes({ min_amount: 60_001 }, {})).toBe(false);
    // Funded brokerage and a financed doc fee count: 60,000 + 1,000 + 500 > 61,000.
    expect(passes({ documentation_fee: 500 }, { brokerage: 1_000 }, { max_amount: 61_000 })).toBe(false);
    expect(passes({ documentation_fee: 500 }, { brokerage: 1_000 }, { max_amount: 61_500 })).toBe(true);
    // Rate-loaded brokerage is not in P.
    expect(passes({ brokerage_loading_treatment: 0.5 }, { brokerage: 1_000 }, { max_amount: 60_000 })).toBe(true);
  });

  it('amount bounds are compared to the cent (GST float noise never excludes)', () => {
    // 50,000 ex GST is 55,000 inc GST exactly; +1,000 origination ex GST = 1,100.
    expect(
      passes(
        { max_amount: 56_100 },
        { cost: 50_000, cost_gst: false, cost_inc: 55_000, origination_fee: 1_000, origination_fee_gst: false },
      ),
    ).toBe(true);
  });

  it('abn_age, gst_age, asset_age, credit_score and asset_age_plus_term vs the product', () => {
    expect(passes({ min_abn_age: 24 }, { abn_age: 24 })).toBe(true);
    expect(passes({ min_abn_age: 24 }, { abn_age: 23 })).toBe(false);
    expect(passes({ max_abn_age: 24 }, { abn_age: 25 })).toBe(false);
    expect(passes({ min_gst_age: 12 }, { gst_age: 11 })).toBe(false);
    expect(passes({ max_gst_age: 12 }, { gst_age: 13 })).toBe(false);
    expect(passes({ max_asset_age: 120 }, { asset_age: 121 })).toBe(false);
    expect(passes({ min_asset_age: 12 }, { asset_age: 0 })).toBe(false);
    expect(passes({ min_credit_score: 500 }, { credit_score: 499 })).toBe(false);
    expect(passes({ max_credit_score: 900 }, { credit_score: 901 })).toBe(false);
    expect(passes({ min_credit_score: 500, max_credit_score: 900 }, { credit_score: 700 })).toBe(true);
    expect(passes({ max_asset_age_plus_term: 240 }, { asset_age_plus_term: 241 })).toBe(false);
    expect(passes({ min_asset_age_plus_term: 60 }, { asset_age_plus_term: 59 })).toBe(false);
    expect(passes({ max_asset_age_plus_term: 240 }, { asset_age_plus_term: 240 })).toBe(true);
  });

  it('asset_age vs the bracket min/max_asset_age', () => {
    expect(passes({}, { asset_age: 60 }, { min_asset_age: 0, max_asset_age: 60 })).toBe(true);
    expect(passes({}, { asset_age: 61 }, { max_asset_age: 60 })).toBe(false);
    expect(passes({}, { asset_age: 11 }, { min_asset_age: 12 })).toBe(false);
  });

  it('unanswered deal fields never exclude', () => {
    const bounded: Partial<Product> = {
      min_abn_age: 24,
      min_gst_age: 12,
      max_asset_age: 60,
      min_credit_score: 600,
      max_asset_age_plus_term: 120,
      home_owner: 'yes',
      private_sale: 'no',
      sale_hire_back: 'no',
    };
    expect(passes(bounded, {}, { max_asset_age: 12, max_lvr: 80 })).toBe(true);
  });

  it('lvr, when sent, is at most the bracket max_lvr', () => {
    expect(passes({}, { lvr: 120 }, { max_lvr: 120 })).toBe(true);
    expect(passes({}, { lvr: 120.01 }, { max_lvr: 120 })).toBe(false);
    expect(passes({}, { lvr: null }, { max_lvr: 80 })).toBe(true);
    expect(passes({}, { lvr: 500 }, { max_lvr: null })).toBe(true);
  });

  it('tri-state flags: both/null accept either, yes needs true, no needs false, unanswered passes', () => {
    const flags = ['home_owner', 'private_sale', 'sale_hire_back'] as const;
    const expected: Record<string, Record<string, boolean>> = {
      yes: { true: true, false: false, null: true },
      no: { true: false, false: true, null: true },
      both: { true: true, false: true, null: true },
      null: { true: true, false: true, null: true },
    };
    for (const flag of flags) {
      for (const product of ['yes', 'no', 'both', null] as (TriState | null)[]) {
        for (const answer of [true, false, null]) {
          expect(passes({ [flag]: product }, { [flag]: answer }), `${flag} ${product} ${answer}`).toBe(
            expected[String(product)][String(answer)],
          );
        }
      }
    }
  });

  it('preferred_financier restricts organisations; empty or null means every financier', () => {
    const index = build({
      products: [makeProduct({ id: 1, organisation_id: 10 }), makeProduct({ id: 2, organisation_id: 20 })],
      brackets: [
        makeBracket({ id: 100, organisation_id: 10, product_id: 1 }),
        makeBracket({ id: 200, organisation_id: 20, product_id: 2 }),
      ],
      relations: [
        makeRelation(1000, { product_id: 1, organisation_id: 10 }),
        makeRelation(1000, { product_id: 2, organisation_id: 20 }),
      ],
    });
    expect(ids(priceDeal(index, makeDeal({ preferred_financier: [20] })))).toEqual([200]);
    expect(ids(priceDeal(index, makeDeal({ preferred_financier: [] })))).toEqual([100, 200]);
    expect(ids(priceDeal(index, makeDeal({ preferred_financier: null })))).toEqual([100, 200]);
    expect(ids(priceDeal(index, makeDeal(), { organisationIds: new Set([10]) }))).toEqual([100]);
    expect(ids(priceDeal(index, makeDeal(), { bracketIds: new Set([200, 999]) }))).toEqual([200]);
  });

  it('card type matches the deal type (or options.type)', () => {
    const index = build({
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100, type: 'commercial' }), makeBracket({ id: 101, type: 'consumer' })],
      relations: [makeRelation(1000, { product_id: 1 })],
    });
    expect(ids(priceDeal(index, makeDeal({ type: 'commercial' })))).toEqual([100]);
    expect(ids(priceDeal(index, makeDeal({ type: 'consumer' })))).toEqual([101]);
    expect(ids(priceDeal(index, makeDeal({ type: 'commercial' }), { type: 'consumer' }))).toEqual([101]);
  });
});

describe('Rule 7 Brokerage', () => {
  const reference: Partial<Deal> = {
    cost: 60_000,
    cost_inc: 60_000,
    term: 48,
    advance_arrears: 'advance',
    balloon_amount: 12_000,
  };

  it('GST is added on top when brokerage_gst is false', () => {
    const [row] = priceOne({}, { ...reference, brokerage: 1_800, brokerage_gst: false });
    expect(row.commission).toBe(1_980);
    expect(row.amount_financed).toBe(61_980);
  });

  it('a percentage brokerage is taken of P before brokerage (incl. origination fee and financed doc fee)', () => {
    const [row] = priceOne(
      { documentation_fee: 400 },
      {
        ...reference,
        brokerage: 3,
        brokerage_percentage: true,
        brokerage_gst: false,
        origination_fee: 600,
        origination_fee_gst: true,
      },
    );
    const base = 60_000 + 600 + 400;
    expect(row.commission).toBeCloseTo(base * 0.03 * 1.1, 9);
    expect(row.amount_financed).toBeCloseTo(base + base * 0.033, 9);
  });

  it('brokerage_cap (% of the same base) caps the ex-GST brokerage, then GST is added', () => {
    const [row] = priceOne(
      { brokerage_cap: 5 },
      { ...reference, brokerage: 8, brokerage_percentage: true, brokerage_gst: false },
    );
    expect(row.commission).toBeCloseTo(60_000 * 0.05 * 1.1, 9); // 3,300: 5% ex GST + GST
  });

  it('maximum_brokerage_limit ($) caps the ex-GST brokerage; a GST-inclusive entry is compared ex GST', () => {
    expect(
      priceOne({ maximum_brokerage_limit: 2_000 }, { ...reference, brokerage: 3_000, brokerage_gst: false })[0]
        .commission,
    ).toBe(2_200);
    // 3,300 inc GST is 3,000 ex GST, over the 2,000 limit -> 2,000 + GST.
    expect(
      priceOne({ maximum_brokerage_limit: 2_000 }, { ...reference, brokerage: 3_300, brokerage_gst: true })[0]
        .commission,
    ).toBe(2_200);
    // 2,200 inc GST is exactly 2,000 ex GST: not capped, paid as entered.
    expect(
      priceOne({ maximum_brokerage_limit: 2_000 }, { ...reference, brokerage: 2_200, brokerage_gst: true })[0]
        .commission,
    ).toBe(2_200);
  });

  it('the lower of the two caps applies', () => {
    const [row] = priceOne(
      { brokerage_cap: 5, maximum_brokerage_limit: 1_000 },
      { ...reference, brokerage: 8, brokerage_percentage: true, brokerage_gst: false },
    );
    expect(row.commission).toBe(1_100);
    expect(row.amount_financed).toBe(61_100);
  });

  it('rate-loaded: P excludes brokerage; rate = base + L x ex-GST brokerage %; e equals the loaded rate', () => {
    const [row] = priceOne(
      { brokerage_loading_treatment: 0.5 },
      { ...reference, brokerage: 2, brokerage_percentage: true, brokerage_gst: false },
      { base_min: 7.5, base_max: 9 },
    );
    expect(row.amount_financed).toBe(60_000);
    expect(row.commission).toBeCloseTo(60_000 * 0.02 * 1.1, 9);
    expect(row.rate_min).toBeCloseTo(8.5, 12);
    expect(row.rate_max).toBeCloseTo(10, 12);
    expect(row.base_min).toBe(7.5);
    expect(row.e_min).toBeCloseTo(8.5, 10); // no fees: Rule 8's "equals j when c = m"
    const i = ratePerInstalment(0.085, 12, 12);
    expect(row.repayment_min).toBeCloseTo(pmt(i, 48, 60_000, 12_000, true), 9);
  });

  it('rate-loaded dollar brokerage loads by its percentage of P; loading 0 means funded', () => {
    const [loaded] = priceOne(
      { brokerage_loading_treatment: 0.5 },
      { ...reference, brokerage: 1_200, brokerage_gst: false },
    );
    expect(loaded.rate_min).toBeCloseTo(7.5 + 0.5 * 2, 12); // 1,200 of 60,000 = 2%
    const [funded] = priceOne(
      { brokerage_loading_treatment: 0 },
      { ...reference, brokerage: 1_200, brokerage_gst: false },
    );
    expect(funded.amount_financed).toBe(61_320);
    expect(funded.rate_min).toBe(7.5);
  });

  it('a capped rate-loaded brokerage loads by the capped percentage', () => {
    const [row] = priceOne(
      { brokerage_loading_treatment: 0.4, brokerage_cap: 3 },
      { ...reference, brokerage: 5, brokerage_percentage: true, brokerage_gst: false },
    );
    expect(row.rate_min).toBeCloseTo(7.5 + 0.4 * 3, 12);
  });
});

describe('Rule 6 Amount financed: documentation fee and origination fee', () => {
  const financed = (product: Partial<Product>, request: Deal['doc_fee_financed']) => {
    const rows = priceOne({ documentation_fee: 495, ...product }, { doc_fee_financed: request });
    return rows.length === 0 ? 'excluded' : rows[0].amount_financed === 60_495 ? 'financed' : 'up front';
  };

  it('request yes/no wins over the product default; not answered follows the product', () => {
    expect(financed({ doc_fee_financed: 'yes' }, null)).toBe('financed');
    expect(financed({ doc_fee_financed: 'both' }, null)).toBe('financed');
    expect(financed({ doc_fee_financed: null }, null)).toBe('financed');
    expect(financed({ doc_fee_financed: 'no' }, null)).toBe('up front');
    expect(financed({ doc_fee_financed: 'yes' }, 'no')).toBe('up front');
    expect(financed({ doc_fee_financed: 'both' }, 'no')).toBe('up front');
    expect(financed({ doc_fee_financed: 'both' }, 'yes')).toBe('financed');
  });

  it('a product that does not finance its doc fee is excluded when the request asks for it financed', () => {
    expect(financed({ doc_fee_financed: 'no' }, 'yes')).toBe('excluded');
    // ... unless there is no fee to finance.
    expect(priceOne({ doc_fee_financed: 'no', documentation_fee: 0 }, { doc_fee_financed: 'yes' })).toHaveLength(1);
    expect(priceOne({ doc_fee_financed: 'no', documentation_fee: null }, { doc_fee_financed: 'yes' })).toHaveLength(1);
  });

  it('a financed doc fee raises e above the rate; paid up front it does not', () => {
    const [inLoan] = priceOne({ documentation_fee: 495 }, { doc_fee_financed: 'yes' });
    const [upFront] = priceOne({ documentation_fee: 495 }, { doc_fee_financed: 'no' });
    expect(inLoan.e_min).toBeGreaterThan(inLoan.rate_min);
    expect(upFront.e_min).toBeCloseTo(upFront.rate_min, 10);
  });

  it('origination fee is financed with GST added when origination_fee_gst is false', () => {
    expect(priceOne({}, { origination_fee: 1_000, origination_fee_gst: false })[0].amount_financed).toBe(61_100);
    expect(priceOne({}, { origination_fee: 1_100, origination_fee_gst: true })[0].amount_financed).toBe(61_100);
  });

  it('max_origination_fee_limit bounds the GST-inclusive origination fee', () => {
    expect(
      priceOne({ max_origination_fee_limit: 1_100 }, { origination_fee: 1_000, origination_fee_gst: false }),
    ).toHaveLength(1);
    expect(
      priceOne({ max_origination_fee_limit: 1_099 }, { origination_fee: 1_000, origination_fee_gst: false }),
    ).toHaveLength(0);
    expect(priceOne({ max_origination_fee_limit: 0 }, { origination_fee: 0 })).toHaveLength(1);
  });

  it('deposit reduces P; an unanswered deposit prices as none', () => {
    expect(priceOne({}, { deposit: 10_000 })[0].amount_financed).toBe(50_000);
    expect(priceOne({}, { deposit: null })[0].amount_financed).toBe(60_000);
  });

  it('a deal with nothing left to finance prices nothing', () => {
    expect(priceOne({}, { deposit: 60_000 })).toHaveLength(0);
  });

  it('a balloon worth more than P grows to (negative instalment) prices nothing', () => {
    expect(priceOne({}, { balloon_amount: 100_000 })).toHaveLength(0);
    expect(priceOne({}, { balloon_amount: 60_000 })).toHaveLength(1); // interest-only: still a loan
  });

  it('one yearly instalment in advance (everything paid at settlement) has no effective rate: not priced', () => {
    expect(
      priceOne({ documentation_fee: 495 }, { term: 12, repayment_frequency: 'yearly', advance_arrears: 'advance' }),
    ).toHaveLength(0);
  });
});

describe('Rule 9 Monthly fee', () => {
  it('adds monthly_fee * 12 / m to each repayment and leaves e unchanged', () => {
    for (const [frequency, m] of [
      ['monthly', 12],
      ['weekly', 52],
      ['quarterly', 4],
    ] as const) {
      const [plain] = priceOne({}, { repayment_frequency: frequency });
      const [withFee] = priceOne({ monthly_fee: 10 }, { repayment_frequency: frequency });
      expect(withFee.monthly_fee_per_instalment).toBeCloseTo((10 * 12) / m, 12);
      expect(withFee.repayment_min - plain.repayment_min).toBeCloseTo((10 * 12) / m, 9);
      expect(withFee.repayment_max - plain.repayment_max).toBeCloseTo((10 * 12) / m, 9);
      expect(withFee.e_min).toBe(plain.e_min);
      expect(withFee.amount_financed).toBe(plain.amount_financed); // not financed
    }
  });
});

describe('Rule 1 Frequencies / Rule 2 Rate per instalment / Rule 4 Repayment through the engine', () => {
  it('uses the product compounding for i and the deal frequency for m and n', () => {
    const [row] = priceOne(
      { compounding_frequency: 'm' },
      { cost: 50_000, cost_inc: 50_000, term: 60, repayment_frequency: 'weekly' },
      { base_min: 9.5, base_max: 9.5 },
    );
    expect(row).toMatchObject({ instalments: 260, instalments_per_year: 52, compounding_per_year: 12, advance: false });
    expect(formatMoney(row.repayment_min)).toBe('241.59');
  });

  it("advance_arrears 'none' prices in arrears; repayment_frequency 'none' prices monthly", () => {
    const [row] = priceOne(
      {},
      { cost: 50_000, cost_inc: 50_000, term: 60, advance_arrears: 'none', repayment_frequency: 'none' },
      { base_min: 9.5, base_max: 9.5 },
    );
    expect(row).toMatchObject({ instalments: 60, instalments_per_year: 12, advance: false });
    expect(formatMoney(row.repayment_min)).toBe('1050.09');
  });

  it('the _min figures price at base_min and the _max figures at base_max (Rule 11)', () => {
    const [row] = priceOne(
      {},
      { cost: 88_000, cost_inc: 88_000, term: 60, balloon_amount: 26_400, advance_arrears: 'advance' },
      { base_min: 8.45, base_max: 9.5 },
    );
    expect(formatMoney(row.repayment_min)).toBe('1438.11');
    expect(row.repayment_max).toBeGreaterThan(row.repayment_min);
    expect(row.e_max).toBeCloseTo(9.5, 10);
    expect(row.balloon).toBe(26_400);
  });
});

describe('Rule 13 Cheapest', () => {
  it('sorts by e_min, then repayment_min, then id', () => {
    const index = build({
      products: [makeProduct({ id: 1 }), makeProduct({ id: 2, monthly_fee: 5 })],
      brackets: [
        makeBracket({ id: 104, product_id: 1, base_min: 9 }),
        makeBracket({ id: 103, product_id: 2, base_min: 8 }), // same e as 102, higher repayment (monthly fee)
        makeBracket({ id: 102, product_id: 1, base_min: 8 }),
        makeBracket({ id: 101, product_id: 1, base_min: 8 }), // full tie with 102: lower id first
        makeBracket({ id: 100, product_id: 1, base_min: 10 }),
      ],
      relations: [makeRelation(1000, { product_id: 1 }), makeRelation(1000, { product_id: 2 })],
    });
    expect(ids(priceDeal(index, makeDeal()))).toEqual([101, 102, 103, 104, 100]);
  });

  it('compares figures as rows show them: e equal to 4 dp falls through to the repayment', () => {
    const index = build({
      products: [makeProduct({ id: 1, monthly_fee: 3 }), makeProduct({ id: 2 })],
      brackets: [
        makeBracket({ id: 100, product_id: 1, base_min: 8.00001 }), // e shows 8.0000, repayment + 3
        makeBracket({ id: 101, product_id: 2, base_min: 8.00004 }), // e shows 8.0000, lower repayment
      ],
      relations: [makeRelation(1000, { product_id: 1 }), makeRelation(1000, { product_id: 2 })],
    });
    const rows = priceDeal(index, makeDeal());
    expect(rows[0].e_min).toBeGreaterThan(rows[1].e_min); // full precision would have put 100 first
    expect(ids(rows)).toEqual([101, 100]);
    expect(compareCheapest(rows[0], rows[1])).toBeLessThan(0);
    expect(ids(sortCheapestFirst([...rows].reverse()))).toEqual([101, 100]);
  });

  const catalogue = syntheticCatalogue({ brackets: 4_000, seed: 11 });
  const index = buildPricingIndex(catalogue);

  it('sorted: false leaves the order to the caller (the Matrix Calculator join): the same rows, figure for figure; sorting them gives the default answer', () => {
    for (const k of [0, 5, 17]) {
      const deal = makeDeal({ asset_value: catalogue.leafIds[k], term: 48, brokerage: 3, brokerage_percentage: true });
      const sorted = priceDeal(index, deal);
      const unsorted = priceDeal(index, deal, { sorted: false });
      expect(unsorted.length).toBe(sorted.length);
      expect(sortCheapestFirst(unsorted)).toEqual(sorted);
      if (k === 17) expect(ids(unsorted)).not.toEqual(ids(sorted)); // not sorted after all
    }
  });

  it('sorted: false: filters apply as when sorted', () => {
    const deal = makeDeal({ asset_value: catalogue.leafIds[5], term: 36 });
    const options = { organisationIds: new Set([1, 2, 3]), type: 'commercial' as const };
    expect(sortCheapestFirst(priceDeal(index, deal, { ...options, sorted: false }))).toEqual(
      priceDeal(index, deal, options),
    );
  });

  describe('the Matrix Calculator join: within one approval the cheapest bracket by the same order', () => {
    const join = (outcomes: ApprovalOutcome[], priced: PricedBracket[]) =>
      joinMatrixCalculator(outcomes, priced, new Map([[100, 'Acme Finance']]));
    const linked = (id: number, rate_bracket_ids: number[]) =>
      outcome(approval({ id, name: `Approval ${id}`, rate_bracket_ids }));
    const bracket = (rate_bracket_id: number, e_min: number, extra: Partial<PricedBracket> = {}) =>
      pricedBracket({ rate_bracket_id, e_min, ...extra });
    const chosen = (outcomes: ApprovalOutcome[], priced: PricedBracket[]) =>
      join(outcomes, priced).rows.map((r) => r.bracket.rate_bracket_id);

    it('lowest e_min wins, whatever the repayment', () => {
      const priced = [
        bracket(10, 9.1, { repayment_min: 900 }),
        bracket(11, 8.2, { repayment_min: 1_200 }),
        bracket(12, 8.9, { repayment_min: 800 }),
      ];
      expect(chosen([linked(1, [10, 11, 12])], priced)).toEqual([11]);
    });
    it('equal e_min: the lowest repayment_min', () => {
      const priced = [bracket(10, 8.5, { repayment_min: 1_050.1 }), bracket(11, 8.5, { repayment_min: 1_050.09 })];
      expect(chosen([linked(1, [10, 11])], priced)).toEqual([11]);
    });
    it('equal e_min and repayment_min: the lowest id, whatever the input order', () => {
      const tie = (id: number) => bracket(id, 8.5, { repayment_min: 1_000 });
      expect(chosen([linked(1, [12, 10, 11])], [tie(12), tie(11), tie(10)])).toEqual([10]);
      expect(chosen([linked(1, [10, 11, 12])], [tie(10), tie(11), tie(12)])).toEqual([10]);
    });
    it('compares numerically, not as strings ("10.5" would sort before "9.5")', () => {
      expect(chosen([linked(1, [1, 2])], [bracket(1, 10.5), bracket(2, 9.5)])).toEqual([2]);
    });
    it('compareCheapest orders a list of priced brackets the same way', () => {
      const list = [
        bracket(3, 8, { repayment_min: 5 }),
        bracket(1, 9),
        bracket(2, 8, { repayment_min: 5 }),
        bracket(4, 8, { repayment_min: 4 }),
      ];
      expect([...list].sort(compareCheapest).map((b) => b.rate_bracket_id)).toEqual([4, 2, 3, 1]);
    });
  });
});

describe('Rule 8 Effective rate / Rule 10 Rounding: POST /calculator/recalculate', () => {
  const body: RecalculateInput = {
    rate_bracket_id: 100,
    base_min: 8.45,
    base_max: 9.5,
    compounding_freq_value: 12,
    pv: 88_000,
    balloon: 26_400,
    cost: 88_000,
    deposit: 0,
    noi_min: 60,
    noi_max: 60,
    billing_type: 'advance',
    repayment_frequency: 'monthly',
  };

  it('Rule 4 Repayment / Rule 8 Effective rate: re-prices an edited row (money to cents, e to 4 dp, r full precision)', () => {
    const outcome = recalculate(body);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { value } = outcome;
    expect(value).toMatchObject({ rate_bracket_id: 100, repayment_min: 1438.11, e_min: 8.45, e_max: 9.5 });
    expect(value.r_min).toBeCloseTo(8.45 / 12, 14);
    expect(value.r_max).toBeCloseTo(9.5 / 12, 14);
    expect(value.repayment_max).toBe(Number(formatMoney(pmt(0.095 / 12, 60, 88_000, 26_400, true))));
  });

  it('billing_type other than advance prices in arrears; none prices monthly', () => {
    for (const billing_type of [null, 'arrears', 'ADVANCE', '']) {
      const outcome = recalculate({ ...body, billing_type, repayment_frequency: 'none' });
      expect(outcome.ok && outcome.value.repayment_min).toBe(1448.23);
    }
  });

  it('uses cost and deposit as given for e (funded brokerage reference: e 8.8807)', () => {
    const outcome = recalculate({
      ...body,
      base_min: 7.5,
      base_max: 7.5,
      pv: 61_800,
      balloon: 12_000,
      cost: 65_000,
      deposit: 5_000,
      noi_min: 48,
      noi_max: 48,
    });
    expect(outcome.ok && outcome.value).toMatchObject({ repayment_min: 1271.16, e_min: 8.8807, e_max: 8.8807 });
  });

  it('Rule 2 Rate per instalment: r is i as a percentage under the given compounding', () => {
    const outcome = recalculate({
      ...body,
      compounding_freq_value: 12,
      repayment_frequency: 'weekly',
      noi_min: 260,
      noi_max: 260,
    });
    expect(outcome.ok && outcome.value.r_min).toBeCloseTo(ratePerInstalment(0.0845, 12, 52) * 100, 14);
  });

  it('Rule 9 Monthly fee: adds the bracket product’s monthly fee share when given the index', () => {
    const index = single({ monthly_fee: 12 });
    const withFee = recalculate({ ...body, repayment_frequency: 'weekly' }, index);
    const without = recalculate({ ...body, repayment_frequency: 'weekly' });
    expect(withFee.ok && without.ok).toBe(true);
    if (withFee.ok && without.ok) {
      expect(withFee.value.repayment_min - without.value.repayment_min).toBeCloseTo((12 * 12) / 52, 2);
      expect(withFee.value.e_min).toBe(without.value.e_min);
    }
  });

  it('returns a typed failure, never throws, when the row cannot be re-priced', () => {
    expect(recalculate({ ...body, noi_min: 0 })).toMatchObject({ ok: false, reason: 'invalid_instalments' });
    expect(recalculate({ ...body, noi_max: -12 })).toMatchObject({ ok: false, reason: 'invalid_instalments' });
    expect(recalculate({ ...body, compounding_freq_value: 0 })).toMatchObject({
      ok: false,
      reason: 'invalid_compounding',
    });
    expect(recalculate({ ...body, base_min: Number.NaN })).toMatchObject({ ok: false, reason: 'invalid_rate' });
    expect(recalculate({ ...body, base_max: -1_300 })).toMatchObject({ ok: false, reason: 'invalid_rate' }); // j/c <= -1
    expect(recalculate({ ...body, pv: Number.POSITIVE_INFINITY })).toMatchObject({
      ok: false,
      reason: 'invalid_amount',
    });
    expect(recalculate({ ...body, deposit: 88_000 })).toMatchObject({ ok: false, reason: 'not_finite' }); // no money advanced
    const garbage = { rate_bracket_id: 1 } as unknown as RecalculateInput;
    expect(() => recalculate(garbage)).not.toThrow();
    expect(recalculate(garbage).ok).toBe(false);
  });
});

describe('Rule 11 Brackets and ranges / Rule 13 Cheapest: synthetic 12,000-bracket catalogue (shape, not speed)', () => {
  const catalogue = syntheticCatalogue({ brackets: 12_000, seed: 7 });
  const index = buildPricingIndex(catalogue);
  const leaf = catalogue.leafIds[17];

  it('examines only brackets reachable from the asset, and prices sorted, finite rows', () => {
    const reachable = reachableBracketCount(index, leaf);
    expect(reachable).toBeGreaterThan(0);
    expect(reachable).toBeLessThan(12_000);
    const deal = makeDeal({
      asset_value: leaf,
      term: 60,
      brokerage: 2,
      brokerage_percentage: true,
      brokerage_gst: false,
      balloon_amount: 12_000,
    });
    const rows = priceDeal(index, deal);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(reachable);
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k];
      for (const figure of [row.e_min, row.e_max, row.repayment_min, row.repayment_max, row.amount_financed]) {
        expect(Number.isFinite(figure)).toBe(true);
      }
      if (k > 0) expect(compareCheapest(rows[k - 1], row)).toBeLessThanOrEqual(0);
    }
    expect(new Set(ids(rows)).size).toBe(rows.length);
  });

  it('gives the same answer on repeated calls (per-call scratch state is reset)', () => {
    const deal = makeDeal({ asset_value: leaf, term: 36, repayment_frequency: 'weekly' });
    const first = priceDeal(index, deal);
    priceDeal(index, makeDeal({ asset_value: catalogue.leafIds[3] }));
    expect(priceDeal(index, deal)).toEqual(first);
  });
});
