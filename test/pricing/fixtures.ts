/**
 * Test and benchmark fixtures for the pricing engine: record builders with neutral defaults (nothing bounded,
 * nothing charged) and a seeded synthetic catalogue of realistic shape.
 */
import type { AssetNode, AssetRateBracketRelation, Product, RateBracket } from '../../src/modules/catalogue/model.ts';
import type { CompoundingFrequency } from '../../src/lib/vocabulary.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import type { PricingCatalogue } from '../../src/modules/pricing/engine.ts';
import { UNANSWERED } from '../support/deal.ts';
import { seededRandom } from '../../testkit/random.ts';

export function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    id: 1,
    product_name: 'Chattel mortgage',
    organisation_id: 10,
    min_range: null,
    max_range: null,
    min_amount: null,
    max_amount: null,
    min_abn_age: null,
    max_abn_age: null,
    min_asset_age: null,
    max_asset_age: null,
    min_gst_age: null,
    max_gst_age: null,
    min_asset_age_plus_term: null,
    max_asset_age_plus_term: null,
    min_credit_score: null,
    max_credit_score: null,
    monthly_fee: null,
    documentation_fee: null,
    brokerage_cap: null,
    maximum_brokerage_limit: null,
    compounding_frequency: null,
    brokerage_loading_treatment: null,
    max_origination_fee_limit: null,
    doc_fee_financed: null,
    private_sale: null,
    sale_hire_back: null,
    home_owner: null,
    ...overrides,
  };
}

export function makeBracket(overrides: Partial<RateBracket> = {}): RateBracket {
  return {
    id: 100,
    name: 'Tier A',
    organisation_id: 10,
    product_id: 1,
    type: 'commercial',
    min_term: null,
    max_term: null,
    min_amount: null,
    max_amount: null,
    min_asset_age: null,
    max_asset_age: null,
    base_min: 7.5,
    base_max: 9.5,
    max_lvr: null,
    ...overrides,
  };
}

export function makeAsset(overrides: Partial<AssetNode> = {}): AssetNode {
  return { id: 1000, name: 'Asset', alias: null, parent_id: null, is_asset: true, is_deleted: false, ...overrides };
}

let relationId = 1;
export function makeRelation(
  asset_id: number,
  target: { product_id?: number | null; rate_bracket_id?: number | null; organisation_id?: number },
): AssetRateBracketRelation {
  return {
    id: relationId++,
    asset_id,
    organisation_id: target.organisation_id ?? 10,
    product_id: target.product_id ?? null,
    rate_bracket_id: target.rate_bracket_id ?? null,
  };
}

/** A deal with nothing answered beyond what pricing needs: $60,000 GST-inclusive, 48 months monthly in arrears. */
export function makeDeal(overrides: Partial<Deal> = {}): Deal {
  return {
    type: 'commercial',
    asset_value: 1000,
    term: 48,
    advance_arrears: 'arrears',
    repayment_frequency: 'monthly',
    cost: 60_000,
    cost_gst: true,
    cost_inc: 60_000,
    deposit: 0,
    brokerage_gst: true,
    origination_fee_gst: true,
    ...UNANSWERED,
    ...overrides,
  };
}

/**
 * A seeded catalogue of realistic shape: `financiers` lenders with products (doc fees, monthly fees, caps, some
 * rate-loaded, mixed compounding), `brackets` term x amount x asset-age bands, and a 3-level asset tree
 * (categories > sub-categories > leaves) mapped mostly product-wide at category level, plus single-bracket
 * mappings on leaves. `mapEverythingAtRoot` adds a root that maps every product: the worst case for a deal.
 */
export function syntheticCatalogue(
  options: { brackets?: number; financiers?: number; seed?: number; mapEverythingAtRoot?: boolean } = {},
): PricingCatalogue & { leafIds: number[] } {
  const bracketCount = options.brackets ?? 12_000;
  const financiers = options.financiers ?? 40;
  const random = seededRandom(options.seed ?? 42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

  const products: Product[] = [];
  const productsPerFinancier = Math.max(1, Math.round(bracketCount / financiers / 40));
  for (let f = 0; f < financiers; f++) {
    for (let p = 0; p < productsPerFinancier; p++) {
      const loaded = random() < 0.25;
      products.push(
        makeProduct({
          id: products.length + 1,
          product_name: `Financier ${f + 1} product ${p + 1}`,
          organisation_id: f + 1,
          min_amount: pick([5_000, 10_000, 20_000]),
          max_amount: pick([250_000, 500_000, 1_000_000, null]),
          min_range: 12,
          max_range: pick([60, 72, 84]),
          documentation_fee: pick([0, 295, 395, 495]),
          monthly_fee: pick([0, 4.95, 9.9]),
          doc_fee_financed: pick(['yes', 'both', null] as const),
          brokerage_cap: pick([4, 5, 6, null]),
          maximum_brokerage_limit: pick([null, 10_000]),
          brokerage_loading_treatment: loaded ? pick([0.4, 0.5]) : null,
          compounding_frequency: pick<CompoundingFrequency | null>(['m', 'm', null, 'w']),
          home_owner: pick(['both', 'yes', null] as const),
          min_credit_score: pick([null, 400, 500]),
        }),
      );
    }
  }

  const brackets: RateBracket[] = [];
  for (let k = 0; k < bracketCount; k++) {
    const product = products[k % products.length];
    const termBand = pick([
      [12, 36],
      [37, 60],
      [61, 84],
      [12, 84],
    ]);
    const amountBand = pick([
      [5_000, 49_999.99],
      [50_000, 149_999.99],
      [150_000, 1_000_000],
    ]);
    const base = 5.5 + Math.round(random() * 800) / 100;
    brackets.push(
      makeBracket({
        id: k + 1,
        name: `Bracket ${k + 1}`,
        organisation_id: product.organisation_id ?? 1,
        product_id: product.id,
        min_term: termBand[0],
        max_term: termBand[1],
        min_amount: amountBand[0],
        max_amount: amountBand[1],
        max_asset_age: pick([null, 120, 240]),
        base_min: base,
        base_max: base + pick([0.5, 1, 2]),
        max_lvr: pick([null, 100, 120, 150]),
      }),
    );
  }

  const assets: AssetNode[] = [];
  const relations: AssetRateBracketRelation[] = [];
  const rootId = 1;
  assets.push(makeAsset({ id: rootId, name: 'All assets', is_asset: false }));
  const leafIds: number[] = [];
  let nextId = 2;
  for (let c = 0; c < 10; c++) {
    const categoryId = nextId++;
    assets.push(makeAsset({ id: categoryId, name: `Category ${c}`, parent_id: rootId, is_asset: false }));
    // Each category is financed by a third of the products.
    for (const product of products) {
      if (random() < 0.33) {
        relations.push(
          makeRelation(categoryId, { product_id: product.id, organisation_id: product.organisation_id ?? 1 }),
        );
      }
    }
    for (let s = 0; s < 10; s++) {
      const subId = nextId++;
      assets.push(makeAsset({ id: subId, name: `Sub ${c}.${s}`, parent_id: categoryId, is_asset: false }));
      for (let l = 0; l < 10; l++) {
        const leafId = nextId++;
        assets.push(makeAsset({ id: leafId, name: `Leaf ${c}.${s}.${l}`, parent_id: subId }));
        leafIds.push(leafId);
        const bracket = pick(brackets);
        relations.push(makeRelation(leafId, { rate_bracket_id: bracket.id, organisation_id: bracket.organisation_id }));
      }
    }
  }
  if (options.mapEverythingAtRoot) {
    for (const product of products) {
      relations.push(makeRelation(rootId, { product_id: product.id, organisation_id: product.organisation_id ?? 1 }));
    }
  }
  return { assets, products, brackets, relations, leafIds };
}
