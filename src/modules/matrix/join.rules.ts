/**
 * Matrix Calculator join rules (docs/matrix.md, "Matrix Calculator join"): the rate bracket is the join key.
 *
 * Pure: what a joined row is, which bracket it carries, the row order and the Free-tier paywall. The join itself
 * (`joinMatrixCalculator`, join.fast.ts) follows these rules over typed arrays; the public entry is join.ts.
 * - One row per approval that has at least one priced bracket, carrying the cheapest of them (Rule 13, the pricing
 *   engine's `compareCheapest`); an approval none of whose brackets priced is omitted but still counts in
 *   `destination_count`.
 * - Only brackets of the approval's own organisation join: a link to another financier's card is a catalogue error
 *   and must never put one lender's rate under another's approval.
 * - A bracket id linked twice by one approval counts once; a bracket priced twice keeps the cheaper.
 * - Rows in `compareJoinedRows` order.
 */
import type { PricedBracket } from '../pricing/index.ts';
import { roundRate } from '../pricing/index.ts';
import type { ApprovalOutcome } from './criteria.ts';
import { compareNames, compareNumbers, docLevelRank } from './results.ts';

/** One MatrixCalculatorRow before formatting. */
export interface JoinedRow {
  outcome: ApprovalOutcome;
  /** The cheapest priced bracket this approval accepts for the deal (Rule 13). */
  bracket: PricedBracket;
  /** How many of the approval's linked brackets survived pricing, not how many it has configured. */
  priced_bracket_count: number;
  organisation_name: string;
}

export interface MatrixCalculatorJoin {
  rows: JoinedRow[];
  /** Rate cards that survived pricing (distinct priced brackets). */
  priced_count: number;
  /** Approvals not ruled out, whether or not any of their brackets priced: can exceed `rows.length`. */
  destination_count: number;
}

/** The row order's first key: `confirmed` before `possible`. */
export const STATUS_RANK = { confirmed: 0, possible: 1 } as const;

/** `e_min` as the row shows it (4 dp, Rule 10): rows a broker reads as equal fall through to the next key. */
const shownEMin = (row: JoinedRow): number => roundRate(row.bracket.e_min);

/**
 * Row order: `confirmed` before `possible`, then least-onerous doc level, then `e_min` ascending (numeric, as
 * shown), then financier name, then approval id; the bracket id last only makes the order total.
 */
export function compareJoinedRows(a: JoinedRow, b: JoinedRow): number {
  return (
    STATUS_RANK[a.outcome.status] - STATUS_RANK[b.outcome.status] ||
    docLevelRank(a.outcome.approval.doc_level) - docLevelRank(b.outcome.approval.doc_level) ||
    compareNumbers(shownEMin(a), shownEMin(b)) ||
    compareNames(a.organisation_name, b.organisation_name) ||
    a.outcome.approval.id - b.outcome.approval.id ||
    a.bracket.rate_bracket_id - b.bracket.rate_bracket_id
  );
}

/**
 * A joined row. Built by `new`, as every per-item engine object is, so it stays young (docs/performance.md,
 * "The engines' tail").
 */
export class Joined implements JoinedRow {
  declare outcome: ApprovalOutcome;
  declare bracket: PricedBracket;
  declare priced_bracket_count: number;
  declare organisation_name: string;

  constructor(outcome: ApprovalOutcome, bracket: PricedBracket, pricedBracketCount: number, organisationName: string) {
    this.outcome = outcome;
    this.bracket = bracket;
    this.priced_bracket_count = pricedBracketCount;
    this.organisation_name = organisationName;
  }
}

/** Free-tier paywall (docs/matrix.md): this many rows keep their figures. */
export const FREE_TIER_VISIBLE_ROWS = 3;

export interface PaywallOptions {
  /** True when the caller's plan masks rows (Free tier). */
  masked: boolean;
}

/**
 * Free-tier paywall: when `masked`, the three rows with the lowest shown `e_min` keep their figures (ties go to the
 * earlier row in the given order) and every other row is masked. Answers the verdict without copying rows: 1 at each
 * masked row's index, or null when nothing is masked (an unmasked plan, the hot case, allocates nothing). Nulling
 * the figures is the formatting layer's job (`matrixCalculatorRows`), so masked values never reach the JSON.
 */
export function maskedRows(rows: readonly JoinedRow[], options: PaywallOptions): Uint8Array | null {
  if (!options.masked) return null;
  const count = rows.length;
  // The lowest three by (e_min, position), in one pass: rows are visited in order, so a tie never displaces
  // an earlier row.
  const visible: number[] = [];
  const visibleE: number[] = [];
  for (let i = 0; i < count; i++) {
    const e = shownEMin(rows[i]);
    let at = visible.length;
    while (at > 0 && compareNumbers(e, visibleE[at - 1]) < 0) at--;
    if (at < FREE_TIER_VISIBLE_ROWS) {
      visible.splice(at, 0, i);
      visibleE.splice(at, 0, e);
      if (visible.length > FREE_TIER_VISIBLE_ROWS) {
        visible.pop();
        visibleE.pop();
      }
    }
  }
  const masked = new Uint8Array(count).fill(1);
  for (const i of visible) masked[i] = 0;
  return masked;
}
