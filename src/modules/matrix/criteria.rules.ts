/**
 * The approval criteria, as docs/matrix.md states them ("Outcome rules"): the definition the criteria engine answers.
 *
 * Pure: no I/O. `evaluatePrepared` judges one approval against one deal and returns its outcome, or null when dropped:
 * - a criterion left blank on the approval is never checked;
 * - a checked criterion the deal did not answer is not a violation: its request field goes into
 *   `missing_fields` and the outcome is `possible`;
 * - a supplied answer that violates a checked criterion drops the approval;
 * - `confirmed` = every checked criterion was answered and satisfied.
 *
 * Per-deal work (asset ancestry, industry normalisation, borrower-age pair) is done once in `prepareDeal`. The
 * services scan the snapshot's criteria table instead (criteria.fast.ts): the same rules over typed arrays, tested
 * against this file on random catalogues. The public entry is criteria.ts. See docs/matrix.md for the field mapping
 * table and the decisions behind the edge cases.
 */
import {
  TRANSACTION_TYPES,
  type AssetState,
  type EvaluationStatus,
  type TransactionType,
} from '../../lib/vocabulary.ts';
import type { Approval } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import type { AssetAncestry } from './asset-ancestry.ts';

// ---------------------------------------------------------------------------------------------
// Missing fields: one bit per request field, bits in sorted-name order, so the mask converts to a
// sorted, duplicate-free `missing_fields` with no sort and no Set.
// ---------------------------------------------------------------------------------------------

/** Every request field name an outcome can list in `missing_fields`, sorted. `cost` and `asset_value` are always supplied. */
export const MISSING_FIELD_NAMES = [
  'abn_age',
  'asset_age', // also answered by `year_model`, from which the request layer derives asset_age
  'asset_state',
  'borrower_age_oldest', // also answered by `borrower_age`
  'borrower_age_youngest', // also answered by `borrower_age`
  'credit_score',
  'deposit',
  'file_age',
  'gst_age',
  'home_owner', // also answered by `asset_owner`
  'industry',
  'private_sale',
  'sale_hire_back',
  'term',
  'transaction_type',
] as const;

export const ABN_AGE = 1 << 0;
export const ASSET_AGE = 1 << 1;
export const ASSET_STATE = 1 << 2;
export const BORROWER_AGE_OLDEST = 1 << 3;
export const BORROWER_AGE_YOUNGEST = 1 << 4;
export const CREDIT_SCORE = 1 << 5;
export const DEPOSIT = 1 << 6;
export const FILE_AGE = 1 << 7;
export const GST_AGE = 1 << 8;
export const HOME_OWNER = 1 << 9;
export const INDUSTRY = 1 << 10;
export const PRIVATE_SALE = 1 << 11;
export const SALE_HIRE_BACK = 1 << 12;
export const TERM = 1 << 13;
export const TRANSACTION_TYPE = 1 << 14;

/**
 * One frozen list per mask, shared by every outcome that has it: a run returns thousands of outcomes and only a
 * few distinct masks, so this saves an array per outcome (allocation is what drives the engines' p99). Frozen so a
 * caller that tried to edit a shared list would fail loudly instead of changing other outcomes.
 */
const missingFieldLists: (readonly string[] | undefined)[] = [];
export const NOTHING_MISSING: string[] = Object.freeze([]) as unknown as string[];

export function missingFieldsOf(mask: number): string[] {
  let fields = missingFieldLists[mask];
  if (fields === undefined) {
    const list: string[] = [];
    for (let bit = 0, m = mask; m !== 0; bit++, m >>>= 1) if (m & 1) list.push(MISSING_FIELD_NAMES[bit]);
    fields = Object.freeze(list);
    missingFieldLists[mask] = fields;
  }
  return fields as string[];
}

/** Sentinel from the range checks: a supplied answer violates the criterion. */
export const DROPPED = -1;

/**
 * Dollar comparisons allow a millionth of a dollar: `cost_inc` is `cost * 1.1` in binary floating point
 * (50,000 x 1.1 = 55,000.000000000007), and an asset costing exactly the approval's maximum must not drop.
 */
export const MONEY_TOLERANCE = 1e-6;

/**
 * An integer range criterion (months, years, score). Inclusive bounds.
 * Returns 0 (not checked or satisfied), `bit` (checked, unanswered) or DROPPED.
 * A minimum of 0 or less cannot be failed by any valid answer (the request rejects negatives), so on its own it
 * does not make the answer missing: asking for it could never change the outcome.
 */
function checkRange(min: number | null, max: number | null, value: number | null, bit: number): number {
  if (min === null && max === null) return 0;
  if (value === null) return max !== null || (min as number) > 0 ? bit : 0;
  if ((min !== null && value < min) || (max !== null && value > max)) return DROPPED;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------------------------

/** The deal with everything that does not depend on the approval worked out once. */
export interface PreparedDeal {
  readonly deal: Deal;
  /** The deal's asset and its ancestors, as a short array (the usual case) ... */
  readonly assetLine: readonly number[];
  /** ... and as a set, used instead when the tree is deep. */
  readonly assetLineSet: ReadonlySet<number>;
  /** Trimmed, lower-cased; null when unanswered or blank. */
  readonly industry: string | null;
  /** The pair read as min and max, so a swapped pair is still judged by its real youngest and oldest. */
  readonly borrowerYoungest: number | null;
  readonly borrowerOldest: number | null;
  /** Request `asset_state: none` reads as unanswered, as `none` on an approval reads as unchecked. */
  readonly assetState: AssetState | null;
}

/** Beyond this depth a Set lookup beats scanning the ancestor line. */
const SHORT_ASSET_LINE = 8;

export function prepareDeal(deal: Deal, ancestry: AssetAncestry): PreparedDeal {
  const assetLineSet = ancestry.selfAndAncestors(deal.asset_value);
  const industry = deal.industry === null ? '' : deal.industry.trim().toLowerCase();
  let young = deal.borrower_age_youngest;
  let old = deal.borrower_age_oldest;
  if (young !== null && old !== null && young > old) [young, old] = [old, young];
  return {
    deal,
    assetLine: Array.from(assetLineSet),
    assetLineSet,
    industry: industry === '' ? null : industry,
    borrowerYoungest: young,
    borrowerOldest: old,
    assetState: deal.asset_state === 'none' ? null : deal.asset_state,
  };
}

/** True when a member of `memberIds` is the deal's asset or one of its ancestors. */
export function coversDealAsset(memberIds: readonly number[], p: PreparedDeal): boolean {
  const line = p.assetLine;
  if (line.length <= SHORT_ASSET_LINE) {
    for (let i = 0; i < memberIds.length; i++) {
      const id = memberIds[i];
      for (let j = 0; j < line.length; j++) if (line[j] === id) return true;
    }
    return false;
  }
  for (let i = 0; i < memberIds.length; i++) if (p.assetLineSet.has(memberIds[i])) return true;
  return false;
}

/**
 * Case-insensitive match of the deal's ANZSIC division (already trimmed and lower-cased) against the approval's
 * list as stored: both come from the same `GET /approvals/options` values, so no code-to-name mapping is attempted.
 */
export function industryListed(industries: readonly string[], wanted: string): boolean {
  for (let i = 0; i < industries.length; i++) {
    const listed = industries[i];
    // Equal length first: most entries differ in length, and then no lower-cased copy is made.
    if (listed.length === wanted.length && listed.toLowerCase() === wanted) return true;
  }
  return false;
}

/** A list naming every transaction type cannot be failed, so it does not make `transaction_type` missing. */
export function namesEveryTransactionType(types: readonly TransactionType[]): boolean {
  if (types.length < TRANSACTION_TYPES.length) return false;
  for (const t of TRANSACTION_TYPES) if (!types.includes(t)) return false;
  return true;
}

/** The core: null = dropped. Criteria are checked cheapest-and-most-selective first; any order gives the same answer. */
export function evaluatePrepared(a: Approval, p: PreparedDeal): ApprovalOutcome | null {
  const d = p.deal;
  let missing = 0;
  let r: number;

  // asset_ids vs asset_value (always supplied): a member covers itself and everything beneath it.
  if (a.asset_ids.length > 0 && !coversDealAsset(a.asset_ids, p)) return null;

  // min/max_asset_cost vs the GST-inclusive cost (always supplied).
  if (a.min_asset_cost !== null && d.cost_inc + MONEY_TOLERANCE < a.min_asset_cost) return null;
  if (a.max_asset_cost !== null && d.cost_inc - MONEY_TOLERANCE > a.max_asset_cost) return null;

  r = checkRange(a.min_term, a.max_term, d.term, TERM);
  if (r === DROPPED) return null;
  missing |= r;
  r = checkRange(a.min_abn_age, a.max_abn_age, d.abn_age, ABN_AGE);
  if (r === DROPPED) return null;
  missing |= r;
  r = checkRange(a.min_gst_age, a.max_gst_age, d.gst_age, GST_AGE);
  if (r === DROPPED) return null;
  missing |= r;
  r = checkRange(a.min_asset_age, a.max_asset_age, d.asset_age, ASSET_AGE);
  if (r === DROPPED) return null;
  missing |= r;
  r = checkRange(a.min_file_age, a.max_file_age, d.file_age, FILE_AGE);
  if (r === DROPPED) return null;
  missing |= r;
  r = checkRange(a.min_credit_score, a.max_credit_score, d.credit_score, CREDIT_SCORE);
  if (r === DROPPED) return null;
  missing |= r;

  // Borrower age: the minimum is tested against the youngest borrower, the maximum against the oldest.
  // The other end of the pair still settles a bound it cannot pass: youngest <= oldest, so an oldest below
  // the minimum (or a youngest above the maximum) already fails, and `possible` would promise what no answer gives.
  const minAge = a.min_borrower_age;
  if (minAge !== null) {
    if (p.borrowerYoungest !== null) {
      if (p.borrowerYoungest < minAge) return null;
    } else if (p.borrowerOldest !== null && p.borrowerOldest < minAge) return null;
    else if (minAge > 0) missing |= BORROWER_AGE_YOUNGEST;
  }
  const maxAge = a.max_borrower_age;
  if (maxAge !== null) {
    if (p.borrowerOldest !== null) {
      if (p.borrowerOldest > maxAge) return null;
    } else if (p.borrowerYoungest !== null && p.borrowerYoungest > maxAge) return null;
    else missing |= BORROWER_AGE_OLDEST;
  }

  // Tri-state flags: null on the approval = not checked; true/false must equal the answer.
  if (a.home_owner !== null) {
    if (d.home_owner === null) missing |= HOME_OWNER;
    else if (d.home_owner !== a.home_owner) return null;
  }
  if (a.private_sale !== null) {
    if (d.private_sale === null) missing |= PRIVATE_SALE;
    else if (d.private_sale !== a.private_sale) return null;
  }
  if (a.sale_hire_back !== null) {
    if (d.sale_hire_back === null) missing |= SALE_HIRE_BACK;
    else if (d.sale_hire_back !== a.sale_hire_back) return null;
  }

  if (a.asset_state !== null && a.asset_state !== 'none') {
    if (p.assetState === null) missing |= ASSET_STATE;
    else if (p.assetState !== a.asset_state) return null;
  }

  const types = a.transaction_types;
  if (types.length > 0) {
    if (d.transaction_type === null) {
      if (!namesEveryTransactionType(types)) missing |= TRANSACTION_TYPE;
    } else if (!types.includes(d.transaction_type)) return null;
  }

  if (a.industries.length > 0) {
    if (p.industry === null) missing |= INDUSTRY;
    else if (!industryListed(a.industries, p.industry)) return null;
  }

  // Deposit: the larger of the two minimums, in dollars; the percentage is of the GST-inclusive cost.
  const pct = a.min_deposit_percentage;
  const amount = a.min_deposit_amount;
  const required = depositRequired(a, d.cost_inc);
  if (required !== null) {
    if (d.deposit === null) {
      if (required > 0) missing |= DEPOSIT;
    } else if (d.deposit + MONEY_TOLERANCE < required) return null;
  }

  return new Outcome(
    a,
    missing === 0 ? 'confirmed' : 'possible',
    missing === 0 ? NOTHING_MISSING : missingFieldsOf(missing),
    pct,
    amount,
    required,
  );
}

/** An approval's minimum deposit in dollars: the larger of its two minimums, the percentage of the GST-inclusive cost; null when neither is set. */
export function depositRequired(a: Approval, costInc: number): number | null {
  const pct = a.min_deposit_percentage;
  const amount = a.min_deposit_amount;
  let required: number | null = pct === null ? null : (pct * costInc) / 100;
  if (amount !== null && (required === null || amount > required)) required = amount;
  return required;
}

/** The deposit criterion that sets `depositRequired`. */
export function depositCriterion(a: Approval, costInc: number): string {
  const pct = a.min_deposit_percentage;
  return a.min_deposit_amount !== null && (pct === null || a.min_deposit_amount > (pct * costInc) / 100)
    ? 'min_deposit_amount'
    : 'min_deposit_percentage';
}

/** One approval not ruled out (criteria engine output). */
export interface ApprovalOutcome {
  approval: Approval;
  status: EvaluationStatus;
  missing_fields: string[]; // request field names, sorted, unique
  deposit_percentage: number | null;
  deposit_amount: number | null;
  deposit_required: number | null; // dollars
}

/**
 * An approval's outcome. Built by `new`, as every per-item engine object is, so it stays young (docs/performance.md,
 * "The engines' tail").
 */
export class Outcome implements ApprovalOutcome {
  declare approval: Approval;
  declare status: EvaluationStatus;
  declare missing_fields: string[];
  declare deposit_percentage: number | null;
  declare deposit_amount: number | null;
  declare deposit_required: number | null;

  constructor(
    approval: Approval,
    status: EvaluationStatus,
    missingFields: string[],
    depositPercentage: number | null,
    depositAmount: number | null,
    depositRequired: number | null,
  ) {
    this.approval = approval;
    this.status = status;
    this.missing_fields = missingFields;
    this.deposit_percentage = depositPercentage;
    this.deposit_amount = depositAmount;
    this.deposit_required = depositRequired;
  }
}
