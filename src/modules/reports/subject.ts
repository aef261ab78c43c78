/**
 * An issue report's subject and its grouping key (docs/issue-reports.md "Grouping key"). Pure: no I/O, no GraphQL.
 *
 * group_hash = lowercase hex sha256 of the UTF-8 string
 *   "issue-report/v1\n" + JSON.stringify([kind, subject_org, approval, rate_bracket, subject_field])
 * where each part the kind's subject does not use is null (approval: rate_bracket; pricing: approval), absent parts
 * are null, integers are decimal and subject_field is as sent. JSON.stringify of that array is the same in every
 * process and release, so the key is stable; the version prefix lets a future change of subject start new groups.
 */
import { createHash } from 'node:crypto';
import type { IssueReportKind } from '../../lib/vocabulary.ts';

/** Approval criteria a broker can call wrong or stale (the Approval resource's fields). */
const APPROVAL_SUBJECT_FIELDS = [
  'name',
  'doc_level',
  'min_deposit_percentage',
  'min_deposit_amount',
  'min_term',
  'max_term',
  'min_abn_age',
  'max_abn_age',
  'min_gst_age',
  'max_gst_age',
  'min_asset_age',
  'max_asset_age',
  'min_asset_cost',
  'max_asset_cost',
  'min_borrower_age',
  'max_borrower_age',
  'min_file_age',
  'max_file_age',
  'min_credit_score',
  'max_credit_score',
  'home_owner',
  'private_sale',
  'sale_hire_back',
  'asset_state',
  'transaction_types',
  'industries',
  'asset_ids',
  'rate_bracket_ids',
] as const;

/** Rate and repayment figures a result row shows, and the card terms behind them. */
const PRICING_SUBJECT_FIELDS = [
  'base_min',
  'base_max',
  'rate_min',
  'rate_max',
  'e_min',
  'e_max',
  'repayment_min',
  'repayment_max',
  'balloon',
  'commission',
  'amount_financed',
  'monthly_fee',
  'documentation_fee',
  'brokerage_cap',
  'max_lvr',
  'min_term',
  'max_term',
  'min_amount',
  'max_amount',
] as const;

export const SUBJECT_FIELDS: Record<IssueReportKind, readonly string[]> = {
  approval: APPROVAL_SUBJECT_FIELDS,
  pricing: PRICING_SUBJECT_FIELDS,
};

export interface SubjectInput {
  subject_org?: number | null;
  approval?: number | null;
  rate_bracket?: number | null;
  subject_field?: string | null;
}

export interface Subject {
  subject_org: number | null;
  approval: number | null;
  rate_bracket: number | null;
  subject_field: string | null;
}

/** The parts of the subject `kind` uses (the others null): what a report of that kind stores. */
export function subjectOf(kind: IssueReportKind, input: SubjectInput): Subject {
  return {
    subject_org: input.subject_org ?? null,
    approval: kind === 'approval' ? (input.approval ?? null) : null,
    rate_bracket: kind === 'pricing' ? (input.rate_bracket ?? null) : null,
    subject_field: input.subject_field ?? null,
  };
}

/** A complete subject names the financier, the approval (approval) or rate bracket (pricing), and a known field. */
export function isComplete(kind: IssueReportKind, s: Subject): boolean {
  const target = kind === 'approval' ? s.approval : s.rate_bracket;
  return (
    s.subject_org !== null &&
    target !== null &&
    s.subject_field !== null &&
    SUBJECT_FIELDS[kind].includes(s.subject_field)
  );
}

export function groupHash(kind: IssueReportKind, s: Subject): string {
  const canonical = JSON.stringify([kind, s.subject_org, s.approval, s.rate_bracket, s.subject_field]);
  return createHash('sha256').update(`issue-report/v1\n${canonical}`, 'utf8').digest('hex');
}
