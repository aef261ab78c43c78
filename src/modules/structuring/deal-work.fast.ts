/**
 * What one deal's structuring search shares across approvals (engine.fast.ts): the deal after each wait, whether a
 * product prices a term at all, each bracket's deposit thresholds, repayment floors and priced rows, each asked once
 * per deal.
 */
import type { Approval } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import { evaluatePrepared, MONEY_TOLERANCE, type PreparedDeal, prepareDeal } from '../matrix/index.ts';
import {
  amountFinancedCents,
  bracketAdmits,
  type PricedBracket,
  priceOneBracket,
  productOfBracket,
  repaymentFloor,
  termsAllowed,
} from '../pricing/index.ts';
import {
  advancedDeal,
  amountRange,
  changedDeal,
  firstTrue,
  leverChange,
  type StructuringCatalogue,
  type StructuringInput,
  wholeAtLeast,
  wholeAtMost,
} from './engine.ts';
import {
  blankLine,
  firstTrueFrom,
  inner,
  keepK,
  keepShared,
  keptK,
  type ProductLine,
  type Reference,
  sharedOf,
  type Thresholds,
} from './product-line.fast.ts';
import { borrowScratch, giveBack, type Linked, referenceOf, type Scratch } from './scratch.fast.ts';

export { firstTrueFrom, type Linked, referenceOf, type Reference, type Thresholds };

/** A deposit grid: whole dollars, or whole percentage points of `deposit_base`. */
export interface Grid {
  value(k: number): number;
  step: number;
  /** The last k within `max_deposit`. */
  last: number;
}

/** The per-term tables a product keeps in the scratch (`keptTerms`): a deal asks a few (wait, balloon) pairs. */
const KEPT_TERM_TABLES = 4;

/** What one deal's search shares across approvals: bases per wait, product feasibility, thresholds, priced brackets. */
export class DealWork {
  readonly d0: number;
  readonly t0: number;
  readonly b0: number;
  readonly grids: Grid[];
  /** True when a grid value other than the deal's deposit is no change from it (`leverChange` 0). */
  readonly nearOwnDeposit: boolean;
  /** The longest term any search tries. */
  readonly maxTerm: number;
  /** The balloons the cheapest search tries, in its order: the deal's own, then the bounds' ends. */
  readonly cheapestBalloons: readonly number[];
  private readonly bases = new Map<number, Deal>();
  /** wait -> the deal after it as the criteria engine prepares it, read with each changed deal (`confirms`). */
  private readonly prepared = new Map<number, { -readonly [K in keyof PreparedDeal]: PreparedDeal[K] }>();
  /** wait -> a deal reused for questions whose answer keeps no reference to it (`probe`). */
  private readonly probes = new Map<number, Deal>();
  /** The wait `probe` was asked last (-1: none yet) and its deal. */
  private probeWait = -1;
  private lastProbe: Deal | undefined = undefined;
  /** wait -> balloon -> product id -> per term: 1 prices, 2 cannot price whatever the deposit ([0]: 0 not asked yet). */
  private readonly feasible = new Map<number, Map<number, Map<number, Int8Array>>>();
  /** The snapshot's scratch while this deal holds it (`release` gives it back); null: another deal holds it. */
  private scratch: Scratch | null;
  /** bracket id -> the record searches read (null: unknown, or no product), when the deal holds no scratch. */
  private readonly linkedById = new Map<number, Linked | null>();
  /** minimum deposit -> bracket id -> the deposits it adds, once its record holds another (`addedOf`). */
  private readonly added = new Map<number, Map<number, number[]>>();
  /** product id -> where its amount financed is read, and what was found on it, when the deal holds no scratch. */
  private readonly lines = new Map<number, ProductLine>();
  /** wait -> balloon -> term -> deposit -> the changed deal and its brackets' rows, priced once each. */
  private readonly slots = new Map<number, Map<number, Map<number, Map<number, Slot>>>>();
  /** The (wait, balloon, term) `slot` was asked last (-1: none yet) and its table. */
  private readonly lastSlots = { wait: -1, balloon: Number.NaN, term: -1, byDeposit: new Map<number, Slot>() };
  /** The deposit the largest deal searched has: the least amount financed any candidate has is at it. */
  private readonly dMax: number;
  /**
   * Repayment floors (`floorOf`), per term, NaN not asked yet: one run of maxTerm + 1 per bracket and balloon in one
   * table, found by its start (at the deal's balloon on the bracket's record; balloon -> bracket id -> start at another).
   */
  private floorTable: Float64Array = new Float64Array(0);
  private floorsUsed = 0;
  private readonly otherFloorStarts = new Map<number, Map<number, number>>();
  /** wait -> balloon -> product id -> the floor under its brackets' least floors (`productFloorOf`). */
  private readonly productFloors = new Map<number, Map<number, Map<number, number>>>();
  /** The (wait, balloon) `productFloorOf` was asked last (-1: none yet) and its table. */
  private readonly lastProductFloors = { wait: -1, balloon: Number.NaN, byProduct: new Map<number, number>() };
  /** wait -> balloon -> bracket id -> its least floor over every searched term, once its record holds another. */
  private readonly leastFloors = new Map<number, Map<number, Map<number, number>>>();
  /** One search's bits per term (`ApprovalBrackets.productBits`, `canPriceBits`), held by the search that asks last. */
  readonly masks: TermMasks;
  /** product id -> its amount financed at the deal's own deposit (`ownAmount`; NaN: not found). */
  private readonly ownAmounts = new Map<number, number>();
  /** lowest -> highest -> the terms searched between them (`termsBetween`). */
  private readonly termLists = new Map<number, Map<number, number[]>>();

  constructor(
    readonly input: StructuringInput,
    readonly catalogue: StructuringCatalogue,
  ) {
    this.scratch = borrowScratch(catalogue);
    if (this.scratch !== null) this.floorTable = this.scratch.floors;
    this.d0 = input.deal.deposit ?? 0;
    this.t0 = input.deal.term ?? 0;
    this.b0 = input.deal.balloon_amount;
    this.maxTerm = Math.max(input.bounds.max_term, this.t0);
    const { min_balloon: minBalloon, max_balloon: maxBalloon } = input.bounds;
    const balloons = new Set<number>([this.b0]);
    if (minBalloon !== null) balloons.add(wholeAtLeast(minBalloon));
    if (maxBalloon !== null) balloons.add(wholeAtMost(maxBalloon));
    this.cheapestBalloons = [...balloons];
    this.masks = {
      owner: null,
      wait: Number.NaN,
      balloon: Number.NaN,
      products: new Int32Array(this.maxTerm + 1),
      ranges: new Int32Array(this.maxTerm + 1),
    };
    const hi = input.bounds.max_deposit;
    this.dMax = Math.max(hi + MONEY_TOLERANCE, this.d0);
    const grid = (value: (k: number) => number): Grid => {
      const step = value(1);
      return { value, step, last: wholeAtMost(hi / step) };
    };
    this.grids = [grid((k) => k)];
    const percentBase = input.deposit_base;
    if (percentBase > 0) this.grids.push(grid((k) => (percentBase * k) / 100));
    this.nearOwnDeposit = this.grids.some(
      (g) =>
        !(g.step >= 1e-6) ||
        [Math.floor(this.d0 / g.step), Math.ceil(this.d0 / g.step)].some((k) => {
          const v = g.value(k);
          return v !== this.d0 && leverChange(v, this.d0) === 0;
        }),
    );
  }

  /**
   * Gives the scratch back (scratch.fast.ts) for the next deal on the snapshot: the deal's records and tables are then
   * the next deal's, so it is asked nothing more.
   */
  release(): void {
    if (this.scratch === null) return;
    giveBack(this.scratch, this.floorTable, this.floorsUsed);
    this.scratch = null;
  }

  /**
   * A linked bracket's record, one per bracket and deal: what it learns (thresholds, reference) every approval reads.
   * The scratch's records are reset for this deal on its first question.
   */
  linkedOf(id: number): Linked | null {
    const scratch = this.scratch;
    if (scratch === null) return this.ownLinkedOf(id);
    let l = scratch.records.get(id);
    if (l === undefined) {
      l = this.newRecord(id);
      scratch.records.set(id, l);
    }
    if (l !== null && l.generation !== scratch.generation) {
      l.generation = scratch.generation;
      l.thresholds = null;
      l.reference = null;
      l.admitted = bracketAdmits(this.catalogue.pricingIndex, this.input.deal, id, 'commercial');
      l.reach = 0;
      l.termsWait = -1;
      l.termsBalloon = Number.NaN;
      l.terms = null;
      l.leastWait = -1;
      l.leastBalloon = Number.NaN;
      l.least = Number.NaN;
      l.leastAmount = Number.NaN;
      l.floorStart = -1;
      l.addedMinimum = Number.NaN;
      l.added = null;
    }
    return l;
  }

  /** `linkedOf` for a deal that holds no scratch: records of its own. */
  private ownLinkedOf(id: number): Linked | null {
    let l = this.linkedById.get(id);
    if (l !== undefined) return l;
    l = this.newRecord(id);
    if (l !== null) {
      l.generation = -1;
      l.admitted = bracketAdmits(this.catalogue.pricingIndex, this.input.deal, id, 'commercial');
    }
    this.linkedById.set(id, l);
    return l;
  }

  /** A record with the bracket's own figures and nothing asked yet; null when it is unknown or has no product. */
  private newRecord(id: number): Linked | null {
    const b = this.catalogue.bracketsById.get(id);
    const product = productOfBracket(this.catalogue.pricingIndex, id);
    if (b === undefined || product === null) return null;
    const [min, max] = amountRange(b, product);
    return {
      id,
      bracket: b,
      productId: product.id,
      min,
      max,
      generation: 0,
      ownThresholds: { belowMax: [0, 0], belowMin: [0, 0], low: [0, 0], high: [0, 0] },
      ownReference: { wait: 0, term: 0, balloon: 0 },
      thresholds: null,
      reference: null,
      admitted: false,
      reach: 0,
      // -1 and NaN: nothing asked yet (NaN also keeps the balloon fields numbers with a fraction from the start).
      termsWait: -1,
      termsBalloon: Number.NaN,
      terms: null,
      leastWait: -1,
      leastBalloon: Number.NaN,
      least: Number.NaN,
      leastAmount: Number.NaN,
      floorStart: -1,
      addedMinimum: Number.NaN,
      added: null,
    };
  }

  /**
   * The terms from `lo` to `hi` (whole months) that a search tries: the deal's own and those within the bounds. One
   * list per range, shared by the approvals whose term criteria give it (read, never changed).
   */
  termsBetween(lo: number, hi: number): number[] {
    const byHi = inner(this.termLists, lo);
    let terms = byHi.get(hi);
    if (terms === undefined) {
      const { bounds } = this.input;
      terms = [];
      for (let t = lo; t <= hi; t++) if (t === this.t0 || (t >= bounds.min_term && t <= bounds.max_term)) terms.push(t);
      byHi.set(hi, terms);
    }
    return terms;
  }

  /**
   * The deposits bracket `l` adds to a search whose approval needs `minimum` (`ApprovalBrackets.addedBy`), when known:
   * the record holds the minimum asked last, the deal the others.
   */
  addedOf(l: Linked, minimum: number): number[] | undefined {
    if (l.added !== null && l.addedMinimum === minimum) return l.added;
    return this.added.get(minimum)?.get(l.id);
  }

  /** Keeps what `addedOf` answers: on the record, the one it held moved to the deal's table. */
  keepAdded(l: Linked, minimum: number, added: number[]): void {
    if (l.added !== null) inner(this.added, l.addedMinimum).set(l.id, l.added);
    l.addedMinimum = minimum;
    l.added = added;
  }

  base(wait: number): Deal {
    let base = this.bases.get(wait);
    if (base === undefined) {
      base = advancedDeal(this.input.deal, wait);
      this.bases.set(wait, base);
    }
    return base;
  }

  /**
   * The changed deal as `changedDeal` builds it, in one object reused per wait: only for the pricing engine's pure
   * questions that keep no reference to the deal (`amountFinancedCents`, `repaymentFloor`, `priceOneBracket`),
   * so the ~40 fields are not copied per question. Valid until the next call.
   */
  probe(wait: number, deposit: number, term: number, balloon: number): Deal {
    // Nearly always at the wait asked last, which is kept beside the table.
    let deal = wait === this.probeWait ? this.lastProbe : this.probes.get(wait);
    if (deal === undefined) {
      deal = { ...this.base(wait) };
      this.probes.set(wait, deal);
    }
    this.probeWait = wait;
    this.lastProbe = deal;
    deal.deposit = deposit;
    deal.term = term;
    deal.balloon_amount = balloon;
    if (!this.input.asset_age_plus_term_sent)
      deal.asset_age_plus_term = deal.asset_age === null ? null : deal.asset_age + term;
    return deal;
  }

  /**
   * True when the approval's criteria confirm `deal`, the deal after `wait` months with its deposit, term or balloon
   * changed. What the criteria engine prepares of a deal (asset line, industry, borrower ages, asset state) none of
   * those changes moves, so it is prepared once per wait and read with each changed deal.
   */
  confirms(a: Approval, deal: Deal, wait: number): boolean {
    let p = this.prepared.get(wait);
    if (p === undefined) {
      p = { ...prepareDeal(this.base(wait), this.catalogue.ancestry) };
      this.prepared.set(wait, p);
    }
    p.deal = deal;
    return evaluatePrepared(a, p)?.status === 'confirmed';
  }

  /** The changed deal and its priced rows (one slot per distinct change). */
  private slot(wait: number, deposit: number, term: number, balloon: number): Slot {
    // A candidate's brackets are priced and its deal built one after another: the (wait, balloon, term) asked last
    // keeps its table.
    const last = this.lastSlots;
    if (last.wait !== wait || last.balloon !== balloon || last.term !== term) {
      last.wait = wait;
      last.balloon = balloon;
      last.term = term;
      last.byDeposit = inner(inner(inner(this.slots, wait), balloon), term);
    }
    const byDeposit = last.byDeposit;
    let slot = byDeposit.get(deposit);
    if (slot === undefined) {
      slot = { deal: null, rows: new Map() };
      byDeposit.set(deposit, slot);
    }
    return slot;
  }

  /** The changed deal (one object per distinct change). */
  deal(wait: number, deposit: number, term: number, balloon: number): Deal {
    const slot = this.slot(wait, deposit, term, balloon);
    slot.deal ??= changedDeal(this.input, this.base(wait), deposit, term, balloon);
    return slot.deal;
  }

  /**
   * Per term, whether the product prices (wait, term, balloon) at all: 1 yes, 2 not whatever the deposit (`prices`
   * fills it on the first question; until then all 0). One array per product, wait and balloon, shared by every approval.
   */
  termsOf(productId: number, wait: number, balloon: number): Int8Array {
    const kept = this.keptTerms(productId, wait, balloon);
    if (kept !== null) return kept;
    const byProduct = inner(inner(this.feasible, wait), balloon);
    let terms = byProduct.get(productId);
    if (terms === undefined) {
      terms = new Int8Array(this.maxTerm + 1);
      byProduct.set(productId, terms);
    }
    return terms;
  }

  /**
   * The scratch's table of the product for (wait, balloon) (scratch.fast.ts): the first few pairs a deal asks of a
   * product take one each, emptied; null past them, whose tables the deal keeps itself.
   */
  private keptTerms(productId: number, wait: number, balloon: number): Int8Array | null {
    const scratch = this.scratch;
    if (scratch === null) return null;
    let kept = scratch.terms.get(productId);
    if (kept === undefined) {
      kept = { generation: scratch.generation, used: 0, waits: [], balloons: [], tables: [] };
      scratch.terms.set(productId, kept);
    } else if (kept.generation !== scratch.generation) {
      kept.generation = scratch.generation;
      kept.used = 0;
    }
    for (let i = 0; i < kept.used; i++)
      if (kept.waits[i] === wait && kept.balloons[i] === balloon) return kept.tables[i];
    if (kept.used === KEPT_TERM_TABLES) return null;
    const i = kept.used++;
    let table = kept.tables[i];
    if (table === undefined || table.length !== this.maxTerm + 1)
      kept.tables[i] = table = new Int8Array(this.maxTerm + 1);
    else table.fill(0);
    kept.waits[i] = wait;
    kept.balloons[i] = balloon;
    return table;
  }

  /**
   * The linked bracket's product's per-term answer at (wait, balloon) (`termsOf`): every approval linking the bracket
   * asks it per term, nearly always at the (wait, balloon) asked last, which the record keeps.
   */
  termsAt(l: Linked, wait: number, balloon: number): Int8Array {
    if (l.terms !== null && l.termsWait === wait && l.termsBalloon === balloon) return l.terms;
    const terms = this.termsOf(l.productId, wait, balloon);
    l.termsWait = wait;
    l.termsBalloon = balloon;
    l.terms = terms;
    return terms;
  }

  /**
   * As the plain rule asks it: the bracket's product gives an amount financed on the deal with no deposit. Answered
   * for every term at the first question (`termsAllowed`: the term's own bounds per term, then one quote);
   * `terms[0]` marks the array filled.
   */
  prices(terms: Int8Array, id: number, wait: number, term: number, balloon: number): boolean {
    if (terms[0] === 0) {
      const index = this.catalogue.pricingIndex;
      const first = termsAllowed(
        index,
        id,
        this.probe(wait, 0, term, balloon),
        !this.input.asset_age_plus_term_sent,
        terms,
      );
      // One quote at the first term allowed decides every term (`termsAllowed`).
      if (first !== 0 && amountFinancedCents(index, id, this.probe(wait, 0, first, balloon)) === null) terms.fill(2, 1);
      terms[0] = 1;
    }
    return terms[term] === 1;
  }

  /**
   * The bracket's deposit thresholds, found on a deal its product prices (`reference`): the amount financed there is
   * the one at every term, wait and balloon the product prices, and it falls as the deposit rises. It is the product's
   * figure, so each threshold is found once per product and bound, and shared by its brackets with that bound.
   */
  thresholdsOf(l: Linked, reference: Reference): Thresholds {
    // Asked once per record (`Linked.thresholds` keeps the answer), so not kept per bracket here.
    const line = this.lineFor(l, reference);
    // Brackets of one product with the same amount range share one record.
    const kept = sharedOf(line, l.min, l.max);
    if (kept !== undefined) return kept;
    const count = this.grids.length;
    // The record's own lists (made with the record), written once a deal: no lists made per deal.
    const t = l.ownThresholds;
    for (let at = 0; at < count; at++) {
      const g = this.grids[at];
      const belowMax = this.firstK(line, at, l.max, false);
      // The first below the minimum from belowMax on, as a search started there ends (the test is monotone).
      const belowMin = Math.max(belowMax, this.firstK(line, at, l.min, true));
      t.belowMax[at] = belowMax;
      t.belowMin[at] = belowMin;
      t.low[at] = belowMax >= 1 ? g.value(belowMax - 1) : -Infinity;
      t.high[at] = belowMin <= g.last ? g.value(belowMin) : Infinity;
    }
    keepShared(line, l.min, l.max, t);
    return t;
  }

  /**
   * The amount financed of `l`'s product at the deal's own deposit, in dollars to the cent, read at (wait, term,
   * balloon), where the product prices: the same at every (wait, term, balloon) it prices (`thresholdsOf`), so found
   * once per product. NaN when the product does not give one there.
   */
  ownAmount(l: Linked, wait: number, term: number, balloon: number): number {
    let amount = this.ownAmounts.get(l.productId);
    if (amount === undefined) {
      const deal = this.probe(wait, this.d0, term, balloon);
      amount = amountFinancedCents(this.catalogue.pricingIndex, l.id, deal) ?? Number.NaN;
      this.ownAmounts.set(l.productId, amount);
    }
    return amount;
  }

  /**
   * The line of `l`'s product, made at `reference` (where it prices) when the deal has none yet: its amounts with no
   * deposit and at `dMax`.
   */
  private lineFor(l: Linked, reference: Reference): ProductLine {
    let line = this.lineOf(l.productId);
    if (line !== null) return line;
    line = this.newLine(l.productId, l.id, reference);
    // Guesses on the dollar grid (k dollars) are where a straight line through the amounts at no deposit and at the
    // most any search tries crosses a bound; the tests decide. The percentage grid needs none (`firstK`).
    line.first = this.amountAt(line, 0);
    line.top = this.amountAt(line, this.dMax);
    line.slope = this.dMax > 0 ? (line.top - line.first) / this.dMax : Number.NaN;
    return line;
  }

  /**
   * False when bracket `l` prices no deposit any search tries, at any wait, term or balloon: the amount financed falls
   * as the deposit rises, and it is under the bracket's minimum with no deposit, or over its maximum at the most any
   * search tries (`dMax`). The thresholds' tests (`firstK`) at those two ends, so such a bracket adds no deposit and
   * is outside at every one. Read at a term its product prices with no wait (true when there is none). Once per
   * record and deal.
   */
  reaches(l: Linked): boolean {
    if (l.reach !== 0) return l.reach === 1;
    let line = this.lineOf(l.productId);
    if (line === null) {
      const terms = this.termsAt(l, 0, this.b0);
      this.prices(terms, l.id, 0, 1, this.b0);
      const term = terms.indexOf(1, 1);
      if (term === -1) {
        l.reach = 1;
        return true;
      }
      l.reference ??= referenceOf(l, 0, term, this.b0);
      line = this.lineFor(l, l.reference);
    }
    l.reach = (this.d0 >= 0 && line.first < l.min) || line.top > l.max ? 2 : 1;
    return l.reach === 1;
  }

  /** The product's line on this deal, once made (`newLine`). */
  private lineOf(productId: number): ProductLine | null {
    const scratch = this.scratch;
    if (scratch === null) return this.lines.get(productId) ?? null;
    const kept = scratch.lines.get(productId);
    return kept !== undefined && kept.generation === scratch.generation ? kept.line : null;
  }

  /** The product's line on this deal, empty: the scratch's, written over, or a new one. */
  private newLine(productId: number, id: number, reference: Reference): ProductLine {
    const scratch = this.scratch;
    let kept = scratch?.lines.get(productId);
    if (kept !== undefined && scratch !== null) {
      const line = kept.line;
      kept.generation = scratch.generation;
      line.reference = reference;
      line.id = id;
      line.kCount = 0;
      line.rangeCount = 0;
      line.many = null;
      return line;
    }
    const line = blankLine(reference, id);
    if (scratch === null) this.lines.set(productId, line);
    else {
      kept = { generation: scratch.generation, line };
      scratch.lines.set(productId, kept);
    }
    return line;
  }

  /** The amount financed of the line's product at `deposit` (cents; -Infinity when it does not price). */
  private amountAt(line: ProductLine, deposit: number): number {
    const { wait, term, balloon } = line.reference;
    const cents = amountFinancedCents(this.catalogue.pricingIndex, line.id, this.probe(wait, deposit, term, balloon));
    return cents === null ? -Infinity : cents;
  }

  /**
   * The first k on grid `at` whose amount financed is at most `bound` (`below`: under it); last + 1 when none. On the
   * dollar grid (0) from a guess; on the percentage grid from the dollar grid's answer k0, as the test is monotone in
   * the deposit: it holds at every deposit of at least k0 dollars (when k0 is on its grid) and at none of at most
   * k0 - 1, so only the percentage points strictly between are tested (nearly always none).
   */
  private firstK(line: ProductLine, at: number, bound: number, below: boolean): number {
    const side = at * 2 + (below ? 1 : 0);
    let k = keptK(line, side, bound);
    if (k !== undefined) return k;
    const g = this.grids[at];
    if (at === 0) {
      const guess = Math.ceil((bound - line.first) / line.slope);
      k = firstTrueFrom(0, g.last + 1, guess, this.askFor(line, g, bound, below));
    } else {
      const dollars = this.grids[0];
      const k0 = this.firstK(line, 0, bound, below);
      const end = g.last + 1;
      const lo = k0 >= 1 ? Math.min(end, firstValue(g, k0 - 1, true)) : 0;
      const hi = k0 <= dollars.last ? Math.min(end, firstValue(g, k0, false)) : end;
      k = firstTrue(lo, hi, this.askFor(line, g, bound, below));
    }
    keepK(line, side, bound, k);
    return k;
  }

  /** `askedTest`, set to ask the amount financed of `line` on grid `g` against `bound`. */
  private askFor(line: ProductLine, g: Grid, bound: number, below: boolean): (x: number) => boolean {
    const asked = this.asked;
    asked.line = line;
    asked.grid = g;
    asked.bound = bound;
    asked.below = below;
    return this.askedTest;
  }

  /** What `firstK` asks of the amount financed, read by one test made per deal (not a closure per question). */
  private readonly asked = { line: null as ProductLine | null, grid: null as Grid | null, bound: 0, below: false };
  private readonly askedTest = (x: number): boolean => {
    const { line, grid, bound, below } = this.asked;
    const amount = this.amountAt(line as ProductLine, (grid as Grid).value(x));
    return below ? amount < bound : amount <= bound;
  };

  /**
   * The least of a linked bracket's repayment floors (`floorOf`) over every term any approval searches (the bounds'
   * and the deal's own) where its term range and its product allow it, at (wait, balloon): under every floor it has
   * in any approval's search there. Infinity when it prices at none of them. Only the shortest and the longest such
   * term are priced: a floor's rate, amount, balloon and fee do not move with the term and the instalment is monotone
   * in the instalment count (`i(P - B)/(1 - (1 + i)^-n) + iB`, up or down by the sign of P - B), so the least is at
   * one end.
   */
  leastFloorOf(l: Linked, terms: Int8Array, wait: number, balloon: number): number {
    // Nearly always asked at the (wait, balloon) asked last, which the record keeps; the deal keeps the others.
    const held = !Number.isNaN(l.least);
    if (held && l.leastWait === wait && l.leastBalloon === balloon) return l.least;
    let least = this.leastFloors.get(wait)?.get(balloon)?.get(l.id);
    if (least === undefined) least = this.leastFloorAt(l, terms, wait, balloon);
    if (held) this.keepLeastFloor(l.id, l.leastWait, l.leastBalloon, l.least);
    l.leastWait = wait;
    l.leastBalloon = balloon;
    l.least = least;
    return least;
  }

  /**
   * A floor under the least floor (`leastFloorOf`) of every bracket of `l`'s product at (wait, balloon): the product's
   * floor at its least rate (`leastRateBracket`) and its least amount financed, at the shortest and the longest term
   * any approval searches where it prices (`terms`, its per-term answer). Each bracket's rate, amount and terms are
   * at least these, and the floor rises with each. Once per product and (wait, balloon).
   */
  productFloorOf(l: Linked, terms: Int8Array, wait: number, balloon: number): number {
    // Nearly always at the (wait, balloon) asked last, whose table is kept beside the others.
    const asked = this.lastProductFloors;
    if (asked.wait !== wait || asked.balloon !== balloon) {
      asked.wait = wait;
      asked.balloon = balloon;
      asked.byProduct = inner(inner(this.productFloors, wait), balloon);
    }
    const byProduct = asked.byProduct;
    let floor = byProduct.get(l.productId);
    if (floor !== undefined) return floor;
    floor = -Infinity;
    const id = leastRateBracket(this.catalogue).get(l.productId);
    const lo = Math.ceil(Math.max(Math.min(this.input.bounds.min_term, this.t0), 1));
    const first = this.pricedFrom(l, terms, wait, balloon, lo, this.maxTerm, 1);
    if (id !== undefined && first <= this.maxTerm) {
      const last = this.pricedFrom(l, terms, wait, balloon, this.maxTerm, first, -1);
      // The product's least amount financed is its line's at dMax (-Infinity when it gives none: no floor above 0).
      l.reference ??= referenceOf(l, wait, first, balloon);
      const least = Math.max(0, this.lineFor(l, l.reference).top - 0.01);
      const index = this.catalogue.pricingIndex;
      floor = Math.min(
        repaymentFloor(index, id, this.probe(wait, this.dMax, first, balloon), least),
        repaymentFloor(index, id, this.probe(wait, this.dMax, last, balloon), least),
      );
    }
    byProduct.set(l.productId, floor);
    return floor;
  }

  /** Keeps a least floor a record no longer holds (`leastFloorOf`). */
  private keepLeastFloor(id: number, wait: number, balloon: number, least: number): void {
    inner(inner(this.leastFloors, wait), balloon).set(id, least);
  }

  private leastFloorAt(l: Linked, terms: Int8Array, wait: number, balloon: number): number {
    let least = Infinity;
    const b = l.bracket;
    const lo = Math.ceil(Math.max(Math.min(this.input.bounds.min_term, this.t0), b.min_term ?? 1, 1));
    const hi = Math.min(this.maxTerm, b.max_term ?? Infinity);
    const first = this.pricedFrom(l, terms, wait, balloon, lo, hi, 1);
    if (first <= hi) {
      const last = this.pricedFrom(l, terms, wait, balloon, hi, first, -1);
      // Where its floors are read: any deal its product prices gives the amount financed (`floorOf`).
      l.reference ??= referenceOf(l, wait, first, balloon);
      least = Math.min(this.floorOf(l, l.reference, first, balloon), this.floorOf(l, l.reference, last, balloon));
    }
    return least;
  }

  /**
   * From `from` toward `to` by `step` (1 or -1), the first term `searchedAndPriced` answers yes for; past `to` when
   * there is none. The floors are read at the two ends of what it finds.
   */
  private pricedFrom(
    l: Linked,
    terms: Int8Array,
    wait: number,
    balloon: number,
    from: number,
    to: number,
    step: 1 | -1,
  ): number {
    let t = from;
    while ((step > 0 ? t <= to : t >= to) && !this.searchedAndPriced(l, terms, wait, t, balloon)) t += step;
    return t;
  }

  /** True when some approval searches `term` (the bounds' terms and the deal's own) and the product prices there. */
  private searchedAndPriced(l: Linked, terms: Int8Array, wait: number, term: number, balloon: number): boolean {
    const { bounds } = this.input;
    if (term !== this.t0 && (term < bounds.min_term || term > bounds.max_term)) return false;
    return this.prices(terms, l.id, wait, term, balloon);
  }

  /** One bracket's row on a changed deal, priced once per deal. */
  price(id: number, wait: number, deposit: number, term: number, balloon: number): PricedBracket | null {
    const slot = this.slot(wait, deposit, term, balloon);
    let row = slot.rows.get(id);
    if (row === undefined) {
      // The row keeps no reference to the deal: the probe serves, and the deal is built only for a candidate.
      const deal = slot.deal ?? this.probe(wait, deposit, term, balloon);
      row = priceOneBracket(this.catalogue.pricingIndex, deal, id, 'commercial');
      slot.rows.set(id, row);
    }
    return row;
  }

  /**
   * A floor under the bracket's `repayment_min` at (term, balloon) on every deposit searched (`repaymentFloor`: the
   * least amount financed is at the largest deposit, or the bracket's minimum). `reference` is a deal its product
   * prices; wait does not move a figure, only whether the product prices.
   */
  floorOf(l: Linked, reference: Reference, term: number, balloon: number): number {
    const b = l.bracket;
    let least = l.leastAmount;
    if (Number.isNaN(least)) {
      // Its product's line at dMax (-Infinity when it gives none), a cent below the rounded figures: P itself is within
      // half a cent of them.
      least = Math.max(0, this.lineFor(l, reference).top - 0.01, l.min - 0.01);
      l.leastAmount = least;
    }
    const at = this.floorStart(l, balloon) + term;
    let floor = this.floorTable[at];
    if (Number.isNaN(floor)) {
      floor = repaymentFloor(
        this.catalogue.pricingIndex,
        b.id,
        this.probe(reference.wait, this.dMax, term, balloon),
        least,
      );
      this.floorTable[at] = floor;
    }
    return floor;
  }

  /**
   * Where the bracket's floors at `balloon` start in `floorTable`; a run of NaN made on the first question. At the
   * deal's balloon, kept on its record.
   */
  private floorStart(l: Linked, balloon: number): number {
    const own = balloon === this.b0;
    let starts: Map<number, number> | undefined;
    let start: number | undefined;
    if (own) start = l.floorStart >= 0 ? l.floorStart : undefined;
    else {
      starts = inner(this.otherFloorStarts, balloon);
      start = starts.get(l.id);
    }
    if (start !== undefined) return start;
    const width = this.maxTerm + 1;
    start = this.floorsUsed;
    this.floorsUsed += width;
    if (this.floorsUsed > this.floorTable.length) {
      const grown = new Float64Array(Math.max(this.floorsUsed, this.floorTable.length * 2, 64 * width));
      grown.set(this.floorTable);
      grown.fill(Number.NaN, this.floorTable.length);
      this.floorTable = grown;
    }
    if (own) l.floorStart = start;
    else starts?.set(l.id, start);
    return start;
  }
}

/** The first k on grid `g` whose value is at least `x` (`above`: more than it). */
function firstValue(g: Grid, x: number, above: boolean): number {
  // The quotient is the answer to within a step of rounding either way (no closure: asked thousands of times a deal).
  let k = Math.max(0, Math.ceil(x / g.step));
  while (k > 0 && (above ? g.value(k - 1) > x : g.value(k - 1) >= x)) k--;
  while (!(above ? g.value(k) > x : g.value(k) >= x)) k++;
  return k;
}

const leastRateBrackets = new WeakMap<StructuringCatalogue['bracketsById'], Map<number, number>>();

/**
 * Per product, the id of its bracket with the least `base_min` in the snapshot (`DealWork.productFloorOf`), found once
 * per snapshot.
 */
function leastRateBracket(catalogue: StructuringCatalogue): Map<number, number> {
  let byProduct = leastRateBrackets.get(catalogue.bracketsById);
  if (byProduct !== undefined) return byProduct;
  byProduct = new Map();
  const least = new Map<number, number>();
  for (const [id, b] of catalogue.bracketsById) {
    const product = productOfBracket(catalogue.pricingIndex, id);
    if (product === null) continue;
    const rate = least.get(product.id);
    if (rate === undefined || b.base_min < rate) {
      least.set(product.id, b.base_min);
      byProduct.set(product.id, id);
    }
  }
  leastRateBrackets.set(catalogue.bracketsById, byProduct);
  return byProduct;
}

/**
 * Which of a search's first 30 linked brackets' products price at each term, at one (wait, balloon), and which of them
 * have the term in their own range, a bit each (-1: not asked yet). One table a deal, held by the search that asks last
 * (one search runs at a time), so a search asks each term once.
 */
export interface TermMasks {
  owner: object | null;
  wait: number;
  balloon: number;
  products: Int32Array;
  ranges: Int32Array;
}

/** One distinct changed deal and its brackets' rows (null: the bracket does not price it). */
interface Slot {
  /** Built when a candidate needs it (`deal`). */
  deal: Deal | null;
  rows: Map<number, PricedBracket | null>;
}
