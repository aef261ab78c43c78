/**
 * Factories that read like the spec: an approval with every criterion blank (checks nothing), a deal that
 * answers nothing beyond the two required fields, and priced brackets. Tests set only what they are about.
 */
import type { Approval, AssetNode } from '../../src/modules/catalogue/model.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import { type ApprovalOutcome, buildAssetAncestry } from '../../src/modules/matrix/criteria.ts';
import type { PricedBracket } from '../../src/modules/pricing/index.ts';
import { UNANSWERED } from '../support/deal.ts';

/**
 * A small asset tree:
 *   1 Motor vehicles
 *     2 Cars
 *       3 Sedan
 *       4 Hatch
 *     5 Trucks
 *       6 Prime mover
 *   10 Yellow goods
 *     11 Excavator
 */
export const ASSETS = {
  MOTOR_VEHICLES: 1,
  CARS: 2,
  SEDAN: 3,
  HATCH: 4,
  TRUCKS: 5,
  PRIME_MOVER: 6,
  YELLOW_GOODS: 10,
  EXCAVATOR: 11,
} as const;

export function assetNode(id: number, name: string, parent_id: number | null, is_asset = false): AssetNode {
  return { id, name, alias: null, parent_id, is_asset, is_deleted: false };
}

export const ASSET_TREE: AssetNode[] = [
  assetNode(1, 'Motor vehicles', null),
  assetNode(2, 'Cars', 1),
  assetNode(3, 'Sedan', 2, true),
  assetNode(4, 'Hatch', 2, true),
  assetNode(5, 'Trucks', 1),
  assetNode(6, 'Prime mover', 5, true),
  assetNode(10, 'Yellow goods', null),
  assetNode(11, 'Excavator', 10, true),
];

export const ancestry = buildAssetAncestry(ASSET_TREE);

/** An approval that checks nothing: every criterion blank, every list empty. */
export function approval(overrides: Partial<Approval> = {}): Approval {
  return {
    id: 1,
    name: 'Standard',
    doc_level: 'low_doc',
    organisation_id: 100,
    priority: 0,
    min_deposit_percentage: null,
    min_deposit_amount: null,
    max_term: null,
    min_term: null,
    min_abn_age: null,
    max_abn_age: null,
    min_gst_age: null,
    max_gst_age: null,
    min_asset_age: null,
    max_asset_age: null,
    min_asset_cost: null,
    max_asset_cost: null,
    min_borrower_age: null,
    max_borrower_age: null,
    min_file_age: null,
    max_file_age: null,
    min_credit_score: null,
    max_credit_score: null,
    home_owner: null,
    private_sale: null,
    sale_hire_back: null,
    asset_state: null,
    transaction_types: [],
    industries: [],
    asset_ids: [],
    rate_bracket_ids: [],
    ...overrides,
  };
}

/**
 * A deal answering only what the request requires: `cost` (50,000 GST-inclusive) and `asset_value` (a sedan).
 * Every criterion input is null (not answered). `cost_inc` follows `cost` and `cost_gst` unless given.
 */
export function deal(overrides: Partial<Deal> = {}): Deal {
  const cost = overrides.cost ?? 50_000;
  const cost_gst = overrides.cost_gst ?? true;
  return {
    type: 'commercial',
    asset_value: ASSETS.SEDAN,
    term: null,
    advance_arrears: 'arrears',
    repayment_frequency: 'monthly',
    cost,
    cost_gst,
    cost_inc: cost_gst ? cost : cost * 1.1,
    deposit: null,
    brokerage_gst: false,
    origination_fee_gst: false,
    ...UNANSWERED,
    ...overrides,
  };
}

/** A priced bracket; figures are placeholders unless the test sets them. */
export function pricedBracket(overrides: Partial<PricedBracket> = {}): PricedBracket {
  return {
    rate_bracket_id: 1,
    rate_bracket_name: 'Tier A',
    organisation_id: 100,
    product_id: 1,
    product_name: 'Equipment loan',
    base_min: 8,
    base_max: 9,
    rate_min: 8,
    rate_max: 9,
    e_min: 8,
    e_max: 9,
    repayment_min: 1000,
    repayment_max: 1050,
    balloon: 0,
    commission: 0,
    amount_financed: 50_000,
    instalments: 60,
    instalments_per_year: 12,
    compounding_per_year: 12,
    advance: false,
    monthly_fee_per_instalment: 0,
    ...overrides,
  };
}

/** An outcome as the criteria engine would return it (confirmed, nothing missing, unless overridden). */
export function outcome(a: Approval, overrides: Partial<ApprovalOutcome> = {}): ApprovalOutcome {
  return {
    approval: a,
    status: 'confirmed',
    missing_fields: [],
    deposit_percentage: a.min_deposit_percentage,
    deposit_amount: a.min_deposit_amount,
    deposit_required: null,
    ...overrides,
  };
}
