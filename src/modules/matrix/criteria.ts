/**
 * Approval criteria engine: which approvals a deal passes, and how surely (docs/matrix.md, "Outcome rules").
 *
 * Pure: no I/O. The public entry of the criteria engine; its parts:
 * - criteria.rules.ts: the rules, one approval against one deal (`evaluatePrepared`), the definition;
 * - criteria.fast.ts: the criteria table, the same rules over typed arrays, which the services scan;
 * - criteria.unmet.ts: the rules read one criterion at a time (`unmetCriteria`, for structuring);
 * - asset-ancestry.ts: the asset tree as coverage reads it.
 */
import type { Approval } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import type { AssetAncestry } from './asset-ancestry.ts';
import { type CriteriaTable, scanTable } from './criteria.fast.ts';
import { type ApprovalOutcome, evaluatePrepared, prepareDeal } from './criteria.rules.ts';

export { type AssetAncestry, buildAssetAncestry } from './asset-ancestry.ts';
export { buildCriteriaTable, type CriteriaTable } from './criteria.fast.ts';
export {
  type ApprovalOutcome,
  depositRequired,
  evaluatePrepared,
  MISSING_FIELD_NAMES,
  MONEY_TOLERANCE,
  prepareDeal,
  type PreparedDeal,
} from './criteria.rules.ts';
export { type UnmetCriterion, type UnmetVisitor, unmetCriteria, visitUnmetCriteria } from './criteria.unmet.ts';

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
