/**
 * The Matrix Calculator join over typed arrays: the join rules (join.rules.ts) for thousands of outcomes and priced
 * brackets per run, linear in approvals + priced brackets + approval-to-bracket links (brackets are indexed by id
 * once, never scanned per approval). Every sort key is worked out once per priced bracket or row into typed arrays,
 * so comparisons read numbers instead of rounding figures or collating names each time: the same orders as
 * `compareCheapest` and `compareJoinedRows`, which stay the definitions (test/pricing/engine.test.ts's Rule 13,
 * test/matrix/join.test.ts and test/matrix/market-join.test.ts hold the join to them).
 */
import { nextGeneration } from '../../lib/generations.ts';
import type { PricedBracket, PricedMarket } from '../pricing/index.ts';
import { roundMoney, roundRate } from '../pricing/index.ts';
import type { ApprovalOutcome } from './criteria.ts';
import { compareNames, compareNumbers, docLevelRank, organisationNameOf } from './results.ts';
import { Joined, type JoinedRow, type MatrixCalculatorJoin, STATUS_RANK } from './join.rules.ts';

/**
 * Joins approval outcomes to priced brackets through each approval's `rate_bracket_ids`, by the join rules
 * (join.rules.ts). `priced` is the pricing engine's rows, or its `PricedMarket` (the service's call): then only the
 * brackets the join shows get a row object, built once each however many approvals show them.
 */
export function joinMatrixCalculator(
  outcomes: readonly ApprovalOutcome[],
  priced: readonly PricedBracket[] | PricedMarket,
  organisationNames: ReadonlyMap<number, string>,
): MatrixCalculatorJoin {
  const market: PricedMarket = isRowList(priced) ? new RowMarket(priced) : priced;
  // Rule 13 keys, as the row shows them, once per priced bracket. `priced` may come in any order (the service's
  // market is in catalogue order): only each approval's cheapest is wanted, picked pairwise below.
  const count = market.count;
  const keys = grown(keyScratch, count);
  const shownE = keys.e;
  const shownRepayment = keys.repayment;
  const ids = keys.id;
  const organisations = keys.organisation;
  for (let k = 0; k < count; k++) {
    shownE[k] = roundRate(market.eMin(k));
    shownRepayment[k] = roundMoney(market.repaymentMin(k));
    ids[k] = market.rateBracketId(k);
    organisations[k] = market.organisationId(k);
  }
  // compareCheapest on the keys. Pairwise, so a non-finite figure (no total order: NaN falls through to the next
  // key) is compared exactly as the definition does; for finite figures it is a total order, so any input order
  // picks the same bracket.
  const cheaper = (a: number, b: number): number =>
    shownE[a] - shownE[b] || shownRepayment[a] - shownRepayment[b] || ids[a] - ids[b];

  // bracket id -> position in `priced`. A bracket priced twice should not happen; if it does, keep the cheaper (the
  // earlier on a tie) so the answer is deterministic.
  const table = positionTable(ids, count);
  let pricedCount = 0;
  for (let k = 0; k < count; k++) {
    const id = ids[k];
    const seen = positionOf(table, id);
    if (seen < 0) pricedCount++;
    if (seen < 0 || cheaper(k, seen) < 0) setPosition(table, id, k);
  }

  // position -> index of the outcome that last counted it: dedupes repeated links with one array for the whole run.
  const countedFor = keys.countedFor;
  countedFor.fill(-1, 0, count);
  // position -> index in `shown` of its row object, once built (-1: not yet).
  const shownAt = keys.shownAt;
  shownAt.fill(-1, 0, count);
  const shown: PricedBracket[] = [];
  const rows: JoinedRow[] = [];
  const rowBracket: number[] = [];
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i];
    const approval = outcome.approval;
    const links = approval.rate_bracket_ids;
    let cheapest = -1;
    let linked = 0;
    for (let k = 0; k < links.length; k++) {
      const position = positionOf(table, links[k]);
      if (position < 0 || countedFor[position] === i) continue;
      if (organisations[position] !== approval.organisation_id) continue;
      countedFor[position] = i;
      linked++;
      if (cheapest < 0 || cheaper(position, cheapest) < 0) cheapest = position;
    }
    if (cheapest >= 0) {
      if (shownAt[cheapest] < 0) {
        shownAt[cheapest] = shown.length;
        shown.push(market.row(cheapest));
      }
      rows.push(
        new Joined(
          outcome,
          shown[shownAt[cheapest]],
          linked,
          organisationNameOf(organisationNames, approval.organisation_id),
        ),
      );
      rowBracket.push(cheapest);
    }
  }
  return {
    rows: sortJoinedRows(rows, rowBracket, shownE),
    priced_count: pricedCount,
    destination_count: outcomes.length,
  };
}

function isRowList(priced: readonly PricedBracket[] | PricedMarket): priced is readonly PricedBracket[] {
  return Array.isArray(priced);
}

/** Rows already built, read as a market: `row(k)` is the row itself. */
class RowMarket implements PricedMarket {
  constructor(private readonly rows: readonly PricedBracket[]) {}
  get count(): number {
    return this.rows.length;
  }
  rateBracketId(k: number): number {
    return this.rows[k].rate_bracket_id;
  }
  organisationId(k: number): number {
    return this.rows[k].organisation_id;
  }
  eMin(k: number): number {
    return this.rows[k].e_min;
  }
  repaymentMin(k: number): number {
    return this.rows[k].repayment_min;
  }
  row(k: number): PricedBracket {
    return this.rows[k];
  }
}

/**
 * Per-bracket scratch of the join, reused by every call (the join is synchronous, so never by two at once): a run
 * prices about a thousand brackets, and fresh arrays each time are garbage the engines' p99 pays for.
 */
const keyScratch = {
  e: new Float64Array(0),
  repayment: new Float64Array(0),
  id: new Float64Array(0),
  organisation: new Float64Array(0),
  countedFor: new Int32Array(0),
  shownAt: new Int32Array(0),
};

/** `scratch`'s typed arrays, each replaced by a larger one (contents not kept) where shorter than `count`. */
function grown<T extends Record<string, Float64Array | Int32Array>>(scratch: T, count: number): T {
  for (const key in scratch) {
    const array = scratch[key];
    if (array.length < count) {
      const size = Math.max(count, array.length * 2, 1024);
      scratch[key] = (array instanceof Float64Array ? new Float64Array(size) : new Int32Array(size)) as T[typeof key];
    }
  }
  return scratch;
}

/**
 * Bracket id -> position in `priced`. Database ids are small non-negative integers, so the usual table is dense:
 * typed arrays indexed by id, no hashing per link. An entry counts only when its stamp is the call's generation, so
 * nothing is cleared between calls; the arrays are reused by every call (the join is synchronous, so never by two
 * at once). Other ids (negative, fractional, huge) take a Map.
 */
interface PositionTable {
  map: Map<number, number> | null;
  generation: number;
  stamp: Uint32Array;
  position: Int32Array;
}

/** Ids above this use a Map: the dense table is sized by the largest id. */
const DENSE_ID_LIMIT = 1 << 22;
const dense: PositionTable = { map: null, generation: 0, stamp: new Uint32Array(0), position: new Int32Array(0) };

function positionTable(ids: Float64Array, count: number): PositionTable {
  let largest = -1;
  for (let k = 0; k < count; k++) {
    const id = ids[k];
    if (!Number.isInteger(id) || id < 0 || id >= DENSE_ID_LIMIT) {
      return { map: new Map(), generation: 0, stamp: dense.stamp, position: dense.position };
    }
    if (id > largest) largest = id;
  }
  if (largest >= dense.stamp.length) {
    const size = Math.min(DENSE_ID_LIMIT, Math.max(largest + 1, dense.stamp.length * 2, 1024));
    dense.stamp = new Uint32Array(size);
    dense.position = new Int32Array(size);
    dense.generation = 0;
  }
  nextGeneration(dense, dense.stamp);
  return dense;
}

/** -1 when no priced bracket has this id (any number at all: a link may name a bracket that did not price). */
function positionOf(table: PositionTable, id: number): number {
  if (table.map !== null) return table.map.get(id) ?? -1;
  return id >= 0 && id < table.stamp.length && table.stamp[id] === table.generation ? table.position[id] : -1;
}

function setPosition(table: PositionTable, id: number, position: number): void {
  if (table.map !== null) table.map.set(id, position);
  else {
    table.stamp[id] = table.generation;
    table.position[id] = position;
  }
}

/**
 * `rows` in `compareJoinedRows` order, each row's keys read once: status and doc level ranks, the shown e_min of its
 * bracket (`shownE` at `rowBracket`), and names collated only when two rows tie on everything before and name
 * different financiers. Stable, as Array.prototype.sort is (insertion takes strictly smaller rows forward, and a merge
 * takes from its left run on a tie), though the order is total anyway: no two rows share an approval.
 *
 * A merge sort written here rather than `Array.prototype.sort` with a comparator: the builtin calls the comparator
 * through a generic call per comparison, which was most of the sort's time; here `before` is inlined into the loops.
 */
function sortJoinedRows(rows: readonly JoinedRow[], rowBracket: readonly number[], shownE: Float64Array): JoinedRow[] {
  const count = rows.length;
  const { rank, e, order, spare } = grown(sortKeys, count);
  for (let k = 0; k < count; k++) {
    const outcome = rows[k].outcome;
    rank[k] = STATUS_RANK[outcome.status] * 1024 + docLevelRank(outcome.approval.doc_level);
    e[k] = shownE[rowBracket[k]];
    order[k] = k;
  }
  /** True when row x sorts before row y: `compareJoinedRows` on the keys read above. */
  const before = (x: number, y: number): boolean => {
    const rx = rank[x];
    const ry = rank[y];
    if (rx !== ry) return rx < ry;
    const byE = compareNumbers(e[x], e[y]);
    if (byE !== 0) return byE < 0;
    const a = rows[x];
    const b = rows[y];
    return (
      ((a.organisation_name === b.organisation_name ? 0 : compareNames(a.organisation_name, b.organisation_name)) ||
        a.outcome.approval.id - b.outcome.approval.id ||
        a.bracket.rate_bracket_id - b.bracket.rate_bracket_id) < 0
    );
  };
  // Runs of up to RUN rows by insertion, then merged pairwise, back and forth between `order` and `spare`.
  for (let start = 0; start < count; start += RUN) {
    const end = Math.min(start + RUN, count);
    for (let i = start + 1; i < end; i++) {
      const row = order[i];
      let j = i - 1;
      while (j >= start && before(row, order[j])) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = row;
    }
  }
  let from = order;
  let to = spare;
  for (let width = RUN; width < count; width *= 2) {
    for (let left = 0; left < count; left += 2 * width) {
      const middle = Math.min(left + width, count);
      const right = Math.min(left + 2 * width, count);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) to[k++] = before(from[j], from[i]) ? from[j++] : from[i++];
      while (i < middle) to[k++] = from[i++];
      while (j < right) to[k++] = from[j++];
    }
    [from, to] = [to, from];
  }
  const sorted = new Array<JoinedRow>(count);
  for (let k = 0; k < count; k++) sorted[k] = rows[from[k]];
  return sorted;
}

/** Rows sorted by insertion before merging: short runs are cheaper to insert than to merge. */
const RUN = 16;

/** The sort's keys and positions, reused by every call (the join is synchronous, so never by two at once). */
const sortKeys = {
  rank: new Int32Array(0),
  e: new Float64Array(0),
  order: new Int32Array(0),
  spare: new Int32Array(0),
};
