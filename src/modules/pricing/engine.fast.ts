/**
 * The pricing engine's fast version: the rules of engine.rules.ts over an index built once per catalogue snapshot.
 *
 * Pure: no I/O. `buildPricingIndex` does all catalogue work once per snapshot (mappedBrackets' reach, as segments of
 * bracket positions per asset); `priceDeal` then touches only the brackets reachable from the deal's asset,
 * evaluates each product's deal-dependent figures once per call, and allocates nothing per bracket except the result
 * row (`priceMarket`, the Matrix Calculator's call, not even that). Figures live in typed arrays at the Q_* and F_*
 * offsets below rather than in records: a call prices about a thousand brackets, and per-bracket objects are garbage
 * the Matrix Calculator's p99 pays for in GC pauses. Which rule each block implements:
 * - the index: `mappedBrackets` (which brackets a deal's asset reaches);
 * - `price`, the loop: card type and option filters, then Rule 11 (`bracketAccepts`, the product's bounds in
 *   `quoteProduct`, the bracket's amount bounds on P to the cent);
 * - `quoteProduct`: Rules 5-7 and 9, rules' `quoteProduct` written to `quotes` at Q_* offsets;
 * - `priceBracket`: Rules 2, 4 and 8, rules' `priceBracket` written to `out` at F_* offsets;
 * - `sortCheapestFirst`: Rule 13 (`compareCheapest`) with its keys rounded once per row.
 * The arithmetic and the Rule 11 predicates are the rules' own, line for line, specialised to the typed arrays and
 * kept in this file with its constants: the loop calls nothing per bracket that allocates or lives in another module.
 * That is why it is one file past the usual size. The questions about one named bracket that other engines ask of the
 * same index are in one-bracket.fast.ts, which reads this file's offsets and predicates.
 * test/pricing/engine.agreement.test.ts holds this file equal to `priceDealByRules` on random catalogues and deals.
 * The public entry is engine.ts.
 */
import type { AssetNode, Product, RateBracket } from '../catalogue/index.ts';
import type { TriState } from '../../lib/vocabulary.ts';
import { nextGeneration } from '../../lib/generations.ts';
import { type Deal, withGst } from '../deal/index.ts';
import {
  type DealTerms,
  dealTerms,
  type PricedBracket,
  type PriceDealOptions,
  type PricingCatalogue,
} from './engine.rules.ts';
import { compoundingPerYear, effectiveAnnualRate, pmt, ratePerInstalment, roundMoney, roundRate } from './finance.ts';

// ---------------------------------------------------------------------------------------------------------------
// Index
// ---------------------------------------------------------------------------------------------------------------

declare const pricingIndexBrand: unique symbol;
/** Opaque index of one catalogue snapshot: build once per snapshot, price many deals. */
export interface PricingIndex {
  readonly [pricingIndexBrand]: true;
}

export interface IndexData {
  /** Priceable brackets (their product exists), addressed by position. */
  brackets: RateBracket[];
  /** Position in `products` of each bracket's product. */
  bracketProduct: Int32Array;
  /**
   * Each bracket's id and organisation id, by position: what the Matrix Calculator join reads of every priced bracket
   * (`Market`), read from columns rather than from each bracket's object (a cache miss apiece).
   */
  bracketId: Float64Array;
  bracketOrganisation: Float64Array;
  products: Product[];
  productPositionById: Map<number, number>;
  bracketPositionById: Map<number, number>;
  /**
   * Per live asset id: the bracket positions mapped to the asset and to each ancestor category, one segment per
   * mapped node, nearest first. Segments are shared between assets (a child with no mapping of its own reuses its
   * parent's list), so memory is O(relations + assets x depth), not O(assets x brackets).
   */
  reachable: Map<number, readonly Int32Array[]>;
  /**
   * Scratch, reused by every call (pricing is synchronous, so never shared by two calls at once). Figures live in
   * typed arrays rather than objects: a call prices about a thousand brackets, and per-bracket objects are garbage
   * the Matrix Calculator's p99 pays for in GC pauses.
   */
  scratch: {
    generation: number;
    /** bracket position -> generation that last visited it (de-duplicates brackets mapped twice in a chain). */
    bracketSeen: Uint32Array;
    /** product position -> generation whose quote is cached in `quotes`. */
    productSeen: Uint32Array;
    /** product position -> 1 when its cached quote can price the deal. */
    productPrices: Uint8Array;
    /** QUOTE_FIELDS figures per product position (see `quoteProduct`). */
    quotes: Float64Array;
    /** The last call's priced brackets, in catalogue order: bracket positions ... */
    pricedPosition: Int32Array;
    /** ... and their BRACKET_FIGURES figures (see `priceBracket`). */
    pricedFigures: Float64Array;
  };
}

/** A product quote's figures in `scratch.quotes`, at product position x QUOTE_FIELDS. */
const Q_C = 0;
const Q_AMOUNT_FINANCED = 1;
/** P to the cent, as amount bounds are compared. */
export const Q_AMOUNT_FINANCED_CENTS = 2;
/** Brokerage paid, after caps and GST. */
const Q_COMMISSION = 3;
/** Percentage points added to the card's base rate (rate-loaded brokerage), else 0. */
const Q_RATE_LOADING = 4;
const Q_MONTHLY_FEE_PER_INSTALMENT = 5;
export const QUOTE_FIELDS = 6;

/** A priced bracket's own figures in `scratch.pricedFigures`, at its index in the call x BRACKET_FIGURES. */
const F_RATE_MIN = 0;
const F_RATE_MAX = 1;
const F_E_MIN = 2;
const F_E_MAX = 3;
const F_REPAYMENT_MIN = 4;
const F_REPAYMENT_MAX = 5;
const BRACKET_FIGURES = 6;

export const NO_SEGMENTS: readonly Int32Array[] = Object.freeze([]);

/**
 * Precomputes, once per catalogue snapshot, everything pricing needs: products and priceable brackets by position,
 * and for every live asset the brackets `mappedBrackets` (engine.rules.ts) says it reaches, as one sorted segment of
 * positions per mapped node, nearest first. Asset trees are acyclic (the catalogue refuses a cycle); should one
 * appear anyway, the walk up ends where it closes, and the chains are memoised in the order assets are listed.
 */
export function buildPricingIndex(catalogue: PricingCatalogue): PricingIndex {
  const products: Product[] = [];
  const productPositionById = new Map<number, number>();
  for (const product of catalogue.products ?? []) {
    if (productPositionById.has(product.id)) continue; // first record of an id wins
    productPositionById.set(product.id, products.length);
    products.push(product);
  }

  const brackets: RateBracket[] = [];
  const bracketProductList: number[] = [];
  const bracketPositionById = new Map<number, number>();
  /** product id -> bracket positions, for product-wide relations. */
  const bracketsOfProduct = new Map<number, number[]>();
  for (const bracket of catalogue.brackets ?? []) {
    const productPosition = productPositionById.get(bracket.product_id);
    if (productPosition === undefined || bracketPositionById.has(bracket.id)) continue;
    const position = brackets.length;
    bracketPositionById.set(bracket.id, position);
    brackets.push(bracket);
    bracketProductList.push(productPosition);
    const list = bracketsOfProduct.get(bracket.product_id);
    if (list) list.push(position);
    else bracketsOfProduct.set(bracket.product_id, [position]);
  }

  // Direct mappings per asset id (sets: the same bracket may be mapped twice, directly and via its product).
  const direct = new Map<number, Set<number>>();
  const mapTo = (assetId: number, position: number) => {
    const set = direct.get(assetId);
    if (set) set.add(position);
    else direct.set(assetId, new Set([position]));
  };
  for (const relation of catalogue.relations ?? []) {
    if (relation.rate_bracket_id !== null && relation.rate_bracket_id !== undefined) {
      const position = bracketPositionById.get(relation.rate_bracket_id);
      if (position !== undefined && brackets[position].organisation_id === relation.organisation_id) {
        mapTo(relation.asset_id, position);
      }
    } else if (relation.product_id !== null && relation.product_id !== undefined) {
      for (const position of bracketsOfProduct.get(relation.product_id) ?? []) {
        if (brackets[position].organisation_id === relation.organisation_id) mapTo(relation.asset_id, position);
      }
    }
  }
  const ownSegment = new Map<number, Int32Array>();
  for (const [assetId, set] of direct) ownSegment.set(assetId, Int32Array.from([...set].sort((a, b) => a - b)));

  const assets = new Map<number, AssetNode>();
  for (const asset of catalogue.assets ?? []) if (!assets.has(asset.id)) assets.set(asset.id, asset);

  // Chain segments per asset, memoised so the whole tree is walked once: O(assets x depth).
  const chain = new Map<number, readonly Int32Array[]>();
  const chainOf = (start: number): readonly Int32Array[] => {
    const path: AssetNode[] = [];
    const onPath = new Set<number>();
    let above: readonly Int32Array[] = NO_SEGMENTS;
    for (let id: number | null = start; id !== null && id !== undefined; ) {
      const known = chain.get(id);
      if (known) {
        above = known;
        break;
      }
      const node = assets.get(id);
      if (!node || onPath.has(id)) break; // unknown parent or a cycle: the chain ends here
      path.push(node);
      onPath.add(id);
      id = node.parent_id;
    }
    for (let k = path.length - 1; k >= 0; k--) {
      const node = path[k];
      const own = node.is_deleted ? undefined : ownSegment.get(node.id);
      above = own ? [own, ...above] : above;
      chain.set(node.id, above);
    }
    return chain.get(start) ?? NO_SEGMENTS;
  };
  const reachable = new Map<number, readonly Int32Array[]>();
  for (const asset of assets.values()) {
    const segments = chainOf(asset.id);
    if (!asset.is_deleted && segments.length > 0) reachable.set(asset.id, segments);
  }

  const data: IndexData = {
    brackets,
    bracketProduct: Int32Array.from(bracketProductList),
    bracketId: Float64Array.from(brackets, (b) => b.id),
    bracketOrganisation: Float64Array.from(brackets, (b) => b.organisation_id),
    products,
    productPositionById,
    bracketPositionById,
    reachable,
    scratch: {
      generation: 0,
      bracketSeen: new Uint32Array(brackets.length),
      productSeen: new Uint32Array(products.length),
      productPrices: new Uint8Array(products.length),
      quotes: new Float64Array(products.length * QUOTE_FIELDS),
      pricedPosition: new Int32Array(brackets.length),
      pricedFigures: new Float64Array(brackets.length * BRACKET_FIGURES),
    },
  };
  return data as unknown as PricingIndex;
}

export function unwrap(index: PricingIndex): IndexData {
  return index as unknown as IndexData;
}

// ---------------------------------------------------------------------------------------------------------------
// Pricing one deal
// ---------------------------------------------------------------------------------------------------------------

/**
 * Prices `deal` against every eligible bracket (Rule 11) and returns the rows cheapest first (Rule 13).
 * A deal without a term, with an unknown or deleted asset, or whose figures are not finite prices nothing.
 */
export function priceDeal(index: PricingIndex, deal: Deal, options: PriceDealOptions = {}): PricedBracket[] {
  const rows: PricedBracket[] = [];
  price(unwrap(index), deal, options, rows);
  return options.sorted === false ? rows : sortCheapestFirst(rows);
}

/**
 * The brackets one call priced, in catalogue order, without a row object each: what the Matrix Calculator join
 * needs to pick each approval's cheapest (the ids, financiers and Rule 13 keys), plus `row(k)` to build the full
 * row of the few it shows, from figures already worked out (nothing is priced twice).
 *
 * Valid until the next pricing call on the same index (the figures live in the index's scratch): read it at once.
 * A stale read throws rather than answering another deal's figures.
 */
export interface PricedMarket {
  /** Brackets that priced. */
  readonly count: number;
  rateBracketId(k: number): number;
  organisationId(k: number): number;
  /** Full precision, as `PricedBracket.e_min`. */
  eMin(k: number): number;
  /** Full precision, as `PricedBracket.repayment_min`. */
  repaymentMin(k: number): number;
  /** The k-th priced bracket's row, equal to the one `priceDeal` returns for it (a new object per call). */
  row(k: number): PricedBracket;
}

/** `priceDeal` without the rows: the same brackets, in catalogue order (`options.sorted` does not apply). */
export function priceMarket(index: PricingIndex, deal: Deal, options: PriceDealOptions = {}): PricedMarket {
  const data = unwrap(index);
  const { generation, count, terms } = price(data, deal, options, null);
  return new Market(data, generation, count, terms);
}

/**
 * The one pricing loop: each priced bracket's figures go to the scratch (`pricedPosition`, `pricedFigures`), in
 * catalogue order, and, when `rows` is given, its row is built at once (priceDeal: no second pass over the scratch).
 */
function price(
  data: IndexData,
  deal: Deal,
  options: PriceDealOptions,
  rows: PricedBracket[] | null,
): { generation: number; count: number; terms: DealTerms | null } {
  // A new generation even when nothing prices, so a market from an earlier call always reads as stale.
  const generation = nextGeneration(data.scratch, data.scratch.bracketSeen, data.scratch.productSeen);
  const segments = data.reachable.get(deal.asset_value);
  const terms = segments ? dealTerms(deal) : null;
  if (!segments || !terms) return { generation, count: 0, terms: null };
  const { bracketSeen, quotes, pricedPosition, pricedFigures } = data.scratch;
  const type = options.type ?? deal.type;
  const organisationIds = options.organisationIds ?? null;
  const bracketIds = options.bracketIds ?? null;

  let count = 0;
  for (const segment of segments) {
    for (let k = 0; k < segment.length; k++) {
      const position = segment[k];
      if (bracketSeen[position] === generation) continue;
      bracketSeen[position] = generation;
      const bracket = data.brackets[position];
      if ((bracket.type ?? 'commercial') !== type) continue;
      if (organisationIds !== null && !organisationIds.has(bracket.organisation_id)) continue;
      if (bracketIds !== null && !bracketIds.has(bracket.id)) continue;
      if (!bracketAccepts(bracket, deal, terms)) continue;
      const productPosition = data.bracketProduct[position];
      if (!productQuote(data, productPosition, deal, terms, generation)) continue;
      const q = productPosition * QUOTE_FIELDS;
      if (!within(quotes[q + Q_AMOUNT_FINANCED_CENTS], bracket.min_amount, bracket.max_amount)) continue;
      const at = count * BRACKET_FIGURES;
      if (!priceBracket(bracket, quotes, q, terms, pricedFigures, at)) continue;
      pricedPosition[count] = position;
      count++;
      if (rows !== null) rows.push(pricedRow(data, position, pricedFigures, at, terms));
    }
  }
  return { generation, count, terms };
}

/** The row of the bracket at `position`, its figures at `figures[at]` and its product's quote in the scratch. */
export function pricedRow(
  data: IndexData,
  position: number,
  figures: Float64Array,
  at: number,
  terms: DealTerms,
): PricedBracket {
  return new PricedRow(data, position, figures, at, terms);
}

/**
 * A priced bracket. Built by `new`, as every per-item engine object is, so it stays young (docs/architecture.md,
 * "The catalogue snapshot").
 */
class PricedRow implements PricedBracket {
  declare rate_bracket_id: number;
  declare rate_bracket_name: string;
  declare organisation_id: number;
  declare product_id: number;
  declare product_name: string;
  declare base_min: number;
  declare base_max: number;
  declare rate_min: number;
  declare rate_max: number;
  declare e_min: number;
  declare e_max: number;
  declare repayment_min: number;
  declare repayment_max: number;
  declare balloon: number;
  declare commission: number;
  declare amount_financed: number;
  declare instalments: number;
  declare instalments_per_year: number;
  declare compounding_per_year: number;
  declare advance: boolean;
  declare monthly_fee_per_instalment: number;

  constructor(data: IndexData, position: number, figures: Float64Array, at: number, terms: DealTerms) {
    const bracket = data.brackets[position];
    const productPosition = data.bracketProduct[position];
    const product = data.products[productPosition];
    const quotes = data.scratch.quotes;
    const q = productPosition * QUOTE_FIELDS;
    this.rate_bracket_id = bracket.id;
    this.rate_bracket_name = bracket.name;
    this.organisation_id = bracket.organisation_id;
    this.product_id = product.id;
    this.product_name = product.product_name;
    this.base_min = bracket.base_min;
    this.base_max = bracket.base_max;
    this.rate_min = figures[at + F_RATE_MIN];
    this.rate_max = figures[at + F_RATE_MAX];
    this.e_min = figures[at + F_E_MIN];
    this.e_max = figures[at + F_E_MAX];
    this.repayment_min = figures[at + F_REPAYMENT_MIN];
    this.repayment_max = figures[at + F_REPAYMENT_MAX];
    this.balloon = terms.balloon;
    this.commission = quotes[q + Q_COMMISSION];
    this.amount_financed = quotes[q + Q_AMOUNT_FINANCED];
    this.instalments = terms.n;
    this.instalments_per_year = terms.m;
    this.compounding_per_year = quotes[q + Q_C];
    this.advance = terms.advance;
    this.monthly_fee_per_instalment = quotes[q + Q_MONTHLY_FEE_PER_INSTALMENT];
  }
}

class Market implements PricedMarket {
  constructor(
    private readonly data: IndexData,
    private readonly generation: number,
    readonly count: number,
    private readonly terms: DealTerms | null,
  ) {}

  /** The scratch, as long as no later call has written over it. */
  private scratch(): IndexData['scratch'] {
    const scratch = this.data.scratch;
    if (scratch.generation !== this.generation) throw new Error('priced market read after a later pricing call');
    return scratch;
  }

  rateBracketId(k: number): number {
    return this.data.bracketId[this.scratch().pricedPosition[k]];
  }

  organisationId(k: number): number {
    return this.data.bracketOrganisation[this.scratch().pricedPosition[k]];
  }

  eMin(k: number): number {
    return this.scratch().pricedFigures[k * BRACKET_FIGURES + F_E_MIN];
  }

  repaymentMin(k: number): number {
    return this.scratch().pricedFigures[k * BRACKET_FIGURES + F_REPAYMENT_MIN];
  }

  row(k: number): PricedBracket {
    const scratch = this.scratch();
    if (!(k >= 0 && k < this.count) || this.terms === null) throw new RangeError(`no priced bracket ${k}`);
    return pricedRow(this.data, scratch.pricedPosition[k], scratch.pricedFigures, k * BRACKET_FIGURES, this.terms);
  }
}

/** Rule 11, the bracket's own bounds (amount financed is checked once the product's P is known). */
export function bracketAccepts(bracket: RateBracket, deal: Deal, terms: DealTerms): boolean {
  return within(terms.term, bracket.min_term, bracket.max_term) && bracketAdmitsDeal(bracket, deal, terms.preferred);
}

/** Rule 11, the bracket's own bounds that read neither the term nor a figure: the financier, the asset's age, LVR. */
export function bracketAdmitsDeal(bracket: RateBracket, deal: Deal, preferred: readonly number[] | null): boolean {
  return (
    (preferred === null || preferred.includes(bracket.organisation_id)) &&
    answeredWithin(deal.asset_age, bracket.min_asset_age, bracket.max_asset_age) &&
    (deal.lvr === null || bracket.max_lvr === null || bracket.max_lvr === undefined || deal.lvr <= bracket.max_lvr)
  );
}

/** True when the product can price this deal; its figures are then in `scratch.quotes` (cached per call). */
export function productQuote(
  data: IndexData,
  productPosition: number,
  deal: Deal,
  terms: DealTerms,
  generation: number,
): boolean {
  const scratch = data.scratch;
  if (scratch.productSeen[productPosition] === generation) return scratch.productPrices[productPosition] === 1;
  const prices = quoteProduct(
    data.products[productPosition],
    deal,
    terms,
    scratch.quotes,
    productPosition * QUOTE_FIELDS,
  );
  scratch.productSeen[productPosition] = generation;
  scratch.productPrices[productPosition] = prices ? 1 : 0;
  return prices;
}

/**
 * Rule 11 (the product's bounds), then Rules 5-7 and 9 for one product, as rules' `quoteProduct`: false when the product
 * cannot price this deal; otherwise its figures are written to `quotes` at `q` (Q_* offsets).
 */
export function quoteProduct(product: Product, deal: Deal, terms: DealTerms, quotes: Float64Array, q: number): boolean {
  if (
    !within(terms.term, product.min_range, product.max_range) ||
    !answeredWithin(deal.abn_age, product.min_abn_age, product.max_abn_age) ||
    !answeredWithin(deal.gst_age, product.min_gst_age, product.max_gst_age) ||
    !answeredWithin(deal.asset_age, product.min_asset_age, product.max_asset_age) ||
    !answeredWithin(deal.credit_score, product.min_credit_score, product.max_credit_score) ||
    !answeredWithin(deal.asset_age_plus_term, product.min_asset_age_plus_term, product.max_asset_age_plus_term) ||
    !triStateAccepts(product.home_owner, deal.home_owner) ||
    !triStateAccepts(product.private_sale, deal.private_sale) ||
    !triStateAccepts(product.sale_hire_back, deal.sale_hire_back)
  ) {
    return false;
  }
  const limit = product.max_origination_fee_limit;
  if (limit !== null && limit !== undefined && terms.originationFee > limit) return false;

  const documentationFee = Math.max(0, product.documentation_fee ?? 0);
  let docFeeFinanced: boolean;
  if (deal.doc_fee_financed === 'no') docFeeFinanced = false;
  else if (deal.doc_fee_financed === 'yes') {
    if (product.doc_fee_financed === 'no' && documentationFee > 0) return false;
    docFeeFinanced = true;
  } else docFeeFinanced = product.doc_fee_financed !== 'no';

  const beforeBrokerage = terms.amountAdvanced + terms.originationFee + (docFeeFinanced ? documentationFee : 0);
  if (!(beforeBrokerage > 0) || !Number.isFinite(beforeBrokerage)) return false;

  let brokerageExGst = terms.brokeragePercentage
    ? (beforeBrokerage * terms.brokerageExGst) / 100
    : terms.brokerageExGst;
  let commission = terms.brokeragePercentage ? (beforeBrokerage * terms.brokerageIncGst) / 100 : terms.brokerageIncGst;
  let cap = Infinity;
  if (product.brokerage_cap !== null && product.brokerage_cap !== undefined) {
    cap = Math.min(cap, (beforeBrokerage * product.brokerage_cap) / 100);
  }
  if (product.maximum_brokerage_limit !== null && product.maximum_brokerage_limit !== undefined) {
    cap = Math.min(cap, product.maximum_brokerage_limit);
  }
  if (brokerageExGst > cap) {
    brokerageExGst = Math.max(0, cap);
    commission = withGst(brokerageExGst);
  }

  const loading = product.brokerage_loading_treatment;
  const rateLoaded = loading !== null && loading !== undefined && loading > 0;
  const amountFinanced = rateLoaded ? beforeBrokerage : beforeBrokerage + commission;
  const amountFinancedCents = roundMoney(amountFinanced);
  if (!within(amountFinancedCents, product.min_amount, product.max_amount)) return false;

  quotes[q + Q_C] = compoundingPerYear(product.compounding_frequency);
  quotes[q + Q_AMOUNT_FINANCED] = amountFinanced;
  quotes[q + Q_AMOUNT_FINANCED_CENTS] = amountFinancedCents;
  quotes[q + Q_COMMISSION] = commission;
  quotes[q + Q_RATE_LOADING] = rateLoaded ? loading * ((brokerageExGst / beforeBrokerage) * 100) : 0;
  // Rule 9: a monthly fee, spread over the instalments of a year; not financed, not in e.
  quotes[q + Q_MONTHLY_FEE_PER_INSTALMENT] = (Math.max(0, product.monthly_fee ?? 0) * 12) / terms.m;
  return true;
}
/**
 * Rules 2, 4, 8, 9 for one bracket, as rules' `priceBracket`, on its product's quote at `quotes[q]`: false when the
 * bracket cannot be priced; otherwise its figures are written to `out` at `at` (F_* offsets).
 */
export function priceBracket(
  bracket: RateBracket,
  quotes: Float64Array,
  q: number,
  terms: DealTerms,
  out: Float64Array,
  at: number,
): boolean {
  const c = quotes[q + Q_C];
  const amountFinanced = quotes[q + Q_AMOUNT_FINANCED];
  const rateLoading = quotes[q + Q_RATE_LOADING];
  const monthlyFeePerInstalment = quotes[q + Q_MONTHLY_FEE_PER_INSTALMENT];
  const rateMin = bracket.base_min + rateLoading;
  const rateMax = bracket.base_max + rateLoading;
  const iMin = ratePerInstalment(rateMin / 100, c, terms.m);
  const iMax = ratePerInstalment(rateMax / 100, c, terms.m);
  const instalmentMin = pmt(iMin, terms.n, amountFinanced, terms.balloon, terms.advance);
  const instalmentMax = pmt(iMax, terms.n, amountFinanced, terms.balloon, terms.advance);
  const eMin = effectiveRate(instalmentMin, iMin, amountFinanced, terms);
  const eMax = effectiveRate(instalmentMax, iMax, amountFinanced, terms);
  const repaymentMin = instalmentMin + monthlyFeePerInstalment;
  const repaymentMax = instalmentMax + monthlyFeePerInstalment;
  if (
    // A negative instalment (a balloon worth more than the amount financed grows to) is not a loan to show.
    !(instalmentMin >= 0) ||
    !(instalmentMax >= 0) ||
    !Number.isFinite(repaymentMin) ||
    !Number.isFinite(repaymentMax) ||
    !Number.isFinite(eMin) ||
    !Number.isFinite(eMax)
  ) {
    return false;
  }
  out[at + F_RATE_MIN] = rateMin;
  out[at + F_RATE_MAX] = rateMax;
  out[at + F_E_MIN] = eMin;
  out[at + F_E_MAX] = eMax;
  out[at + F_REPAYMENT_MIN] = repaymentMin;
  out[at + F_REPAYMENT_MAX] = repaymentMax;
  return true;
}

/** Rule 8, as rules' `effectiveRate`. */
function effectiveRate(instalment: number, i: number, amountFinanced: number, terms: DealTerms): number {
  if (amountFinanced === terms.amountAdvanced) return terms.m * i * 100;
  return effectiveAnnualRate(terms.n, instalment, terms.amountAdvanced, terms.balloon, terms.advance, terms.m, i);
}

// ---------------------------------------------------------------------------------------------------------------
// Rule 13 Cheapest
// ---------------------------------------------------------------------------------------------------------------

/** Sorts with keys rounded once per row (not per comparison). Returns a new array. */
export function sortCheapestFirst(rows: readonly PricedBracket[]): PricedBracket[] {
  const count = rows.length;
  const e = new Float64Array(count);
  const repayment = new Float64Array(count);
  const order = new Array<number>(count);
  for (let k = 0; k < count; k++) {
    e[k] = roundRate(rows[k].e_min);
    repayment[k] = roundMoney(rows[k].repayment_min);
    order[k] = k;
  }
  order.sort((a, b) => e[a] - e[b] || repayment[a] - repayment[b] || rows[a].rate_bracket_id - rows[b].rate_bracket_id);
  return order.map((k) => rows[k]);
}

// ---------------------------------------------------------------------------------------------------------------
// Rule 11 helpers
// ---------------------------------------------------------------------------------------------------------------

/** Inclusive bounds; a null bound is not checked. */
export function within(x: number, min: number | null | undefined, max: number | null | undefined): boolean {
  return (min === null || min === undefined || x >= min) && (max === null || max === undefined || x <= max);
}

/** An unanswered deal field never excludes. */
export function answeredWithin(
  x: number | null,
  min: number | null | undefined,
  max: number | null | undefined,
): boolean {
  return x === null || within(x, min, max);
}

/** Product tri-state vs a deal flag: 'both'/null accept either; 'yes' needs true; 'no' needs false; unanswered passes. */
function triStateAccepts(product: TriState | null | undefined, answer: boolean | null): boolean {
  if (answer === null || product === null || product === undefined || product === 'both') return true;
  return product === 'yes' ? answer : !answer;
}
