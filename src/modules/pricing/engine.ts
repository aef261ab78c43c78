/**
 * The pricing engine: prices one Deal against every eligible rate bracket of a catalogue snapshot
 * (pricing-conventions Rules 2, 4-9, 11, 13). Re-pricing one edited row is recalculate.ts.
 *
 * Pure: no I/O. The public entry of the pricing engine; its parts:
 * - engine.rules.ts: the rules on plain records, one deal against a catalogue (`priceDealByRules`), the definition;
 * - engine.fast.ts: the index built once per snapshot, and the same rules over typed arrays, which the services run.
 * Full precision throughout; formatting is the caller's. See docs/pricing.md for every convention settled here.
 */
export {
  amountFinancedCents,
  amountFinancedTerms,
  bracketAdmits,
  buildPricingIndex,
  type PricedMarket,
  type PricingIndex,
  priceDeal,
  priceMarket,
  priceOneBracket,
  productOfBracket,
  reachableBracketCount,
  repaymentFloor,
  sortCheapestFirst,
} from './engine.fast.ts';
export {
  compareCheapest,
  type PricedBracket,
  type PriceDealOptions,
  type PricingCatalogue,
  priceDealByRules,
} from './engine.rules.ts';
