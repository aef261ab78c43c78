/**
 * The fast path (src/modules/pricing/engine.fast.ts: the index, typed-array scratch and loop the services run)
 * answers exactly what the rules (`priceDealByRules`, src/modules/pricing/engine.rules.ts) answer, on generated
 * catalogues and deals: an asset tree with deleted nodes and unknown parents, products shared between financiers or
 * missing, duplicate ids, relations by bracket, by product or by neither, under another financier's id; deals with
 * every pricing figure and eligibility answer varied over small domains, so bounds are hit often.
 * Fixed seed so a failure reproduces; fast-check prints the shrunk counterexample.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssetNode, AssetRateBracketRelation } from '../../src/modules/catalogue/model.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import {
  buildPricingIndex,
  type PricedBracket,
  type PriceDealOptions,
  type PricingCatalogue,
  priceDeal,
  priceDealByRules,
  priceMarket,
  priceOneBracket,
} from '../../src/modules/pricing/engine.ts';
import { ADVANCE_ARREARS, COMPOUNDING_FREQUENCIES, REPAYMENT_FREQUENCIES } from '../../src/lib/vocabulary.ts';
import { makeAsset, makeBracket, makeDeal, makeProduct } from './fixtures.ts';

const PARAMS = { seed: 20_261_128, numRuns: 1_000 } as const;

const ORGANISATIONS = [10, 20];
const ASSET_IDS = [1, 2, 3, 4, 5, 6];
const PRODUCT_IDS = [1, 2, 3, 4];

const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 8 }, { arbitrary: arb, weight: 1 });
const triState = sometimes(fc.constantFrom('yes' as const, 'no' as const, 'both' as const));
const orNull = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 2 });
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: arb, weight: 1 });

/** A tree by construction: a node's parent is mostly an earlier node, else none or an id no node has. */
const assetsArb: fc.Arbitrary<AssetNode[]> = fc
  .tuple(...ASSET_IDS.map(() => fc.record({ parent: fc.nat({ max: 7 }), deleted: fc.nat({ max: 7 }) })))
  .map((nodes) =>
    nodes.map(({ parent, deleted }, k) =>
      makeAsset({
        id: ASSET_IDS[k],
        parent_id: parent === 7 ? 99 : parent === 6 || k === 0 ? null : ASSET_IDS[parent % k],
        is_asset: k >= 3,
        is_deleted: deleted === 0,
      }),
    ),
  );

const productArb = fc.record({
  id: fc.constantFrom(...PRODUCT_IDS),
  organisation_id: fc.oneof(fc.constantFrom(...ORGANISATIONS), fc.constant(null)),
  min_range: sometimes(fc.integer({ min: 6, max: 36 })),
  max_range: sometimes(fc.integer({ min: 24, max: 60 })),
  min_amount: sometimes(fc.constantFrom(5_000, 10_000, 20_000)),
  max_amount: sometimes(fc.constantFrom(15_000, 30_000, 60_000)),
  min_abn_age: sometimes(fc.integer({ min: 0, max: 24 })),
  max_abn_age: sometimes(fc.integer({ min: 12, max: 60 })),
  min_gst_age: sometimes(fc.integer({ min: 0, max: 24 })),
  min_asset_age: sometimes(fc.integer({ min: 0, max: 24 })),
  max_asset_age: sometimes(fc.integer({ min: 12, max: 120 })),
  max_asset_age_plus_term: sometimes(fc.integer({ min: 24, max: 120 })),
  min_credit_score: sometimes(fc.integer({ min: 400, max: 700 })),
  monthly_fee: fc.constantFrom(null, 0, 4.95, 9.9), // not in e: rows tie on e and differ in repayment
  documentation_fee: sometimes(fc.constantFrom(0, 295, 495)),
  brokerage_cap: sometimes(fc.constantFrom(0, 2, 4, 6)),
  maximum_brokerage_limit: sometimes(fc.constantFrom(0, 500, 2_000)),
  compounding_frequency: sometimes(fc.constantFrom(...COMPOUNDING_FREQUENCIES)),
  brokerage_loading_treatment: sometimes(fc.constantFrom(0, 0.4, 0.5)),
  max_origination_fee_limit: sometimes(fc.constantFrom(0, 500, 1_500)),
  doc_fee_financed: triState,
  home_owner: triState,
  private_sale: triState,
  sale_hire_back: triState,
});

const bracketArb = fc.record({
  id: fc.integer({ min: 100, max: 111 }),
  productAim: fc.nat(),
  productMissing: fc.oneof({ arbitrary: fc.constant(false), weight: 6 }, { arbitrary: fc.constant(true), weight: 1 }),
  organisation_id: fc.constantFrom(10, 10, 20),
  type: fc.constantFrom('commercial' as const, 'commercial' as const, 'consumer' as const),
  min_term: sometimes(fc.integer({ min: 6, max: 36 })),
  max_term: sometimes(fc.integer({ min: 24, max: 60 })),
  min_amount: sometimes(fc.constantFrom(5_000, 10_000, 20_000)),
  max_amount: sometimes(fc.constantFrom(15_000, 30_000, 60_000)),
  min_asset_age: sometimes(fc.integer({ min: 0, max: 24 })),
  max_asset_age: sometimes(fc.integer({ min: 12, max: 120 })),
  base_min: fc.constantFrom(0, 4.5, 7.25, 12),
  spread: fc.constantFrom(0, 1, 2.5),
  max_lvr: sometimes(fc.constantFrom(80, 100, 120)),
});

/** A relation aims at one of the generated brackets (or its product), mostly under that bracket's financier. */
const relationArb = fc.record({
  asset_id: fc.constantFrom(1, 1, 2, 3, ...ASSET_IDS, 99), // categories near the root more often
  kind: fc.constantFrom(
    'bracket' as const,
    'bracket' as const,
    'product' as const,
    'product' as const,
    'neither' as const,
  ),
  aim: fc.nat(),
  otherFinancier: fc.oneof({ arbitrary: fc.constant(false), weight: 5 }, { arbitrary: fc.constant(true), weight: 1 }),
});

const catalogueArb: fc.Arbitrary<PricingCatalogue> = fc
  .record({
    assets: assetsArb,
    products: fc.array(productArb, { minLength: 1, maxLength: 3 }),
    brackets: fc.array(bracketArb, { minLength: 1, maxLength: 12 }),
    relations: fc.array(relationArb, { minLength: 2, maxLength: 12 }),
  })
  .map(({ assets, products: productRecords, brackets, relations }) => {
    const products = productRecords.map((p, k) => makeProduct({ ...p, product_name: `Product ${k}` }));
    const rateBrackets = brackets.map(({ spread, productAim, productMissing, ...b }, k) =>
      makeBracket({
        ...b,
        name: `Tier ${k}`,
        product_id: productMissing ? 5 : products[productAim % products.length].id,
        base_max: b.base_min + spread,
      }),
    );
    return {
      assets,
      products,
      brackets: rateBrackets,
      relations: relations.map(({ asset_id, kind, aim, otherFinancier }, k): AssetRateBracketRelation => {
        const bracket = rateBrackets[aim % rateBrackets.length];
        return {
          id: k + 1,
          asset_id,
          organisation_id: otherFinancier ? 30 - bracket.organisation_id : bracket.organisation_id,
          product_id: kind === 'product' ? bracket.product_id : null,
          rate_bracket_id: kind === 'bracket' ? bracket.id : null,
        };
      }),
    };
  });

const dealArb: fc.Arbitrary<Deal> = fc
  .record({
    type: fc.constantFrom('commercial' as const, 'commercial' as const, 'consumer' as const),
    asset_value: fc.constantFrom(4, 5, 6, ...ASSET_IDS, 99), // leaves more often
    term: fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 72 }), weight: 9 },
      { arbitrary: fc.constant(null), weight: 1 },
    ),
    advance_arrears: fc.constantFrom(...ADVANCE_ARREARS),
    repayment_frequency: fc.constantFrom(...REPAYMENT_FREQUENCIES),
    cost_inc: fc.constantFrom(8_000, 15_000, 29_990, 55_000),
    deposit: orNull(fc.constantFrom(0, 1_000, 5_000, 5_000, 60_000)),
    balloon_amount: fc.constantFrom(0, 0, 0, 3_000, 12_000),
    brokerage: fc.constantFrom(0, 2, 5, 900),
    brokerage_gst: fc.boolean(),
    brokerage_percentage: fc.boolean(),
    origination_fee: fc.constantFrom(0, 0, 450, 990),
    origination_fee_gst: fc.boolean(),
    doc_fee_financed: fc.constantFrom('yes' as const, 'no' as const, null),
    lvr: orNull(fc.constantFrom(70, 100, 130)),
    abn_age: orNull(fc.integer({ min: 0, max: 60 })),
    gst_age: orNull(fc.integer({ min: 0, max: 60 })),
    asset_age: orNull(fc.integer({ min: 0, max: 120 })),
    asset_age_plus_term: orNull(fc.integer({ min: 0, max: 180 })),
    credit_score: orNull(fc.integer({ min: 300, max: 800 })),
    home_owner: orNull(fc.boolean()),
    private_sale: orNull(fc.boolean()),
    sale_hire_back: orNull(fc.boolean()),
    preferred_financier: orNull(fc.subarray([...ORGANISATIONS, 30])),
  })
  .map((d) => makeDeal({ ...d, cost: d.cost_inc }));

const optionsArb: fc.Arbitrary<PriceDealOptions> = fc.record(
  {
    organisationIds: rarely(fc.subarray(ORGANISATIONS).map((ids) => new Set(ids))),
    bracketIds: rarely(fc.subarray([100, 101, 102, 103, 104, 105, 106]).map((ids) => new Set(ids))),
    type: fc.constantFrom('commercial' as const, 'commercial' as const, 'consumer' as const),
  },
  { requiredKeys: [] },
);

const byId = (rows: readonly PricedBracket[]) => [...rows].sort((a, b) => a.rate_bracket_id - b.rate_bracket_id);

describe('the fast path answers what the rules answer', () => {
  it('holds on generated catalogues and deals: every row, its figures and the Rule 13 order', () => {
    let priced = 0;
    fc.assert(
      fc.property(catalogueArb, dealArb, optionsArb, (catalogue, deal, options) => {
        const index = buildPricingIndex(catalogue);
        const expected = priceDealByRules(catalogue, deal, options);
        priced += expected.length;

        expect(priceDeal(index, deal, options)).toEqual(expected);
        expect(byId(priceDeal(index, deal, { ...options, sorted: false }))).toEqual(
          byId(priceDealByRules(catalogue, deal, { ...options, sorted: false })),
        );

        const market = priceMarket(index, deal, options);
        expect(byId(Array.from({ length: market.count }, (_, k) => market.row(k)))).toEqual(byId(expected));

        for (const bracket of catalogue.brackets) {
          const alone = priceDealByRules(catalogue, deal, { type: options.type, bracketIds: new Set([bracket.id]) });
          expect(priceOneBracket(index, deal, bracket.id, options.type)).toEqual(alone[0] ?? null);
        }
      }),
      PARAMS,
    );
    // The generators must reach the figures, not only the exclusions (this seed prices 161 rows).
    expect(priced).toBeGreaterThan(100);
  });
});
