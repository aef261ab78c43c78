/** Matrix and Matrix Calculator results as the API shows them: figures rounded, masked rows without figures. */
import type { DocLevel, EvaluationStatus } from '../../lib/vocabulary.ts';
import { formatMoney, formatRate, roundMoney } from '../pricing/index.ts';
import type { CalculatorRow, RateCardIdentity } from '../pricing/index.ts';
import type { ApprovalOutcome } from './criteria.ts';
import type { FinancierGroup } from './results.ts';
import { maskedRows, type JoinedRow, type PaywallOptions } from './join.ts';

/** An approval's answer for the deal, as both Matrix result shapes show it. */
export interface MatrixApprovalOutcome {
  approval_id: number;
  approval_name: string;
  doc_level: DocLevel;
  status: EvaluationStatus;
  missing_fields: string[];
  deposit_percentage: number | null;
  deposit_amount: number | null;
  deposit_required: number | null;
  max_term: number | null;
}

export interface MatrixApprovalResult extends MatrixApprovalOutcome {
  rate_bracket_ids: number[];
}

export interface MatrixFinancierGroup {
  organisation_id: number;
  organisation_name: string;
  approvals: MatrixApprovalResult[];
}

export interface MatrixCalculatorRow extends MatrixApprovalOutcome, RateCardIdentity {
  base_min: string | null;
  base_max: string | null;
  e_min: string | null;
  e_max: string | null;
  repayment_min: string | null;
  repayment_max: string | null;
  balloon: number | null;
  commission: number | null;
  masked: boolean;
  priced_bracket_count: number;
}

export function approvalResult(outcome: ApprovalOutcome): MatrixApprovalResult {
  return new ApprovalResult(outcome);
}

/**
 * An approval's answer as both Matrix result shapes show it, first in each: written onto `target` by its constructor,
 * so these fields come first, in this order, in both. A helper rather than a base class: a derived class's `new`
 * costs more than a flat one's for the same fields and figures (docs/performance.md, "The engines' tail").
 * test/matrix/flat-classes.test.ts holds the rule.
 */
function setOutcomeFields(target: MatrixApprovalOutcome, outcome: ApprovalOutcome): void {
  const a = outcome.approval;
  target.approval_id = a.id;
  target.approval_name = a.name;
  target.doc_level = a.doc_level;
  target.status = outcome.status;
  target.missing_fields = outcome.missing_fields;
  target.deposit_percentage = outcome.deposit_percentage;
  target.deposit_amount = outcome.deposit_amount;
  target.deposit_required = outcome.deposit_required === null ? null : roundMoney(outcome.deposit_required);
  target.max_term = a.max_term;
}

/**
 * A Matrix approval result. Built by `new`, as every per-item engine object is, so it stays young
 * (docs/performance.md, "The engines' tail"); fields are `declare`d, so each is stored once, in the API's order.
 */
class ApprovalResult implements MatrixApprovalResult {
  declare approval_id: number;
  declare approval_name: string;
  declare doc_level: DocLevel;
  declare status: EvaluationStatus;
  declare missing_fields: string[];
  declare deposit_percentage: number | null;
  declare deposit_amount: number | null;
  declare deposit_required: number | null;
  declare max_term: number | null;
  declare rate_bracket_ids: number[];

  constructor(outcome: ApprovalOutcome) {
    setOutcomeFields(this, outcome);
    this.rate_bracket_ids = outcome.approval.rate_bracket_ids;
  }
}

export function financierGroup(group: FinancierGroup): MatrixFinancierGroup {
  return {
    organisation_id: group.organisation_id,
    organisation_name: group.organisation_name,
    approvals: group.approvals.map(approvalResult),
  };
}

/**
 * A masked row keeps who and what (financier, approval, bracket) and loses every figure, in the JSON itself.
 */
export function matrixCalculatorRow(row: JoinedRow, masked: boolean): MatrixCalculatorRow {
  return new ShownRow(row, masked);
}

/**
 * A Matrix Calculator row: the approval's answer, then the card and its figures (none when masked). Built by `new`
 * (see `ApprovalResult`), never as a spread-then-extend object, which drops V8 into slow dictionary mode.
 */
class ShownRow implements MatrixCalculatorRow {
  declare approval_id: number;
  declare approval_name: string;
  declare doc_level: DocLevel;
  declare status: EvaluationStatus;
  declare missing_fields: string[];
  declare deposit_percentage: number | null;
  declare deposit_amount: number | null;
  declare deposit_required: number | null;
  declare max_term: number | null;
  declare organisation_id: number;
  declare organisation_name: string;
  declare product_id: number;
  declare product_name: string;
  declare rate_bracket_id: number;
  declare rate_bracket_name: string;
  declare base_min: string | null;
  declare base_max: string | null;
  declare e_min: string | null;
  declare e_max: string | null;
  declare repayment_min: string | null;
  declare repayment_max: string | null;
  declare balloon: number | null;
  declare commission: number | null;
  declare masked: boolean;
  declare priced_bracket_count: number;

  constructor(row: JoinedRow, masked: boolean) {
    setOutcomeFields(this, row.outcome);
    const b = row.bracket;
    const shown = !masked;
    this.organisation_id = row.outcome.approval.organisation_id;
    this.organisation_name = row.organisation_name;
    this.product_id = b.product_id;
    this.product_name = b.product_name;
    this.rate_bracket_id = b.rate_bracket_id;
    this.rate_bracket_name = b.rate_bracket_name;
    this.base_min = shown ? formatRate(b.base_min) : null;
    this.base_max = shown ? formatRate(b.base_max) : null;
    this.e_min = shown ? formatRate(b.e_min) : null;
    this.e_max = shown ? formatRate(b.e_max) : null;
    this.repayment_min = shown ? formatMoney(b.repayment_min) : null;
    this.repayment_max = shown ? formatMoney(b.repayment_max) : null;
    this.balloon = shown ? roundMoney(b.balloon) : null;
    this.commission = shown ? roundMoney(b.commission) : null;
    this.masked = masked;
    this.priced_bracket_count = row.priced_bracket_count;
  }
}

/** Joined rows as the API shows them, behind the Free-tier paywall: no intermediate copy per row. */
export function matrixCalculatorRows(rows: readonly JoinedRow[], paywall: PaywallOptions): MatrixCalculatorRow[] {
  const masked = maskedRows(rows, paywall);
  const count = rows.length;
  const out = new Array<MatrixCalculatorRow>(count);
  for (let i = 0; i < count; i++) out[i] = matrixCalculatorRow(rows[i], masked !== null && masked[i] === 1);
  return out;
}

type Figure =
  | 'base_min'
  | 'base_max'
  | 'rate_min'
  | 'rate_max'
  | 'e_min'
  | 'e_max'
  | 'repayment_min'
  | 'repayment_max'
  | 'balloon'
  | 'commission';

/** An unjoined priced card of a degraded run ("priced" list): a calculator row, maskable like a Matrix row. */
export type PricedCardItem = Omit<CalculatorRow, Figure> & { [K in Figure]: CalculatorRow[K] | null } & {
  masked: boolean;
};

export function pricedCardItem(row: CalculatorRow, masked: boolean): PricedCardItem {
  if (!masked) return { ...row, masked };
  return {
    ...row,
    masked,
    base_min: null,
    base_max: null,
    rate_min: null,
    rate_max: null,
    e_min: null,
    e_max: null,
    repayment_min: null,
    repayment_max: null,
    balloon: null,
    commission: null,
  };
}
