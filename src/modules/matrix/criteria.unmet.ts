/**
 * Unmet criteria: the approval criteria (criteria.rules.ts) read one criterion at a time, for the structuring module's
 * "what would it take?" (docs/what-it-would-take.md). Pure: no I/O.
 */
import type { Approval } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import type { AssetAncestry } from './asset-ancestry.ts';
import {
  coversDealAsset,
  depositCriterion,
  depositRequired,
  industryListed,
  MONEY_TOLERANCE,
  namesEveryTransactionType,
  type PreparedDeal,
  prepareDeal,
} from './criteria.rules.ts';

/** One criterion of an approval a deal does not meet: its answer fails it, or the deal left it unanswered. */
export interface UnmetCriterion {
  /** The approval's field, e.g. `min_term`, `asset_ids`, `home_owner`. */
  criterion: string;
  /** The request field that answers it (a MISSING_FIELD_NAMES entry, or `cost` / `asset_value`). */
  field: string;
  /** The deal's answer, null when unanswered; lists and flags as text. */
  deal_value: number | string | boolean | null;
  /** What the approval needs: a bound, a flag, or the listed values. */
  required: number | string | boolean;
}

/**
 * What reads unmet criteria one at a time (`visitUnmetCriteria`): called once per criterion, in order. `answered` is
 * true when the deal's answer fails the criterion (`evaluatePrepared` drops the approval for it), false when the deal
 * left the question unanswered: so the approval is dropped exactly when some call is answered, and confirmed exactly
 * when there is none.
 */
export interface UnmetVisitor {
  unmet(
    criterion: string,
    field: string,
    value: number | string | boolean | null,
    required: number | string | boolean,
    answered: boolean,
  ): void;
}

/** Collects each unmet criterion as a record. */
class UnmetList implements UnmetVisitor {
  readonly list: UnmetCriterion[] = [];
  unmet(
    criterion: string,
    field: string,
    value: number | string | boolean | null,
    required: number | string | boolean,
  ) {
    this.list.push({ criterion, field, deal_value: value, required });
  }
}

/**
 * Every criterion of `approval` the deal does not meet, in `evaluatePrepared`'s order, with the same reading of each
 * (tolerances, the borrower-age pair, blank bounds): empty exactly when `evaluateApproval` answers `confirmed`. An
 * approval it would drop has at least one entry with an answered `deal_value`. What a broker could change to meet
 * each one is the structuring module's question, not this one's.
 */
export function unmetCriteria(approval: Approval, deal: Deal, ancestry: AssetAncestry): UnmetCriterion[] {
  const list = new UnmetList();
  visitUnmetCriteria(approval, prepareDeal(deal, ancestry), list);
  return list.list;
}

/** A range criterion: a value outside [min, max], or unanswered where a bound needs an answer. */
function range(
  v: UnmetVisitor,
  min: number | null,
  max: number | null,
  value: number | null,
  criterion: { min: string; max: string },
  field: string,
): void {
  if (min === null && max === null) return;
  if (value === null) {
    if (max !== null || (min as number) > 0)
      v.unmet(
        min !== null && min > 0 ? criterion.min : criterion.max,
        field,
        null,
        (min !== null && min > 0 ? min : max) as number,
        false,
      );
    return;
  }
  if (min !== null && value < min) v.unmet(criterion.min, field, value, min, true);
  if (max !== null && value > max) v.unmet(criterion.max, field, value, max, true);
}

const TERM = { min: 'min_term', max: 'max_term' };
const ABN_AGE = { min: 'min_abn_age', max: 'max_abn_age' };
const GST_AGE = { min: 'min_gst_age', max: 'max_gst_age' };
const ASSET_AGE = { min: 'min_asset_age', max: 'max_asset_age' };
const FILE_AGE = { min: 'min_file_age', max: 'max_file_age' };
const CREDIT_SCORE = { min: 'min_credit_score', max: 'max_credit_score' };

/** An approval's list as its unmet criterion states it (`a,b,c`), joined once per list. */
const joined = new WeakMap<readonly (string | number)[], string>();

function listed(list: readonly (string | number)[]): string {
  let text = joined.get(list);
  if (text === undefined) {
    text = list.join(',');
    joined.set(list, text);
  }
  return text;
}

function flag(v: UnmetVisitor, wanted: boolean | null, answer: boolean | null, field: string): void {
  if (wanted !== null && answer !== wanted) v.unmet(field, field, answer, wanted, answer !== null);
}

/**
 * `unmetCriteria` on a prepared deal, each unmet criterion handed to `v` as it is found: one deal prepared once is read
 * against many approvals, with no record made per criterion unless the visitor makes one.
 */
export function visitUnmetCriteria(approval: Approval, p: PreparedDeal, v: UnmetVisitor): void {
  const a = approval;
  const d = p.deal;
  if (a.asset_ids.length > 0 && !coversDealAsset(a.asset_ids, p))
    v.unmet('asset_ids', 'asset_value', d.asset_value, listed(a.asset_ids), true);
  if (a.min_asset_cost !== null && d.cost_inc + MONEY_TOLERANCE < a.min_asset_cost)
    v.unmet('min_asset_cost', 'cost', d.cost_inc, a.min_asset_cost, true);
  if (a.max_asset_cost !== null && d.cost_inc - MONEY_TOLERANCE > a.max_asset_cost)
    v.unmet('max_asset_cost', 'cost', d.cost_inc, a.max_asset_cost, true);
  range(v, a.min_term, a.max_term, d.term, TERM, 'term');
  range(v, a.min_abn_age, a.max_abn_age, d.abn_age, ABN_AGE, 'abn_age');
  range(v, a.min_gst_age, a.max_gst_age, d.gst_age, GST_AGE, 'gst_age');
  range(v, a.min_asset_age, a.max_asset_age, d.asset_age, ASSET_AGE, 'asset_age');
  range(v, a.min_file_age, a.max_file_age, d.file_age, FILE_AGE, 'file_age');
  range(v, a.min_credit_score, a.max_credit_score, d.credit_score, CREDIT_SCORE, 'credit_score');
  // As evaluatePrepared reads them: the minimum against the youngest, the maximum against the oldest; the other end
  // of the pair only settles a bound it cannot pass, and otherwise the answer it stands for is still missing.
  const minAge = a.min_borrower_age;
  if (minAge !== null) {
    const young = p.borrowerYoungest;
    if (young !== null) {
      if (young < minAge) v.unmet('min_borrower_age', 'borrower_age_youngest', young, minAge, true);
    } else if (p.borrowerOldest !== null && p.borrowerOldest < minAge)
      v.unmet('min_borrower_age', 'borrower_age_youngest', p.borrowerOldest, minAge, true);
    else if (minAge > 0) v.unmet('min_borrower_age', 'borrower_age_youngest', null, minAge, false);
  }
  const maxAge = a.max_borrower_age;
  if (maxAge !== null) {
    const old = p.borrowerOldest;
    if (old !== null) {
      if (old > maxAge) v.unmet('max_borrower_age', 'borrower_age_oldest', old, maxAge, true);
    } else if (p.borrowerYoungest !== null && p.borrowerYoungest > maxAge)
      v.unmet('max_borrower_age', 'borrower_age_oldest', p.borrowerYoungest, maxAge, true);
    else v.unmet('max_borrower_age', 'borrower_age_oldest', null, maxAge, false);
  }
  flag(v, a.home_owner, d.home_owner, 'home_owner');
  flag(v, a.private_sale, d.private_sale, 'private_sale');
  flag(v, a.sale_hire_back, d.sale_hire_back, 'sale_hire_back');
  if (a.asset_state !== null && a.asset_state !== 'none' && p.assetState !== a.asset_state) {
    v.unmet('asset_state', 'asset_state', p.assetState, a.asset_state, p.assetState !== null);
  }
  const types = a.transaction_types;
  if (types.length > 0) {
    if (d.transaction_type === null) {
      if (!namesEveryTransactionType(types))
        v.unmet('transaction_types', 'transaction_type', null, listed(types), false);
    } else if (!types.includes(d.transaction_type))
      v.unmet('transaction_types', 'transaction_type', d.transaction_type, listed(types), true);
  }
  if (a.industries.length > 0 && (p.industry === null || !industryListed(a.industries, p.industry))) {
    v.unmet('industries', 'industry', d.industry, listed(a.industries), p.industry !== null);
  }
  const required = depositRequired(a, d.cost_inc);
  if (required !== null) {
    if (d.deposit === null) {
      if (required > 0) v.unmet(depositCriterion(a, d.cost_inc), 'deposit', null, required, false);
    } else if (d.deposit + MONEY_TOLERANCE < required)
      v.unmet(depositCriterion(a, d.cost_inc), 'deposit', d.deposit, required, true);
  }
}
