/**
 * Approval criteria engine: which approvals a deal passes, and how surely (docs/matrix.md, "Outcome rules").
 *
 * Pure: no I/O. The public entry of the criteria engine; its parts:
 * - criteria.rules.ts: the rules, one approval against one deal (`evaluatePrepared`), the definition;
 * - criteria.fast.ts: the criteria table, the same rules over typed arrays, which the services scan;
 * - criteria.unmet.ts: the rules read one criterion at a time (`unmetCriteria`, for structuring);
 * - asset-ancestry.ts: the asset tree as coverage reads it.
 */
import { DOC_LEVELS } from '../../lib/vocabulary.ts';
import type { Approval, ApprovalOutcome, Deal, DocLevel } from '../catalogue/index.ts';
import type { AssetAncestry } from './asset-ancestry.ts';
import { type CriteriaTable, scanTable } from './criteria.fast.ts';
import { evaluatePrepared, prepareDeal } from './criteria.rules.ts';

export { type AssetAncestry, buildAssetAncestry } from './asset-ancestry.ts';
export { buildCriteriaTable, type CriteriaTable } from './criteria.fast.ts';
export { depositRequired, MISSING_FIELD_NAMES, MONEY_TOLERANCE } from './criteria.rules.ts';
export { type UnmetCriterion, unmetCriteria } from './criteria.unmet.ts';

/** Evaluates one approval against one deal: the outcome, or null when a supplied answer violates a criterion (dropped). */
export function evaluateApproval(approval: Approval, deal: Deal, ancestry: AssetAncestry): ApprovalOutcome | null {
  return evaluatePrepared(approval, prepareDeal(deal, ancestry));
}

export interface EvaluateApprovalsOptions {
  /**
   * Organisations whose approvals are evaluated; null = every organisation. When given it replaces
   * `deal.preferred_financier`: the service resolves that list together with what the caller may see
   * (a lender sees only its own organisation). When omitted, `deal.preferred_financier` applies (null/empty = all).
   */
  organisationIds?: ReadonlySet<number> | null;
}

/**
 * Evaluates every approval against one deal; returns the outcomes not dropped, in input order. The hot path passes
 * the snapshot's `CriteriaTable` (built once per catalogue version); a plain list is evaluated approval by approval
 * (no table is built for one call).
 */
export function evaluateApprovals(
  approvals: CriteriaTable | readonly Approval[],
  deal: Deal,
  ancestry: AssetAncestry,
  options: EvaluateApprovalsOptions = {},
): ApprovalOutcome[] {
  const p = prepareDeal(deal, ancestry);
  const organisations =
    options.organisationIds !== undefined
      ? options.organisationIds
      : deal.preferred_financier !== null && deal.preferred_financier.length > 0
        ? new Set(deal.preferred_financier)
        : null;
  const outcomes: ApprovalOutcome[] = [];
  if (isCriteriaTable(approvals)) {
    scanTable(approvals, p, organisations, outcomes);
    return outcomes;
  }
  for (let i = 0; i < approvals.length; i++) {
    const approval = approvals[i];
    if (organisations !== null && !organisations.has(approval.organisation_id)) continue;
    const outcome = evaluatePrepared(approval, p);
    if (outcome !== null) outcomes.push(outcome);
  }
  return outcomes;
}

function isCriteriaTable(approvals: CriteriaTable | readonly Approval[]): approvals is CriteriaTable {
  return !Array.isArray(approvals);
}

// ---------------------------------------------------------------------------------------------
// Ordering and grouping (Matrix result shapes)
// ---------------------------------------------------------------------------------------------

/** Position in DOC_LEVELS: 0 = least onerous. An unknown level sorts after every known one. */
export function docLevelRank(level: DocLevel): number {
  const rank = DOC_LEVELS.indexOf(level);
  return rank < 0 ? DOC_LEVELS.length : rank;
}

const NAME_COLLATOR = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * Name order as a broker reads a list: case- and accent-insensitive, digits by value ("Tier 2" before "Tier 10");
 * names equal that way fall back to code-unit order so the result never depends on input order.
 */
export function compareNames(a: string, b: string): number {
  const c = NAME_COLLATOR.compare(a, b);
  if (c !== 0) return c;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Ascending numeric order with NaN last, so a bad figure can never scramble a sort. */
export function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
}

/** Within a financier: least-onerous doc level, then higher `priority` (the headline row), then approval name, then id. */
function compareWithinFinancier(a: ApprovalOutcome, b: ApprovalOutcome): number {
  return (
    docLevelRank(a.approval.doc_level) - docLevelRank(b.approval.doc_level) ||
    compareNumbers(b.approval.priority, a.approval.priority) ||
    compareNames(a.approval.name, b.approval.name) ||
    a.approval.id - b.approval.id
  );
}

/** A sorted copy; the input is not mutated. */
export function sortApprovalsWithinFinancier(outcomes: readonly ApprovalOutcome[]): ApprovalOutcome[] {
  return [...outcomes].sort(compareWithinFinancier);
}

/** An organisation missing from the names map (a catalogue inconsistency) is named '' rather than failing the run. */
export function organisationNameOf(organisationNames: ReadonlyMap<number, string>, organisationId: number): string {
  return organisationNames.get(organisationId) ?? '';
}

/** MatrixFinancierGroup, before formatting. */
export interface FinancierGroup {
  organisation_id: number;
  organisation_name: string;
  approvals: ApprovalOutcome[];
}

/** Groups outcomes by the approval's organisation: groups by organisation name then id, approvals within each by `compareWithinFinancier`. */
export function groupByFinancier(
  outcomes: readonly ApprovalOutcome[],
  organisationNames: ReadonlyMap<number, string>,
): FinancierGroup[] {
  const byOrganisation = new Map<number, FinancierGroup>();
  for (const outcome of outcomes) {
    const id = outcome.approval.organisation_id;
    let group = byOrganisation.get(id);
    if (group === undefined) {
      group = { organisation_id: id, organisation_name: organisationNameOf(organisationNames, id), approvals: [] };
      byOrganisation.set(id, group);
    }
    group.approvals.push(outcome);
  }
  const groups = [...byOrganisation.values()];
  for (const group of groups) group.approvals.sort(compareWithinFinancier);
  return groups.sort(
    (a, b) => compareNames(a.organisation_name, b.organisation_name) || a.organisation_id - b.organisation_id,
  );
}
