/**
 * What the structuring fast path finds on one product per deal (deal-work.fast.ts): its amount financed over the deposit
 * grids, the first k per bound and the thresholds per amount range, kept as short flat lists; and the bisection that
 * finds a first k from a guess (`firstTrueFrom`).
 */
import { firstTrue } from './engine.ts';

/**
 * A bracket's deposit thresholds on each grid: the first k whose amount financed is at most its maximum, and below its
 * minimum. Read up to the deal's grid count: the lists are reused across deals (`Linked.ownThresholds`).
 */
export interface Thresholds {
  belowMax: number[];
  belowMin: number[];
  /** The same in dollars, per grid: a deposit at most `low` finances above the maximum, at least `high` below the minimum. */
  low: number[];
  high: number[];
}

/** Where a bracket's product prices: a deal at these figures with no deposit. */
export interface Reference {
  wait: number;
  term: number;
  balloon: number;
}

/**
 * One product's amount financed over a deal's deposit grids, and what was found on it: the first k per grid, side and
 * bound (`firstK`) and the thresholds per amount range its brackets have (`thresholdsOf`). A product has a few amount
 * tiers, so each is a short flat list looked through, not a map (a deal keeps one line per product reached, and a map
 * weighs far more than the few entries it would hold); past `SHORT` entries they go to one map per line.
 */
export interface ProductLine {
  /** Where it is read (the product prices there), through one of its brackets (`id`). */
  reference: Reference;
  id: number;
  /**
   * The amounts with no deposit and at the most any search tries (`DealWork.dMax`: the least any candidate finances,
   * which the repayment floors read), and the slope between them per dollar (a first guess on the dollar grid; the
   * percentage grid's first k follow from its, `DealWork.firstK`). -Infinity where the product gives none.
   */
  first: number;
  top: number;
  slope: number;
  /** Pairs (grid * 2 + 1 when "below", bound), and the first k found for each: the first `kCount` of them. */
  kKeys: number[];
  kValues: number[];
  kCount: number;
  /** Pairs (min, max), and the thresholds of the brackets with that range: the first `rangeCount` of them. */
  ranges: number[];
  shared: Thresholds[];
  /**
   * Counted, not the lists' lengths: a line is reused by the next deal (scratch.fast.ts), which writes over the lists
   * from the start rather than making new ones.
   */
  rangeCount: number;
  /** Entries past `SHORT`, keyed by number (a string key would be built on every look-up). */
  many: Many | null;
}

/** An empty line read at `reference` through bracket `id` (two grids at most: a deal's whole dollars and percentage). */
export function blankLine(reference: Reference, id: number): ProductLine {
  return {
    reference,
    id,
    first: 0,
    top: 0,
    // NaN until set, as a deal with no deposit room leaves it: the field holds a double from the start.
    slope: Number.NaN,
    kKeys: [],
    kValues: [],
    kCount: 0,
    ranges: [],
    shared: [],
    rangeCount: 0,
    many: null,
  };
}

/** A line's entries past its short lists: side -> bound -> first k, and min -> max -> thresholds. */
export interface Many {
  k: Map<number, Map<number, number>>;
  t: Map<number, Map<number, Thresholds>>;
}

const manyOf = (line: ProductLine): Many => (line.many ??= { k: new Map(), t: new Map() });

/** `outer`'s inner map at `key`, made when missing. */
export function inner<V>(outer: Map<number, Map<number, V>>, key: number): Map<number, V> {
  let map = outer.get(key);
  if (map === undefined) outer.set(key, (map = new Map()));
  return map;
}

/** Entries a line's short lists hold before the rest go to its map: a look through them stays a few comparisons. */
const SHORT = 16;

/** The value a line keeps under (a, b): the first `count` of its short lists, then its map. */
function kept<V>(
  keys: number[],
  values: V[],
  count: number,
  many: Map<number, Map<number, V>> | undefined,
  a: number,
  b: number,
) {
  for (let i = 0; i < count; i++) if (keys[2 * i] === a && keys[2 * i + 1] === b) return values[i];
  return many?.get(a)?.get(b);
}

/**
 * Keeps `value` under (a, b): as entry `count` of the short lists while they hold fewer than `SHORT`, then in the map
 * `which` picks. The short lists' new count.
 */
function keep<V>(
  line: ProductLine,
  keys: number[],
  values: V[],
  count: number,
  which: (many: Many) => Map<number, Map<number, V>>,
  a: number,
  b: number,
  value: V,
): number {
  if (count < SHORT) {
    keys[2 * count] = a;
    keys[2 * count + 1] = b;
    values[count] = value;
    return count + 1;
  }
  inner(which(manyOf(line)), a).set(b, value);
  return count;
}

const firstKs = (many: Many) => many.k;
const thresholds = (many: Many) => many.t;

export const keptK = (line: ProductLine, side: number, bound: number): number | undefined =>
  kept(line.kKeys, line.kValues, line.kCount, line.many?.k, side, bound);

export const keepK = (line: ProductLine, side: number, bound: number, k: number): void => {
  line.kCount = keep(line, line.kKeys, line.kValues, line.kCount, firstKs, side, bound, k);
};

export const sharedOf = (line: ProductLine, min: number, max: number): Thresholds | undefined =>
  kept(line.ranges, line.shared, line.rangeCount, line.many?.t, min, max);

export const keepShared = (line: ProductLine, min: number, max: number, t: Thresholds): void => {
  line.rangeCount = keep(line, line.ranges, line.shared, line.rangeCount, thresholds, min, max, t);
};

/**
 * `firstTrue` (the first k in [lo, hi) a monotone test holds for, else hi) started from a guess: k is the answer
 * exactly when the test holds at k (or k is hi) and not at k - 1 (or k is lo), so a near guess costs two tests; a far
 * one gallops away from it until the answer is bracketed, then bisects there. Any guess gives `firstTrue`'s answer.
 */
export function firstTrueFrom(lo: number, hi: number, guess: number, test: (k: number) => boolean): number {
  if (!Number.isFinite(guess)) return firstTrue(lo, hi, test);
  // `k >= hi || test(k)` written out, not as a closure: this runs thousands of times a deal.
  let at = Math.min(hi, Math.max(lo, guess));
  let step = 1;
  if (at >= hi || test(at)) {
    // The answer is at or below `at`.
    for (;;) {
      const k = at - step;
      if (k < lo) return firstTrue(lo, at, test);
      if (!(k >= hi || test(k))) return firstTrue(k + 1, at, test);
      at = k;
      step *= 2;
    }
  }
  // The answer is above `at`.
  for (;;) {
    const k = at + step;
    if (k >= hi) return firstTrue(at + 1, hi, test);
    if (test(k)) return firstTrue(at + 1, k, test);
    at = k;
    step *= 2;
  }
}
