/**
 * Plain catalogue records the engines read: the spec's field names, numbers already parsed.
 * Services build these from Prisma rows (see catalogue/snapshot.ts); engines never see Prisma.
 */
import type {
  AssetState,
  CardType,
  CompoundingFrequency,
  DocLevel,
  OrganisationType,
  TransactionType,
  TriState,
} from '../../lib/vocabulary.ts';

export interface AssetNode {
  id: number;
  name: string;
  alias: string | null;
  parent_id: number | null;
  is_asset: boolean;
  is_deleted: boolean;
}

export interface Organisation {
  id: number;
  name: string;
  type: OrganisationType;
}

export interface Product {
  id: number;
  product_name: string;
  organisation_id: number | null;
  min_range: number | null;
  max_range: number | null; // term, months
  min_amount: number | null;
  max_amount: number | null; // amount financed, dollars
  min_abn_age: number | null;
  max_abn_age: number | null;
  min_asset_age: number | null;
  max_asset_age: number | null;
  min_gst_age: number | null;
  max_gst_age: number | null;
  min_asset_age_plus_term: number | null;
  max_asset_age_plus_term: number | null;
  min_credit_score: number | null;
  max_credit_score: number | null;
  monthly_fee: number | null;
  documentation_fee: number | null;
  brokerage_cap: number | null; // max brokerage, percent
  maximum_brokerage_limit: number | null; // max brokerage, dollars
  compounding_frequency: CompoundingFrequency | null; // null = monthly
  brokerage_loading_treatment: number | null; // null/0 = funded; L > 0 = rate-loaded
  max_origination_fee_limit: number | null;
  doc_fee_financed: TriState | null;
  private_sale: TriState | null;
  sale_hire_back: TriState | null;
  home_owner: TriState | null;
}

/**
 * What a product says where nothing was said: each tri-state flag `both`, compounding `m` (monthly). Stored and
 * answered so, never null; the engines read a null in an in-memory record the same way.
 */
const PRODUCT_UNSTATED = {
  doc_fee_financed: 'both',
  private_sale: 'both',
  sale_hire_back: 'both',
  home_owner: 'both',
  compounding_frequency: 'm',
} as const satisfies Partial<Record<keyof Product, TriState | CompoundingFrequency>>;

/** `T` with the fields of PRODUCT_UNSTATED no longer null. */
export type ProductAsStored<T> = {
  [K in keyof T]: K extends keyof typeof PRODUCT_UNSTATED ? Exclude<T[K], null> : T[K];
};

/** A product record or patch as stored: a field above given as null is its default; one left out stays out. */
export function productAsStored<T extends object>(record: T): ProductAsStored<T> {
  const out = { ...record } as Record<string, unknown>;
  for (const [field, unstated] of Object.entries(PRODUCT_UNSTATED)) if (out[field] === null) out[field] = unstated;
  return out as ProductAsStored<T>;
}

/** An approval's `asset_state` when the asset's state is not checked: stored and answered as `none`, never null. */
export const ASSET_STATE_UNCHECKED = 'none' satisfies AssetState;

/** One rate card line ("rate bracket"). */
export interface RateBracket {
  id: number;
  name: string;
  organisation_id: number;
  product_id: number;
  type: CardType; // commercial unless stated
  min_term: number | null;
  max_term: number | null; // months
  min_amount: number | null;
  max_amount: number | null; // amount financed
  min_asset_age: number | null;
  max_asset_age: number | null; // months
  base_min: number;
  base_max: number; // annual %, e.g. 8.45
  max_lvr: number | null; // %
}

/** Maps an asset (or category) to a whole product's brackets (rate_bracket_id null) or to one bracket. */
export interface AssetRateBracketRelation {
  id: number;
  asset_id: number;
  organisation_id: number;
  product_id: number | null;
  rate_bracket_id: number | null;
}

export interface Approval {
  id: number;
  name: string;
  doc_level: DocLevel;
  organisation_id: number;
  priority: number;
  min_deposit_percentage: number | null;
  min_deposit_amount: number | null;
  max_term: number | null;
  min_term: number | null;
  min_abn_age: number | null;
  max_abn_age: number | null;
  min_gst_age: number | null;
  max_gst_age: number | null;
  min_asset_age: number | null;
  max_asset_age: number | null;
  min_asset_cost: number | null;
  max_asset_cost: number | null; // GST-inclusive dollars
  min_borrower_age: number | null;
  max_borrower_age: number | null;
  min_file_age: number | null;
  max_file_age: number | null;
  min_credit_score: number | null;
  max_credit_score: number | null;
  home_owner: boolean | null;
  private_sale: boolean | null;
  sale_hire_back: boolean | null;
  asset_state: AssetState | null; // null or 'none' = not checked
  transaction_types: TransactionType[]; // empty = all
  industries: string[]; // empty = all
  asset_ids: number[]; // empty = all; a member covers itself and its descendants
  rate_bracket_ids: number[];
}
