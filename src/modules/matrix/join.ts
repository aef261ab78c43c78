/**
 * Matrix Calculator join (docs/matrix.md, "Matrix Calculator join"): the public entry. The rules (the joined row,
 * Rule 13 Cheapest, the row order, the Free-tier paywall) are join.rules.ts; the join over typed arrays is join.fast.ts.
 */
export { joinMatrixCalculator } from './join.fast.ts';
export {
  compareJoinedRows,
  FREE_TIER_VISIBLE_ROWS,
  type JoinedRow,
  maskedRows,
  type PaywallOptions,
} from './join.rules.ts';
