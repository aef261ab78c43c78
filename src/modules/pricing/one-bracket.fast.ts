/**
 * Questions about one bracket of the pricing index, for callers that ask them of many changed deals (the structuring
 * engine) or of one edited row (recalculate.ts): the bracket's product, a floor under its repayment, its amount
 * financed, the terms its product allows, whether it admits a deal at all, and its row alone. Each answers what priceDeal
 * would for that bracket, from the same index and the same rules' arithmetic (engine.fast.ts), without walking every
 * bracket the deal's asset reaches. Pure: no I/O. test/structuring's agreement tests and test/pricing hold them to
 * the rules.
 */
import type { Product } from '../catalogue/index.ts';
import type { CardType } from '../../lib/vocabulary.ts';
import { nextGeneration } from '../../lib/generations.ts';
import type { Deal } from '../deal/index.ts';
import {
  answeredWithin,
  bracketAccepts,
  bracketAdmitsDeal,
  type IndexData,
  NO_SEGMENTS,
  priceBracket,
  pricedRow,
  type PricingIndex,
  productQuote,
  Q_AMOUNT_FINANCED_CENTS,
  QUOTE_FIELDS,
  quoteProduct,
  unwrap,
  within,
} from './engine.fast.ts';
import { blankTerms, dealTerms, dealTermsInto, type PricedBracket, preferredFinanciers } from './engine.rules.ts';
import { compoundingPerYear, instalmentCount, instalmentsPerYear, pmt, ratePerInstalment } from './finance.ts';

/** Number of distinct brackets a deal on this asset would examine (for benchmarks and diagnostics). */
export function reachableBracketCount(index: PricingIndex, assetId: number): number {
  const data = unwrap(index);
  const seen = new Set<number>();
  for (const segment of data.reachable.get(assetId) ?? NO_SEGMENTS) for (const position of segment) seen.add(position);
  return seen.size;
}

/** The product of a bracket in this snapshot, or null. */
export function productOfBracket(index: PricingIndex, rateBracketId: number): Product | null {
  const data = unwrap(index);
  const position = data.bracketPositionById.get(rateBracketId);
  return position === undefined ? null : data.products[data.bracketProduct[position]];
}

/**
 * A floor under the bracket's `repayment_min` on every deal it prices that has `deal`'s term, frequency and timing, a
 * balloon of at most `deal.balloon_amount` and an amount financed (P) of at least `minAmountFinanced` dollars; -Infinity
 * when the bracket is unknown or the deal has no priceable term. A caller that searches many changed deals can skip
 * those whose floor already ranks after the best it has (the structuring engine does).
 *
 * Why it holds (Rules 2, 4, 7, 9): the rate is the bracket's `base_min` plus a rate loading that is never negative,
 * and the rate per instalment rises with it; the instalment `(P - B(1+i)^-n) i / ((1 - (1+i)^-n)(1 + i t))` rises with
 * P and with i and falls as the balloon B rises; the monthly fee per instalment is the product's alone. So the
 * instalment at the least rate, the least P and the greatest balloon, plus the fee, is at most every priced one.
 */
export function repaymentFloor(
  index: PricingIndex,
  rateBracketId: number,
  deal: Deal,
  minAmountFinanced: number,
): number {
  const data = unwrap(index);
  const position = data.bracketPositionById.get(rateBracketId);
  const terms = questionTerms;
  if (position === undefined || !dealTermsInto(deal, terms)) return -Infinity;
  const bracket = data.brackets[position];
  const product = data.products[data.bracketProduct[position]];
  const i = ratePerInstalment(bracket.base_min / 100, compoundingPerYear(product.compounding_frequency), terms.m);
  const instalment = pmt(i, terms.n, Math.max(0, minAmountFinanced), Math.max(0, terms.balloon), terms.advance);
  const floor = Math.max(0, instalment) + (Math.max(0, product.monthly_fee ?? 0) * 12) / terms.m;
  // Below the computed figure by more than its round-off, so a row priced at exactly these figures is never under it.
  return Number.isFinite(floor) ? floor - 1e-9 * Math.abs(floor) - 1e-9 : -Infinity;
}

/**
 * The product's amount financed (P to the cent, Rule 7) for `deal` on the bracket `rateBracketId`, judged by every
 * product bound except its amount bounds: null when the bracket is unknown, the deal has no priceable term, or the
 * product cannot price the deal for another reason. P falls as the deposit rises, so a caller can find the deposits
 * that bring P into a bracket's amount range by bisection on this figure (the structuring engine does).
 */
export function amountFinancedCents(index: PricingIndex, rateBracketId: number, deal: Deal): number | null {
  const data = unwrap(index);
  const position = data.bracketPositionById.get(rateBracketId);
  const terms = questionTerms;
  if (position === undefined || !dealTermsInto(deal, terms)) return null;
  // Its own scratch, not the index's: a caller may still be reading figures a pricing call left there.
  if (!quoteProduct(unlimited(data.products[data.bracketProduct[position]]), deal, terms, amountQuote, 0)) return null;
  return amountQuote[Q_AMOUNT_FINANCED_CENTS];
}

/**
 * The scratch of the questions above: asked thousands of times a structuring answer, so no record per question. Each
 * is filled and read within one call and keeps nothing.
 */
const amountQuote = new Float64Array(QUOTE_FIELDS);
const questionTerms = blankTerms();

/**
 * Which terms the bracket's product allows on `deal` by the bounds that read the term (its term range, the instalment
 * count, and the asset's age at the end when `ageFollowsTerm`: `asset_age_plus_term` = `asset_age + t`, as a deal whose
 * broker did not send it reads): `out[t]` becomes 1 for each, else 2; `out[0]` is left alone. Returns the first such
 * term, 0 when none. The rest of `amountFinancedCents`' answer is the same at every term, so asked once at that first
 * term it decides them all (null: no term prices): one quote per product answers every term.
 */
export function termsAllowed(
  index: PricingIndex,
  rateBracketId: number,
  deal: Deal,
  ageFollowsTerm: boolean,
  out: Int8Array,
): number {
  out.fill(2, 1);
  const data = unwrap(index);
  const position = data.bracketPositionById.get(rateBracketId);
  if (position === undefined) return 0;
  const product = data.products[data.bracketProduct[position]];
  const m = instalmentsPerYear(deal.repayment_frequency);
  const age = deal.asset_age;
  let first = 0;
  for (let t = 1; t < out.length; t++) {
    if (
      instalmentCount(t, m) >= 1 &&
      within(t, product.min_range, product.max_range) &&
      (!ageFollowsTerm ||
        answeredWithin(age === null ? null : age + t, product.min_asset_age_plus_term, product.max_asset_age_plus_term))
    ) {
      out[t] = 1;
      if (first === 0) first = t;
    }
  }
  return first;
}

/** Each product without its amount range, made once: amountFinancedCents asks it many times a deal. */
const unlimitedProducts = new WeakMap<Product, Product>();

function unlimited(product: Product): Product {
  let copy = unlimitedProducts.get(product);
  if (copy === undefined) {
    copy = { ...product, min_amount: null, max_amount: null };
    unlimitedProducts.set(product, copy);
  }
  return copy;
}

/**
 * The row `priceDeal(index, deal, { bracketIds: new Set([rateBracketId]), type })` would return, or null when it
 * would return none: the same checks and figures, without walking every bracket the deal's asset reaches (for a caller
 * that prices a few named brackets on many deals, as the structuring engine does). Uses the index's scratch, as
 * `priceDeal` does.
 */
export function priceOneBracket(
  index: PricingIndex,
  deal: Deal,
  rateBracketId: number,
  type: CardType = deal.type,
): PricedBracket | null {
  const data = unwrap(index);
  const position = reachablePosition(data, deal, rateBracketId, type);
  if (position < 0) return null;
  const bracket = data.brackets[position];
  const terms = dealTerms(deal);
  if (terms === null || !bracketAccepts(bracket, deal, terms)) return null;
  const generation = nextGeneration(data.scratch, data.scratch.bracketSeen, data.scratch.productSeen);
  const productPosition = data.bracketProduct[position];
  if (!productQuote(data, productPosition, deal, terms, generation)) return null;
  const q = productPosition * QUOTE_FIELDS;
  const { quotes, pricedPosition, pricedFigures } = data.scratch;
  if (!within(quotes[q + Q_AMOUNT_FINANCED_CENTS], bracket.min_amount, bracket.max_amount)) return null;
  if (!priceBracket(bracket, quotes, q, terms, pricedFigures, 0)) return null;
  pricedPosition[0] = position;
  return pricedRow(data, position, pricedFigures, 0, terms);
}

/**
 * False when `priceOneBracket` answers null for `deal` whatever its term, deposit and balloon: the bracket is unknown,
 * not of `type`, unreachable from the deal's asset, or its own bounds that read neither the term nor a figure
 * (financier, asset age, LVR) refuse the deal. True says only that those checks pass.
 */
export function bracketAdmits(
  index: PricingIndex,
  deal: Deal,
  rateBracketId: number,
  type: CardType = deal.type,
): boolean {
  const data = unwrap(index);
  const position = reachablePosition(data, deal, rateBracketId, type);
  return position >= 0 && bracketAdmitsDeal(data.brackets[position], deal, preferredFinanciers(deal));
}

/** The bracket's position when it is known, reachable from the deal's asset and of `type`; else -1. */
function reachablePosition(data: IndexData, deal: Deal, rateBracketId: number, type: CardType): number {
  const position = data.bracketPositionById.get(rateBracketId);
  const segments = data.reachable.get(deal.asset_value);
  if (position === undefined || !segments || !inSomeSegment(segments, position)) return -1;
  return (data.brackets[position].type ?? 'commercial') === type ? position : -1;
}

/** True when one of the sorted segments holds `position` (a loop: this is asked thousands of times a deal). */
function inSomeSegment(segments: readonly Int32Array[], position: number): boolean {
  for (let i = 0; i < segments.length; i++) if (holds(segments[i], position)) return true;
  return false;
}

/** True when the sorted segment holds `position`. */
function holds(segment: Int32Array, position: number): boolean {
  let lo = 0;
  let hi = segment.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (segment[mid] < position) lo = mid + 1;
    else hi = mid;
  }
  return lo < segment.length && segment[lo] === position;
}
