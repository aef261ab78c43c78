/**
 * The matrix module's public entry: the approvals engine other modules run (through the request's services) and the
 * Matrix Calculator's run (metered, or as system work).
 */
import type { AssetAncestry, CriteriaTable, evaluateApprovals } from './criteria.ts';

export {
  buildAssetAncestry,
  buildCriteriaTable,
  evaluateApprovals,
  MISSING_FIELD_NAMES,
  type AssetAncestry,
  depositRequired,
  evaluateApproval,
  evaluatePrepared,
  MONEY_TOLERANCE,
  prepareDeal,
  type PreparedDeal,
  unmetCriteria,
  type UnmetCriterion,
  type UnmetVisitor,
  visitUnmetCriteria,
} from './criteria.ts';
export { FREE_TIER_VISIBLE_ROWS } from './join.ts';
export { compareNames, docLevelRank } from './results.ts';

declare module '../../lib/service-context.ts' {
  interface Engines {
    evaluateApprovals: typeof evaluateApprovals;
  }
}

declare module '../catalogue/snapshot.ts' {
  interface CatalogueIndexes {
    /** The approvals' criteria laid out for the criteria engine's scan (`evaluateApprovals`). */
    criteria: CriteriaTable;
    ancestry: AssetAncestry;
  }
}
export { runMatrixCalculator } from './service.ts';
