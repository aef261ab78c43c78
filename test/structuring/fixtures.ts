/**
 * A small structuring world: one asset, one financier, its products and brackets, and approvals linked to them.
 * Tests set only what they are about; everything else is unbounded and free.
 */
import type { Approval, Product, RateBracket } from '../../src/modules/catalogue/model.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import { buildAssetAncestry } from '../../src/modules/matrix/criteria.ts';
import { buildPricingIndex } from '../../src/modules/pricing/engine.ts';
import {
  resolveBounds,
  structureDeal,
  type GivenBounds,
  type RankBy,
  type StructuringCatalogue,
  type StructuringInput,
} from '../../src/modules/structuring/engine.ts';
import { approval } from '../matrix/fixtures.ts';
import { makeAsset, makeBracket, makeDeal, makeProduct, makeRelation } from '../pricing/fixtures.ts';

const ASSET = 1000;
export const ORG = 10;

export { approval, makeBracket, makeProduct };

export interface World {
  products: Product[];
  brackets: RateBracket[];
  approvals: Approval[];
}

export function catalogueOf(world: World): StructuringCatalogue {
  const assets = [makeAsset({ id: ASSET })];
  const relations = world.products.map((p) =>
    makeRelation(ASSET, { product_id: p.id, organisation_id: p.organisation_id ?? ORG }),
  );
  return {
    approvals: world.approvals,
    ancestry: buildAssetAncestry(assets),
    pricingIndex: buildPricingIndex({ assets, products: world.products, brackets: world.brackets, relations }),
    bracketsById: new Map(world.brackets.map((b) => [b.id, b])),
  };
}

/** A $1,000 (GST-inclusive) deal over 12 months, no deposit, in arrears, monthly. */
export function smallDeal(overrides: Partial<Deal> = {}): Deal {
  return makeDeal({
    asset_value: ASSET,
    cost: 1000,
    cost_inc: 1000,
    cost_gst: true,
    term: 12,
    deposit: 0,
    ...overrides,
  });
}

export function inputOf(deal: Deal, bounds: GivenBounds = {}, rank_by: RankBy = 'repayment'): StructuringInput {
  return {
    deal,
    deposit_base: deal.cost_gst ? deal.cost_inc : deal.cost,
    asset_age_plus_term_sent: false,
    bounds: resolveBounds(deal, bounds),
    rank_by,
  };
}

export function structure(world: World, deal: Deal, bounds: GivenBounds = {}, rank_by: RankBy = 'repayment') {
  return structureDeal(inputOf(deal, bounds, rank_by), catalogueOf(world));
}

/** One financier, one product, one bracket at 10% linked to one approval (both with the given overrides). */
export function oneCard(a: Partial<Approval> = {}, b: Partial<RateBracket> = {}, p: Partial<Product> = {}): World {
  return {
    products: [makeProduct({ id: 1, organisation_id: ORG, ...p })],
    brackets: [makeBracket({ id: 100, product_id: 1, organisation_id: ORG, base_min: 10, base_max: 12, ...b })],
    approvals: [approval({ id: 1, organisation_id: ORG, rate_bracket_ids: [100], ...a })],
  };
}
