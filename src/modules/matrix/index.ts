/** Approval Matrix and Matrix Calculator engines: pure, no I/O. See docs/matrix.md. */
export {
  buildAssetAncestry,
  compareNames,
  compareNumbers,
  compareWithinFinancier,
  docLevelRank,
  evaluateApproval,
  evaluateApprovals,
  groupByFinancier,
  MISSING_FIELD_NAMES,
  MONEY_TOLERANCE,
  organisationNameOf,
  sortApprovalsWithinFinancier,
} from './criteria.ts';
export type { AssetAncestry, EvaluateApprovalsOptions, FinancierGroup, MissingField } from './criteria.ts';
export {
  applyPaywall,
  compareCheapest,
  compareJoinedRows,
  FREE_TIER_VISIBLE_ROWS,
  joinMatrixCalculator,
} from './join.ts';
export type { JoinedRow, MatrixCalculatorJoin, PaywallOptions } from './join.ts';
