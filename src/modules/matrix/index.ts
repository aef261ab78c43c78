/** The matrix module's public entry: the approvals engine other modules run (through the request's services). */
import type { AssetAncestry, CriteriaTable, evaluateApprovals } from './criteria.ts';

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
