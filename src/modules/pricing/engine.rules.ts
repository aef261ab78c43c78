/**
 * The pricing rules, as docs/pricing-conventions.md states them: the definition the pricing engine answers.
 *
 * Pure: no I/O, plain records in and out. `priceDealByRules` prices one deal against a catalogue the way the spec
 * reads: the brackets mapped to the deal's asset or an ancestor category, each judged by Rule 11 (the bracket's
 * bounds, its product's bounds), priced by Rules 5-7 and 9 (its product's figures) and Rules 2, 4 and 8 (its own),
 * then ordered by Rule 13. The services run the fast version instead (engine.fast.ts: an index per snapshot, the
 * same arithmetic over typed arrays), which test/pricing/engine.agreement.test.ts holds equal to this file on random
 * catalogues and deals. The public entry is engine.ts. See docs/pricing.md for every convention settled here.
 */
import type { AssetNode, AssetRateBracketRelation, Product, RateBracket } from '../catalogue/index.ts';
import type { CardType, TriState } from '../../lib/vocabulary.ts';
import { type Deal, withGst, withoutGst } from '../deal/index.ts';
import {
  compoundingPerYear,
  effectiveAnnualRate,
  instalmentCount,
  instalmentsPerYear,
  pmt,
  ratePerInstalment,
  roundMoney,
  roundRate,
} from './finance.ts';

/** One rate bracket priced for one deal (pricing engine output; full precision, formatted at the edge). */
export interface PricedBracket {
  rate_bracket_id: number;
  rate_bracket_name: string;
  organisation_id: number;
  product_id: number;
  product_name: string;
  base_min: number;
  base_max: number; // annual % from the card
  rate_min: number;
  rate_max: number; // priced nominal annual % (base + brokerage loading when rate-loaded)
  e_min: number;
  e_max: number; // effective annual %
  repayment_min: number;
  repayment_max: number; // per instalment, incl. monthly fee share
  balloon: number; // dollars
  commission: number; // brokerage paid, dollars, after caps and GST
  amount_financed: number; // P incl. funded brokerage
  instalments: number; // n
  instalments_per_year: number; // m
  compounding_per_year: number; // c
  advance: boolean;
  monthly_fee_per_instalment: number;
}

export interface PricingCatalogue {
  assets: AssetNode[];
  products: Product[];
  brackets: RateBracket[];
  relations: AssetRateBracketRelation[];
}

export interface PriceDealOptions {
  /** Only these financiers (e.g. the caller's entitlement); null/absent = every financier. */
  organisationIds?: Set<number> | null;
  /** Only these brackets (e.g. an approval's rate_bracket_ids); null/absent = every bracket. */
  bracketIds?: Set<number> | null;
  /** Card type to price; defaults to deal.type. */
  type?: CardType;
  /**
   * false: the rows in catalogue order, unsorted, for a caller that orders them itself (the Matrix Calculator join
   * only picks each approval's cheapest, so sorting the whole market first is wasted). Default true: Rule 13 order.
   */
  sorted?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// The deal's figures, shared by every bracket
// ---------------------------------------------------------------------------------------------------------------

/** Deal figures shared by every bracket of one call. */
export interface DealTerms {
  term: number;
  m: number;
  n: number;
  advance: boolean;
  /** Rule 8's money advanced for the asset: cost_inc - deposit. */
  amountAdvanced: number;
  balloon: number;
  /** Rule 5: the origination fee including GST, as financed. */
  originationFee: number;
  /** Brokerage as entered, split into ex- and inc-GST (percent or dollars per `brokeragePercentage`). */
  brokerageExGst: number;
  brokerageIncGst: number;
  brokeragePercentage: boolean;
  preferred: readonly number[] | null;
}

/** The financiers the deal is limited to (`preferred_financier`), or null when it names none. */
export function preferredFinanciers(deal: Deal): readonly number[] | null {
  return deal.preferred_financier && deal.preferred_financier.length > 0 ? deal.preferred_financier : null;
}

/** The deal's terms, or null when it prices nothing: no term, no instalment, or a figure that is not finite. */
export function dealTerms(deal: Deal): DealTerms | null {
  const terms = blankTerms();
  return dealTermsInto(deal, terms) ? terms : null;
}

/** A DealTerms to fill (`dealTermsInto`). */
export function blankTerms(): DealTerms {
  return {
    term: 0,
    m: 0,
    n: 0,
    advance: false,
    amountAdvanced: 0,
    balloon: 0,
    originationFee: 0,
    brokerageExGst: 0,
    brokerageIncGst: 0,
    brokeragePercentage: false,
    preferred: null,
  };
}

/**
 * `dealTerms` written into `out`, for a caller that asks it of thousands of deals and keeps no answer (the structuring
 * engine's questions about one bracket): false where `dealTerms` is null, `out` then left part-filled.
 */
export function dealTermsInto(deal: Deal, out: DealTerms): boolean {
  const term = deal.term;
  if (term === null || !Number.isFinite(term) || term <= 0) return false;
  const m = instalmentsPerYear(deal.repayment_frequency);
  const n = instalmentCount(term, m);
  if (!(n >= 1)) return false;
  const amountAdvanced = deal.cost_inc - (deal.deposit ?? 0);
  const balloon = deal.balloon_amount;
  const originationFee = Math.max(0, deal.origination_fee_gst ? deal.origination_fee : withGst(deal.origination_fee));
  const brokerage = Math.max(0, deal.brokerage);
  if (
    !Number.isFinite(amountAdvanced) ||
    !Number.isFinite(balloon) ||
    !Number.isFinite(originationFee) ||
    !Number.isFinite(brokerage)
  )
    return false;
  out.term = term;
  out.m = m;
  out.n = n;
  out.advance = deal.advance_arrears === 'advance'; // Rule 4: 'none' prices in arrears
  out.amountAdvanced = amountAdvanced;
  out.balloon = balloon;
  out.originationFee = originationFee;
  out.brokerageExGst = deal.brokerage_gst ? withoutGst(brokerage) : brokerage;
  out.brokerageIncGst = deal.brokerage_gst ? brokerage : withGst(brokerage);
  out.brokeragePercentage = deal.brokerage_percentage;
  out.preferred = preferredFinanciers(deal);
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Which brackets a deal reaches
// ---------------------------------------------------------------------------------------------------------------

/** A bracket the deal's asset reaches, with its product. */
export interface MappedBracket {
  bracket: RateBracket;
  product: Product;
}

/**
 * The brackets mapped to the asset `assetId` directly or through any ancestor category, in catalogue order:
 * - a bracket whose product is missing cannot be priced (no product name, fees or bounds) and is never reached;
 *   otherwise the first record of a product, bracket or asset id is the one that counts;
 * - a relation with `rate_bracket_id` set maps that bracket; null maps every bracket of `product_id`; both null maps
 *   nothing. It maps only brackets of its own `organisation_id`: a product can be shared (its `organisation_id` is
 *   nullable), and one financier's mapping must never surface another's card;
 * - a deleted asset reaches nothing; a deleted category contributes none of its own mappings (its live ancestors
 *   still do, as the parent links are intact); an unknown parent ends the walk up, and so does a repeat.
 */
function mappedBrackets(catalogue: PricingCatalogue, assetId: number): MappedBracket[] {
  const assets = firstById(catalogue.assets ?? []);
  const asset = assets.get(assetId);
  if (!asset || asset.is_deleted) return [];
  const chain = new Set<number>();
  const walked = new Set<number>();
  for (let node: AssetNode | undefined = asset; node && !walked.has(node.id); ) {
    walked.add(node.id);
    if (!node.is_deleted) chain.add(node.id);
    node = node.parent_id === null || node.parent_id === undefined ? undefined : assets.get(node.parent_id);
  }
  const relations = (catalogue.relations ?? []).filter((relation) => chain.has(relation.asset_id));
  const maps = (relation: AssetRateBracketRelation, bracket: RateBracket) =>
    relation.organisation_id === bracket.organisation_id &&
    (relation.rate_bracket_id !== null && relation.rate_bracket_id !== undefined
      ? relation.rate_bracket_id === bracket.id
      : relation.product_id !== null &&
        relation.product_id !== undefined &&
        relation.product_id === bracket.product_id);

  const products = firstById(catalogue.products ?? []);
  const priceable = firstById((catalogue.brackets ?? []).filter((bracket) => products.has(bracket.product_id)));
  const mapped: MappedBracket[] = [];
  for (const bracket of priceable.values()) {
    const product = products.get(bracket.product_id) as Product;
    if (relations.some((relation) => maps(relation, bracket))) mapped.push({ bracket, product });
  }
  return mapped;
}

function firstById<T extends { id: number }>(records: readonly T[]): Map<number, T> {
  const byId = new Map<number, T>();
  for (const record of records) if (!byId.has(record.id)) byId.set(record.id, record);
  return byId;
}

// ---------------------------------------------------------------------------------------------------------------
// Rule 11 Eligibility
// ---------------------------------------------------------------------------------------------------------------

/** Inclusive bounds; a null bound is not checked. */
function within(x: number, min: number | null | undefined, max: number | null | undefined): boolean {
  return (min === null || min === undefined || x >= min) && (max === null || max === undefined || x <= max);
}

/** An unanswered deal field never excludes. */
function answeredWithin(x: number | null, min: number | null | undefined, max: number | null | undefined): boolean {
  return x === null || within(x, min, max);
}

/** Product tri-state vs a deal flag: 'both'/null accept either; 'yes' needs true; 'no' needs false; unanswered passes. */
function triStateAccepts(product: TriState | null | undefined, answer: boolean | null): boolean {
  if (answer === null || product === null || product === undefined || product === 'both') return true;
  return product === 'yes' ? answer : !answer;
}

/** Rule 11, the bracket's own bounds (amount financed is checked once the product's P is known). */
function bracketAccepts(bracket: RateBracket, deal: Deal, terms: DealTerms): boolean {
  return (
    (terms.preferred === null || terms.preferred.includes(bracket.organisation_id)) &&
    within(terms.term, bracket.min_term, bracket.max_term) &&
    answeredWithin(deal.asset_age, bracket.min_asset_age, bracket.max_asset_age) &&
    (deal.lvr === null || bracket.max_lvr === null || bracket.max_lvr === undefined || deal.lvr <= bracket.max_lvr)
  );
}

/** Rule 11, the product's bounds other than the amount financed. */
function productAccepts(product: Product, deal: Deal, terms: DealTerms): boolean {
  const limit = product.max_origination_fee_limit;
  return (
    within(terms.term, product.min_range, product.max_range) &&
    answeredWithin(deal.abn_age, product.min_abn_age, product.max_abn_age) &&
    answeredWithin(deal.gst_age, product.min_gst_age, product.max_gst_age) &&
    answeredWithin(deal.asset_age, product.min_asset_age, product.max_asset_age) &&
    answeredWithin(deal.credit_score, product.min_credit_score, product.max_credit_score) &&
    answeredWithin(deal.asset_age_plus_term, product.min_asset_age_plus_term, product.max_asset_age_plus_term) &&
    triStateAccepts(product.home_owner, deal.home_owner) &&
    triStateAccepts(product.private_sale, deal.private_sale) &&
    triStateAccepts(product.sale_hire_back, deal.sale_hire_back) &&
    // Origination fee: a bound on the GST-inclusive fee, see `quoteProduct`.
    (limit === null || limit === undefined || terms.originationFee <= limit)
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Rules 5-7 and 9: a product's figures for the deal
// ---------------------------------------------------------------------------------------------------------------

/** What a product's brackets share for one deal. */
export interface ProductQuote {
  compounding_per_year: number;
  amount_financed: number;
  /** P to the cent, as amount bounds are compared. */
  amount_financed_cents: number;
  /** Brokerage paid, after caps and GST. */
  commission: number;
  /** Percentage points added to the card's base rate (rate-loaded brokerage), else 0. */
  rate_loading: number;
  monthly_fee_per_instalment: number;
}

/**
 * Rule 11 product bounds, then Rules 5-7 and 9 for one product: null when the product cannot price this deal.
 *
 * Documentation fee (Rule 6): paying a fee up front is always possible, financing it needs the lender's consent.
 * - request 'no': not financed, whatever the product says;
 * - request 'yes': financed; a product 'no' (the lender does not finance its doc fee) EXCLUDES the product, as
 *   pricing it with the fee silently moved up front would not be the deal the broker asked for (no exclusion when
 *   the product has no doc fee: there is nothing to finance);
 * - not answered: the product's default: 'no' = not financed; 'yes', 'both' or null = financed (the common
 *   Australian default, and the one that shows the fee in the effective rate).
 *
 * Brokerage (Rule 7), caps before GST: the product's `brokerage_cap` (% of P before brokerage) and
 * `maximum_brokerage_limit` ($) cap the GST-EXCLUSIVE brokerage, then GST is added. Lenders state caps ex GST
 * ("up to 6% + GST") because GST depends on the broker's registration, not on the lender's policy; capping the
 * inc-GST figure would pay a registered broker less than the policy allows. `commission` is the GST-inclusive
 * figure paid. When no cap binds, the inc-GST figure is the one entered, exactly.
 * - Funded (`brokerage_loading_treatment` null or 0): P includes the commission, priced at the base rate.
 * - Rate-loaded (L > 0): P excludes it and the rate is base + L * brokerage%, where brokerage% is the capped
 *   ex-GST brokerage as a percentage of P (lenders' loading tables are in ex-GST brokerage points).
 *
 * Origination fee: financed including GST (Rule 5); a product's `max_origination_fee_limit` is a bound on that
 * GST-inclusive fee and EXCLUDES the product when exceeded (unlike brokerage, no rule lets us cap a fee the
 * customer is charged, and no row field would show that it had been).
 *
 * Amount bounds (`min_amount` / `max_amount`) test P including funded brokerage, to the cent.
 */
function quoteProduct(product: Product, deal: Deal, terms: DealTerms): ProductQuote | null {
  if (!productAccepts(product, deal, terms)) return null;

  const documentationFee = Math.max(0, product.documentation_fee ?? 0);
  let docFeeFinanced: boolean;
  if (deal.doc_fee_financed === 'no') docFeeFinanced = false;
  else if (deal.doc_fee_financed === 'yes') {
    if (product.doc_fee_financed === 'no' && documentationFee > 0) return null;
    docFeeFinanced = true;
  } else docFeeFinanced = product.doc_fee_financed !== 'no';

  const beforeBrokerage = terms.amountAdvanced + terms.originationFee + (docFeeFinanced ? documentationFee : 0);
  if (!(beforeBrokerage > 0) || !Number.isFinite(beforeBrokerage)) return null;

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
  if (!within(amountFinancedCents, product.min_amount, product.max_amount)) return null;

  return {
    compounding_per_year: compoundingPerYear(product.compounding_frequency),
    amount_financed: amountFinanced,
    amount_financed_cents: amountFinancedCents,
    commission,
    rate_loading: rateLoaded ? loading * ((brokerageExGst / beforeBrokerage) * 100) : 0,
    // Rule 9: a monthly fee, spread over the instalments of a year; not financed, not in e.
    monthly_fee_per_instalment: (Math.max(0, product.monthly_fee ?? 0) * 12) / terms.m,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Rules 2, 4 and 8: a bracket's own figures
// ---------------------------------------------------------------------------------------------------------------

/** A priced bracket's own figures. */
export interface BracketFigures {
  rate_min: number;
  rate_max: number;
  e_min: number;
  e_max: number;
  repayment_min: number;
  repayment_max: number;
}

/**
 * Rules 2, 4, 8, 9 for one bracket on its product's quote: null when the bracket cannot be priced: a figure is not
 * finite (e.g. Rule 8 has no rate for a single advance instalment that repays everything at settlement) or the
 * instalment is negative (a balloon worth more than the amount financed grows to is not a loan to show).
 */
function priceBracket(bracket: RateBracket, quote: ProductQuote, terms: DealTerms): BracketFigures | null {
  const least = priceRate(bracket.base_min + quote.rate_loading, quote, terms);
  const most = priceRate(bracket.base_max + quote.rate_loading, quote, terms);
  if (least === null || most === null) return null;
  return {
    rate_min: least.rate,
    rate_max: most.rate,
    e_min: least.e,
    e_max: most.e,
    repayment_min: least.repayment,
    repayment_max: most.repayment,
  };
}

/** One end of the bracket's range: the nominal annual rate `rate` (%), its effective rate and repayment. */
function priceRate(
  rate: number,
  quote: ProductQuote,
  terms: DealTerms,
): { rate: number; e: number; repayment: number } | null {
  const i = ratePerInstalment(rate / 100, quote.compounding_per_year, terms.m);
  const instalment = pmt(i, terms.n, quote.amount_financed, terms.balloon, terms.advance);
  const e = effectiveRate(instalment, i, quote.amount_financed, terms);
  const repayment = instalment + quote.monthly_fee_per_instalment;
  if (!(instalment >= 0) || !Number.isFinite(repayment) || !Number.isFinite(e)) return null;
  return { rate, e, repayment };
}

/**
 * Rule 8 on the money advanced for the asset. When nothing was added to it (P equals cost_inc - deposit: no
 * financed fee, no funded brokerage) the root of RATE is the priced rate per instalment itself, so it is returned
 * exactly instead of solved; otherwise solved, starting from the priced rate (e is usually just above it).
 */
function effectiveRate(instalment: number, i: number, amountFinanced: number, terms: DealTerms): number {
  if (amountFinanced === terms.amountAdvanced) return terms.m * i * 100;
  return effectiveAnnualRate(terms.n, instalment, terms.amountAdvanced, terms.balloon, terms.advance, terms.m, i);
}

// ---------------------------------------------------------------------------------------------------------------
// One bracket's row, and the deal's rows
// ---------------------------------------------------------------------------------------------------------------

/** Rule 11 then the figures for one reached bracket: its row, or null when it does not price the deal. */
function priceBracketRow(bracket: RateBracket, product: Product, deal: Deal, terms: DealTerms): PricedBracket | null {
  if (!bracketAccepts(bracket, deal, terms)) return null;
  const quote = quoteProduct(product, deal, terms);
  if (quote === null || !within(quote.amount_financed_cents, bracket.min_amount, bracket.max_amount)) return null;
  const figures = priceBracket(bracket, quote, terms);
  if (figures === null) return null;
  return {
    rate_bracket_id: bracket.id,
    rate_bracket_name: bracket.name,
    organisation_id: bracket.organisation_id,
    product_id: product.id,
    product_name: product.product_name,
    base_min: bracket.base_min,
    base_max: bracket.base_max,
    ...figures,
    balloon: terms.balloon,
    commission: quote.commission,
    amount_financed: quote.amount_financed,
    instalments: terms.n,
    instalments_per_year: terms.m,
    compounding_per_year: quote.compounding_per_year,
    advance: terms.advance,
    monthly_fee_per_instalment: quote.monthly_fee_per_instalment,
  };
}

/**
 * Prices `deal` against every bracket its asset reaches that is eligible (Rule 11) and returns the rows cheapest
 * first (Rule 13), or in catalogue order with `sorted: false`. A deal without a term, with an unknown or deleted
 * asset, or whose figures are not finite prices nothing.
 */
export function priceDealByRules(
  catalogue: PricingCatalogue,
  deal: Deal,
  options: PriceDealOptions = {},
): PricedBracket[] {
  const terms = dealTerms(deal);
  if (terms === null) return [];
  const type = options.type ?? deal.type;
  const rows: PricedBracket[] = [];
  for (const { bracket, product } of mappedBrackets(catalogue, deal.asset_value)) {
    if ((bracket.type ?? 'commercial') !== type) continue;
    if (options.organisationIds && !options.organisationIds.has(bracket.organisation_id)) continue;
    if (options.bracketIds && !options.bracketIds.has(bracket.id)) continue;
    const row = priceBracketRow(bracket, product, deal, terms);
    if (row !== null) rows.push(row);
  }
  return options.sorted === false ? rows : rows.sort(compareCheapest);
}

// ---------------------------------------------------------------------------------------------------------------
// Rule 13 Cheapest
// ---------------------------------------------------------------------------------------------------------------

/**
 * Rule 13: lowest `e_min`, then lowest `repayment_min`, then lowest id, comparing the figures as the row shows
 * them (e to 4 dp, repayment to the cent): two rows a broker sees as equal fall through to the next key instead
 * of being ordered by floating-point noise.
 */
export function compareCheapest(a: PricedBracket, b: PricedBracket): number {
  return (
    roundRate(a.e_min) - roundRate(b.e_min) ||
    roundMoney(a.repayment_min) - roundMoney(b.repayment_min) ||
    a.rate_bracket_id - b.rate_bracket_id
  );
}
