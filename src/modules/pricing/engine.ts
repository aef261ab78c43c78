/**
 * The pricing engine: prices one Deal against every eligible rate bracket of a catalogue snapshot
 * (pricing-conventions Rules 2, 4-9, 11, 13). Re-pricing one edited row is recalculate.ts.
 *
 * Pure: no I/O. The public entry of the pricing engine; its parts:
 * - engine.rules.ts: the rules on plain records, one deal against a catalogue (`priceDealByRules`), the definition;
 * - engine.fast.ts: the index built once per snapshot, and the same rules over typed arrays, which the services run;
 * - one-bracket.fast.ts: the same figures for one named bracket, asked of many changed deals (the structuring engine).
 * Full precision throughout; formatting is the caller's. See docs/pricing.md for every convention settled here.
 */
export {
  buildPricingIndex,
  type PricedMarket,
  type PricingIndex,
  priceDeal,
  priceMarket,
  sortCheapestFirst,
} from './engine.fast.ts';
export {
  amountFinancedCents,
  bracketAdmits,
  priceOneBracket,
  productOfBracket,
  reachableBracketCount,
  repaymentFloor,
  termsAllowed,
} from './one-bracket.fast.ts';
export {
  compareCheapest,
  type PricedBracket,
  type PriceDealOptions,
  type PricingCatalogue,
  priceDealByRules,
} from './engine.rules.ts';
