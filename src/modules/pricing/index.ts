/** Public API of the pure pricing engine (pricing-conventions.md; conventions settled in docs/pricing.md). */
export {
  amortisationSchedule,
  compoundingPerYear,
  effectiveAnnualRate,
  formatMoney,
  formatRate,
  instalmentCount,
  instalmentsPerYear,
  pmt,
  ratePerInstalment,
  roundHalfUp,
  roundMoney,
  roundRate,
  solveRate,
} from './finance.ts';
export type { AmortisationRow } from './finance.ts';
export { assetAgeFromYearModel, GST_RATE, normaliseDeal, withGst, withoutGst } from './deal.ts';
export type { DealRequest } from './deal.ts';
export {
  buildPricingIndex,
  compareCheapest,
  priceDeal,
  pricingWorkload,
  productOfBracket,
  reachableBracketCount,
  recalculate,
  sortCheapestFirst,
} from './engine.ts';
export type {
  PriceDealOptions,
  PricingCatalogue,
  PricingIndex,
  RecalculateFailureReason,
  RecalculateInput,
  RecalculateOutcome,
  RecalculateResult,
} from './engine.ts';
