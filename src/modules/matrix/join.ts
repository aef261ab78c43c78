/**
 * Matrix Calculator join (docs/matrix.md, "Matrix Calculator join"): the rate bracket is the join key.
 *
 * Pure: takes the criteria engine's outcomes and the pricing engine's priced brackets and returns one row per
 * approval that has at least one priced bracket, carrying the cheapest of them (docs/pricing.md, "Sorting").
 * Linear in approvals + priced brackets + approval-to-bracket links: brackets are indexed by id once, never
 * scanned per approval.
 */
import type { ApprovalOutcome, PricedBracket } from '../catalogue/model.ts';
import { compareCheapest } from '../pricing/engine.ts';
import { roundRate } from '../pricing/finance.ts';
import { compareNames, compareNumbers, docLevelRank, organisationNameOf } from './criteria.ts';

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

/** Rule 13 Cheapest: one definition for both engines, comparing figures as the row shows them. */
export { compareCheapest };

const STATUS_RANK = { confirmed: 0, possible: 1 } as const;

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
 * Joins approval outcomes to priced brackets through each approval's `rate_bracket_ids`.
 * - An approval none of whose brackets priced is omitted (it still counts in `destination_count`).
 * - Only brackets of the approval's own organisation join: a link to another financier's card is a catalogue
 *   error and must never put one lender's rate under another's approval.
 * - A bracket id linked twice by one approval counts once.
 */
export function joinMatrixCalculator(
  outcomes: readonly ApprovalOutcome[],
  priced: readonly PricedBracket[],
  organisationNames: ReadonlyMap<number, string>,
): MatrixCalculatorJoin {
  const pricedById = new Map<number, PricedBracket>();
  for (const bracket of priced) {
    // A bracket priced twice should not happen; if it does, keep the cheaper so the answer is deterministic.
    const seen = pricedById.get(bracket.rate_bracket_id);
    if (seen === undefined || compareCheapest(bracket, seen) < 0) pricedById.set(bracket.rate_bracket_id, bracket);
  }

  // bracket id -> index of the outcome that last counted it: dedupes repeated links with one map for the whole run.
  const countedFor = new Map<number, number>();
  const rows: JoinedRow[] = [];
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i];
    const approval = outcome.approval;
    const links = approval.rate_bracket_ids;
    let cheapest: PricedBracket | undefined;
    let count = 0;
    for (let k = 0; k < links.length; k++) {
      const bracket = pricedById.get(links[k]);
      if (bracket === undefined || bracket.organisation_id !== approval.organisation_id) continue;
      if (countedFor.get(links[k]) === i) continue;
      countedFor.set(links[k], i);
      count++;
      if (cheapest === undefined || compareCheapest(bracket, cheapest) < 0) cheapest = bracket;
    }
    if (cheapest !== undefined) {
      rows.push({
        outcome,
        bracket: cheapest,
        priced_bracket_count: count,
        organisation_name: organisationNameOf(organisationNames, approval.organisation_id),
      });
    }
  }
  rows.sort(compareJoinedRows);
  return { rows, priced_count: pricedById.size, destination_count: outcomes.length };
}

/** Free-tier paywall (docs/matrix.md): this many rows keep their figures. */
export const FREE_TIER_VISIBLE_ROWS = 3;

export interface PaywallOptions {
  /** True when the caller's plan masks rows (Free tier). */
  masked: boolean;
}

/**
 * Free-tier paywall: when `masked`, the three rows with the lowest shown `e_min` keep their figures (ties go to the
 * earlier row in the given order) and every other row is flagged `masked`. Returns copies in the same order with
 * a `masked` flag; the inputs are not mutated. Nulling the figures is the formatting layer's job, so masked
 * values never reach the JSON.
 */
export function applyPaywall<R extends JoinedRow>(
  rows: readonly R[],
  options: PaywallOptions,
): Array<R & { masked: boolean }> {
  if (!options.masked) return rows.map((row) => ({ ...row, masked: false }));

  // The lowest three by (e_min, position), in one pass: rows are visited in order, so a tie never displaces
  // an earlier row.
  const visible: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    let at = visible.length;
    while (at > 0 && compareNumbers(shownEMin(rows[i]), shownEMin(rows[visible[at - 1]])) < 0) at--;
    if (at < FREE_TIER_VISIBLE_ROWS) {
      visible.splice(at, 0, i);
      if (visible.length > FREE_TIER_VISIBLE_ROWS) visible.pop();
    }
  }
  return rows.map((row, i) => ({ ...row, masked: !visible.includes(i) }));
}
