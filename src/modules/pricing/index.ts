/**
 * The pricing module's public entry: the rate engine other modules run (through the request's services) and the
 * priced records they read, and the Calculator's run (metered, or as system work).
 */
import type { PricingIndex, priceDeal, priceMarket } from './engine.ts';

export {
  amountFinancedCents,
  bracketAdmits,
  buildPricingIndex,
  compareCheapest,
  priceDeal,
  priceMarket,
  priceOneBracket,
  productOfBracket,
  repaymentFloor,
  termsAllowed,
  type PricedBracket,
  type PricedMarket,
  type PricingIndex,
} from './engine.ts';
export { roundMoney, roundRate, formatMoney, formatRate } from './finance.ts';
export { calculatorRow, type CalculatorRow, type RateCardIdentity } from './rows.ts';

declare module '../../lib/service-context.ts' {
  interface Engines {
    /** The rate engine; `priceMarket` is the Matrix Calculator's join (the same brackets, no rows). */
    priceDeal: typeof priceDeal;
    priceMarket: typeof priceMarket;
  }
}

declare module '../catalogue/snapshot.ts' {
  interface CatalogueIndexes {
    pricingIndex: PricingIndex;
  }
}
export { calculate } from './service.ts';
