/**
 * A financier's rate card as a version stores it, an import file describes it and a diff compares it. Plain records
 * with the spec's field names (the engines' own records, catalogue/model.ts), each list ordered by id. No I/O.
 */
import type { AssetRateBracketRelation, Product, RateBracket } from '../catalogue/index.ts';

/** Resource `rate_card`: the financier's products and the rate brackets beneath them. */
export interface RateCard {
  products: Product[];
  rate_brackets: RateBracket[];
}

/** Resource `asset_mapping`: which assets the financier's products and brackets price. */
export interface AssetMappingCard {
  asset_rate_brackets: AssetRateBracketRelation[];
}
