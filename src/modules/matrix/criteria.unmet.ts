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
 * Every criterion of `approval` the deal does not meet, in `evaluatePrepared`'s order, with the same reading of each
 * (tolerances, the borrower-age pair, blank bounds): empty exactly when `evaluateApproval` answers `confirmed`. An
 * approval it would drop has at least one entry with an answered `deal_value`. What a broker could change to meet
 * each one is the structuring module's question, not this one's.
 */
export function unmetCriteria(approval: Approval, deal: Deal, ancestry: AssetAncestry): UnmetCriterion[] {
  const a = approval;
  const p = prepareDeal(deal, ancestry);
  const d = p.deal;
  const unmet: UnmetCriterion[] = [];
  const add = (
    criterion: string,
    field: string,
    value: number | string | boolean | null,
    required: number | string | boolean,
  ) => unmet.push({ criterion, field, deal_value: value, required });
  if (a.asset_ids.length > 0 && !coversDealAsset(a.asset_ids, p))
    add('asset_ids', 'asset_value', d.asset_value, a.asset_ids.join(','));
  if (a.min_asset_cost !== null && d.cost_inc + MONEY_TOLERANCE < a.min_asset_cost)
    add('min_asset_cost', 'cost', d.cost_inc, a.min_asset_cost);
  if (a.max_asset_cost !== null && d.cost_inc - MONEY_TOLERANCE > a.max_asset_cost)
    add('max_asset_cost', 'cost', d.cost_inc, a.max_asset_cost);
  const range = (min: number | null, max: number | null, value: number | null, field: string) => {
    if (min === null && max === null) return;
    if (value === null) {
      if (max !== null || (min as number) > 0)
        add(
          min !== null && (min as number) > 0 ? `min_${field}` : `max_${field}`,
          field,
          null,
          (min !== null && min > 0 ? min : max) as number,
        );
      return;
    }
    if (min !== null && value < min) add(`min_${field}`, field, value, min);
    if (max !== null && value > max) add(`max_${field}`, field, value, max);
  };
  range(a.min_term, a.max_term, d.term, 'term');
  range(a.min_abn_age, a.max_abn_age, d.abn_age, 'abn_age');
  range(a.min_gst_age, a.max_gst_age, d.gst_age, 'gst_age');
  range(a.min_asset_age, a.max_asset_age, d.asset_age, 'asset_age');
  range(a.min_file_age, a.max_file_age, d.file_age, 'file_age');
  range(a.min_credit_score, a.max_credit_score, d.credit_score, 'credit_score');
  // As evaluatePrepared reads them: the minimum against the youngest, the maximum against the oldest; the other end
  // of the pair only settles a bound it cannot pass, and otherwise the answer it stands for is still missing.
  const minAge = a.min_borrower_age;
  if (minAge !== null) {
    const young = p.borrowerYoungest;
    if (young !== null) {
      if (young < minAge) add('min_borrower_age', 'borrower_age_youngest', young, minAge);
    } else if (p.borrowerOldest !== null && p.borrowerOldest < minAge)
      add('min_borrower_age', 'borrower_age_youngest', p.borrowerOldest, minAge);
    else if (minAge > 0) add('min_borrower_age', 'borrower_age_youngest', null, minAge);
  }
  const maxAge = a.max_borrower_age;
  if (maxAge !== null) {
    const old = p.borrowerOldest;
    if (old !== null) {
      if (old > maxAge) add('max_borrower_age', 'borrower_age_oldest', old, maxAge);
    } else if (p.borrowerYoungest !== null && p.borrowerYoungest > maxAge)
      add('max_borrower_age', 'borrower_age_oldest', p.borrowerYoungest, maxAge);
    else add('max_borrower_age', 'borrower_age_oldest', null, maxAge);
  }
  const flag = (wanted: boolean | null, answer: boolean | null, field: string) => {
    if (wanted !== null && answer !== wanted) add(field, field, answer, wanted);
  };
  flag(a.home_owner, d.home_owner, 'home_owner');
  flag(a.private_sale, d.private_sale, 'private_sale');
  flag(a.sale_hire_back, d.sale_hire_back, 'sale_hire_back');
  if (a.asset_state !== null && a.asset_state !== 'none' && p.assetState !== a.asset_state) {
    add('asset_state', 'asset_state', p.assetState, a.asset_state);
  }
  const types = a.transaction_types;
  if (types.length > 0) {
    if (d.transaction_type === null) {
      if (!namesEveryTransactionType(types)) add('transaction_types', 'transaction_type', null, types.join(','));
    } else if (!types.includes(d.transaction_type))
      add('transaction_types', 'transaction_type', d.transaction_type, types.join(','));
  }
  if (a.industries.length > 0 && (p.industry === null || !industryListed(a.industries, p.industry))) {
    add('industries', 'industry', d.industry, a.industries.join(','));
  }
  const required = depositRequired(a, d.cost_inc);
  if (required !== null) {
    if (d.deposit === null) {
      if (required > 0) add(depositCriterion(a, d.cost_inc), 'deposit', null, required);
    } else if (d.deposit + MONEY_TOLERANCE < required)
      add(depositCriterion(a, d.cost_inc), 'deposit', d.deposit, required);
  }
  return unmet;
}
