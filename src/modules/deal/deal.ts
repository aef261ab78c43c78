/**
 * Request -> Deal normalisation for the calculator and the Matrix Calculator (docs/pricing.md, "Deal normalisation").
 *
 * The request has already been validated by the caller (400s live there: missing term, consumer type, balloon
 * percentage over 100, contradictory home_owner/asset_owner). This function is total: it never throws, whatever
 * it is given; a field it cannot read becomes "not answered" (null) or its documented default.
 */
import {
  ADVANCE_ARREARS,
  ASSET_STATES,
  REPAYMENT_FREQUENCIES,
  TRANSACTION_TYPES,
  isOneOf,
  type AdvanceArrears,
  type AssetState,
  type CardType,
  type RepaymentFrequency,
  type TransactionType,
} from '../../lib/vocabulary.ts';

/**
 * A deal as both engines read it, after request validation and normalisation (`normaliseDeal`, below).
 * `null` = the broker did not answer. Amounts are dollars, rates percent.
 */
export interface Deal {
  type: CardType;
  asset_value: number; // asset id
  term: number | null; // months; required for pricing
  advance_arrears: AdvanceArrears;
  repayment_frequency: RepaymentFrequency;
  cost: number; // as entered
  cost_gst: boolean;
  /** GST-inclusive cost (`cost * 1.1` when cost_gst is false). */
  cost_inc: number;
  /** Deposit in dollars (percentage resolved per the GST rule); null when the request did not carry one. */
  deposit: number | null;
  balloon_amount: number; // dollars, resolved
  brokerage: number;
  brokerage_gst: boolean;
  brokerage_percentage: boolean;
  origination_fee: number;
  origination_fee_gst: boolean;
  doc_fee_financed: 'yes' | 'no' | null;
  lvr: number | null;
  abn_age: number | null;
  gst_age: number | null;
  asset_age: number | null; // months (from year_model when only that was sent)
  asset_age_plus_term: number | null;
  borrower_age_youngest: number | null;
  borrower_age_oldest: number | null;
  file_age: number | null;
  credit_score: number | null;
  industry: string | null;
  asset_state: AssetState | null;
  transaction_type: TransactionType | null;
  home_owner: boolean | null;
  private_sale: boolean | null;
  sale_hire_back: boolean | null;
  preferred_financier: number[] | null; // null/empty = every financier
}

/** A calculator / Matrix Calculator request body with the spec's field names, numbers already parsed. */
export interface DealRequest {
  cost: number;
  asset_value: number;
  cost_gst?: boolean | null;
  term?: number | null;
  advance_arrears?: AdvanceArrears | null;
  repayment_frequency?: RepaymentFrequency | null;
  abn_age?: number | null;
  gst_age?: number | null;
  asset_age?: number | null;
  year_model?: number | null;
  borrower_age_youngest?: number | null;
  borrower_age_oldest?: number | null;
  borrower_age?: number | null;
  file_age?: number | null;
  credit_score?: number | null;
  industry?: string | null;
  asset_state?: AssetState | null;
  transaction_type?: TransactionType | null;
  home_owner?: boolean | null;
  /** The calculator's name for `home_owner` (same question). */
  asset_owner?: boolean | null;
  private_sale?: boolean | null;
  sale_hire_back?: boolean | null;
  preferred_financier?: number[] | null;
  type?: CardType | null;
  /** null = not answered (the criteria engine may report it missing); 0 = no deposit. */
  deposit?: number | null;
  deposit_gst?: boolean | null;
  deposit_percentage?: boolean | null;
  brokerage?: number | null;
  brokerage_gst?: boolean | null;
  brokerage_percentage?: boolean | null;
  origination_fee?: number | null;
  origination_fee_gst?: boolean | null;
  balloon?: number | null;
  balloon_gst?: boolean | null;
  balloon_percentage?: boolean | null;
  /** 'yes' / 'no' (case-insensitive; true/false accepted); anything else = not answered. */
  doc_fee_financed?: string | null;
  asset_age_plus_term?: number | null;
  lvr?: number | null;
  employment_status?: string | null;
  citizenship_status?: string | null;
}

/** Adds GST: `x * 1.1`, computed as x * 11 / 10 so round dollar figures stay exact (50,000 -> 55,000, not 55,000.00000000001). */
export function withGst(x: number): number {
  return (x * 11) / 10;
}

/** Removes GST: `x / 1.1`. */
export function withoutGst(x: number): number {
  return (x * 10) / 11;
}

/**
 * Builds the Deal both engines read.
 *
 * - Rule 5 GST flags: `cost_inc` is the GST-inclusive cost (`cost * 1.1` when `cost_gst` is false). A percentage
 *   deposit or balloon is taken of the GST-inclusive cost when its `*_gst` flag is true and of the GST-exclusive
 *   cost when false; a dollar deposit or balloon is used as given (its flag does not change the dollars).
 * - `deposit` stays null when not answered (the criteria engine needs to know); pricing treats null as 0.
 * - `asset_age` (months), when only `year_model` was sent: (current calendar year in Australia/Sydney - year_model)
 *   * 12, never negative (a next-year model sold today is new: 0). Month of build is unknown, so whole years are
 *   the honest precision; the Sydney calendar is used because the deal is Australian and the year turns there
 *   about 10 hours before UTC.
 * - `asset_age_plus_term` (months) = asset_age + term when not sent and both are known.
 * - `borrower_age` (single borrower) fills whichever of `borrower_age_youngest` / `_oldest` is not sent.
 * - `asset_owner` is the calculator's name for `home_owner`: `home_owner` wins when both are sent.
 * - `preferred_financier`: de-duplicated; empty means every financier (null).
 */
export function normaliseDeal(request: DealRequest, now: Date): Deal {
  const r: Partial<DealRequest> = request && typeof request === 'object' ? request : {};
  const cost = typeof r.cost === 'number' ? r.cost : Number.NaN; // NaN prices nothing (engine checks finiteness)
  const cost_gst = bool(r.cost_gst) ?? false;
  const cost_inc = cost_gst ? cost : withGst(cost);
  const cost_ex = cost_gst ? withoutGst(cost) : cost;
  const ofCost = (gstInclusive: boolean) => (gstInclusive ? cost_inc : cost_ex);

  const depositFigure = num(r.deposit);
  const deposit =
    depositFigure === null
      ? null
      : bool(r.deposit_percentage)
        ? (ofCost(bool(r.deposit_gst) ?? false) * depositFigure) / 100
        : depositFigure;

  const balloonFigure = num(r.balloon) ?? 0;
  const balloon_amount = bool(r.balloon_percentage)
    ? (ofCost(bool(r.balloon_gst) ?? false) * balloonFigure) / 100
    : balloonFigure;

  const term = num(r.term);
  const asset_age = num(r.asset_age) ?? assetAgeFromYearModel(num(r.year_model), now);
  const asset_age_plus_term =
    num(r.asset_age_plus_term) ?? (asset_age !== null && term !== null ? asset_age + term : null);
  const borrower_age = num(r.borrower_age);

  return {
    type: r.type === 'consumer' ? 'consumer' : 'commercial',
    asset_value: typeof r.asset_value === 'number' ? r.asset_value : Number.NaN,
    term,
    advance_arrears: isOneOf(ADVANCE_ARREARS, r.advance_arrears) ? r.advance_arrears : 'none',
    repayment_frequency: isOneOf(REPAYMENT_FREQUENCIES, r.repayment_frequency) ? r.repayment_frequency : 'monthly',
    cost,
    cost_gst,
    cost_inc,
    deposit,
    balloon_amount,
    brokerage: num(r.brokerage) ?? 0,
    brokerage_gst: bool(r.brokerage_gst) ?? false,
    brokerage_percentage: bool(r.brokerage_percentage) ?? false,
    origination_fee: num(r.origination_fee) ?? 0,
    origination_fee_gst: bool(r.origination_fee_gst) ?? false,
    doc_fee_financed: yesNo(r.doc_fee_financed),
    lvr: num(r.lvr),
    abn_age: num(r.abn_age),
    gst_age: num(r.gst_age),
    asset_age,
    asset_age_plus_term,
    borrower_age_youngest: num(r.borrower_age_youngest) ?? borrower_age,
    borrower_age_oldest: num(r.borrower_age_oldest) ?? borrower_age,
    file_age: num(r.file_age),
    credit_score: num(r.credit_score),
    industry: typeof r.industry === 'string' && r.industry !== '' ? r.industry : null,
    asset_state: isOneOf(ASSET_STATES, r.asset_state) ? r.asset_state : null,
    transaction_type: isOneOf(TRANSACTION_TYPES, r.transaction_type) ? r.transaction_type : null,
    home_owner: bool(r.home_owner) ?? bool(r.asset_owner),
    private_sale: bool(r.private_sale),
    sale_hire_back: bool(r.sale_hire_back),
    preferred_financier: financiers(r.preferred_financier),
  };
}

/**
 * Asset age in months from a build year: (calendar year now - year_model) * 12, floored at 0; null when no year.
 * Uses the Australia/Sydney calendar year (falls back to UTC if the runtime has no time-zone data).
 */
function assetAgeFromYearModel(yearModel: number | null, now: Date): number | null {
  if (yearModel === null) return null;
  const year = sydneyYear(now);
  if (!Number.isFinite(year)) return null;
  return Math.max(0, (year - yearModel) * 12);
}

let sydneyYearFormat: Intl.DateTimeFormat | null | undefined;

function sydneyYear(now: Date): number {
  const time = now instanceof Date ? now.getTime() : Number.NaN;
  if (!Number.isFinite(time)) return Number.NaN;
  if (sydneyYearFormat === undefined) {
    try {
      sydneyYearFormat = new Intl.DateTimeFormat('en-AU', { timeZone: 'Australia/Sydney', year: 'numeric' });
    } catch {
      sydneyYearFormat = null;
    }
  }
  const year = sydneyYearFormat ? Number(sydneyYearFormat.format(time)) : Number.NaN;
  return Number.isFinite(year) ? year : now.getUTCFullYear();
}

/** A finite number, else null (not answered). */
function num(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

function bool(x: unknown): boolean | null {
  return typeof x === 'boolean' ? x : null;
}

function yesNo(x: unknown): 'yes' | 'no' | null {
  if (x === true) return 'yes';
  if (x === false) return 'no';
  if (typeof x !== 'string') return null;
  const v = x.trim().toLowerCase();
  if (v === 'yes' || v === 'true') return 'yes';
  if (v === 'no' || v === 'false') return 'no';
  return null; // 'both', '' and anything else: not answered, the product's default applies
}

function financiers(x: unknown): number[] | null {
  if (!Array.isArray(x)) return null;
  const ids = [...new Set(x.filter((id): id is number => typeof id === 'number' && Number.isFinite(id)))];
  return ids.length > 0 ? ids : null;
}
