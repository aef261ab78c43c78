/**
 * What one deal's structuring search shares across approvals (engine.fast.ts): the deal after each wait, whether a
 * product prices a term at all, each bracket's deposit thresholds, repayment floors and priced rows, each asked once
 * per deal.
 */
import type { RateBracket } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import { MONEY_TOLERANCE } from '../matrix/index.ts';
import {
  amountFinancedCents,
  amountFinancedTerms,
  bracketAdmits,
  type PricedBracket,
  priceOneBracket,
  productOfBracket,
  repaymentFloor,
} from '../pricing/index.ts';
import {
  advancedDeal,
  amountRange,
  changedDeal,
  leverChange,
  type StructuringCatalogue,
  type StructuringInput,
  wholeAtMost,
} from './engine.ts';
import {
  firstTrueFrom,
  keepK,
  keepShared,
  keptK,
  type ProductLine,
  type Reference,
  sharedOf,
  type Thresholds,
} from './product-line.fast.ts';

export { firstTrueFrom, type Reference, type Thresholds };

/** A deposit grid: whole dollars, or whole percentage points of `deposit_base`. */
export interface Grid {
  value(k: number): number;
  step: number;
  /** The last k within `max_deposit`. */
  last: number;
}

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
  private readonly bases = new Map<number, Deal>();
  /** wait -> a deal reused for questions whose answer keeps no reference to it (`probe`). */
  private readonly probes = new Map<number, Deal>();
  /** wait -> balloon -> product id -> per term: 1 prices, 2 cannot price whatever the deposit ([0]: 0 not asked yet). */
  private readonly feasible = new Map<number, Map<number, Map<number, Int8Array>>>();
  /** bracket id -> the record searches read (null: unknown, or no product). */
  private readonly linkedById = new Map<number, Linked | null>();
  /** minimum deposit -> bracket id -> the deposits it adds (`addedFor`). */
  private readonly added = new Map<number, Map<number, number[]>>();
  /** product id -> where its amount financed is read, and what was found on it (`ProductLine`). */
  private readonly lines = new Map<number, ProductLine>();
  /** wait -> balloon -> term -> deposit -> the changed deal and its brackets' rows, priced once each. */
  private readonly slots = new Map<number, Map<number, Map<number, Map<number, Slot>>>>();
  /** The deposit the largest deal searched has: the least amount financed any candidate has is at it. */
  private readonly dMax: number;
  /**
   * Repayment floors (`floorOf`), per term, NaN not asked yet: one run of maxTerm + 1 per bracket and balloon in one
   * table, found by its start (bracket id -> start at the deal's balloon; balloon -> bracket id -> start at another).
   */
  private floorTable = new Float64Array(0);
  private floorsUsed = 0;
  private readonly floorStarts = new Map<number, number>();
  private readonly otherFloorStarts = new Map<number, Map<number, number>>();
  /** wait -> balloon -> bracket id -> its least floor over every searched term (`leastFloorOf`). */
  private readonly leastFloors = new Map<number, Map<number, Map<number, number>>>();
  /** bracket id -> the least amount financed any searched deposit gives it (dollars). */
  private readonly leastAmounts = new Map<number, number>();

  constructor(
    readonly input: StructuringInput,
    readonly catalogue: StructuringCatalogue,
  ) {
    this.d0 = input.deal.deposit ?? 0;
    this.t0 = input.deal.term ?? 0;
    this.b0 = input.deal.balloon_amount;
    this.maxTerm = Math.max(input.bounds.max_term, this.t0);
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

  /** A linked bracket's record, one per bracket and deal: what it learns (thresholds, reference) every approval reads. */
  linkedOf(id: number): Linked | null {
    let l = this.linkedById.get(id);
    if (l !== undefined) return l;
    const b = this.catalogue.bracketsById.get(id);
    const product = productOfBracket(this.catalogue.pricingIndex, id);
    l = null;
    if (b !== undefined && product !== null) {
      const [min, max] = amountRange(b, product);
      l = {
        id,
        bracket: b,
        productId: product.id,
        min,
        max,
        thresholds: null,
        reference: null,
        admitted: bracketAdmits(this.catalogue.pricingIndex, this.input.deal, id, 'commercial'),
        // -1 and NaN: nothing asked yet (NaN also keeps the balloon fields numbers with a fraction from the start).
        termsWait: -1,
        termsBalloon: Number.NaN,
        terms: null,
        leastWait: -1,
        leastBalloon: Number.NaN,
        least: Number.NaN,
      };
    }
    this.linkedById.set(id, l);
    return l;
  }

  /** Per bracket, the deposits it adds to a search whose approval needs `minimum` (`FastSearch.addedBy`). */
  addedFor(minimum: number): Map<number, number[]> {
    let added = this.added.get(minimum);
    if (added === undefined) this.added.set(minimum, (added = new Map()));
    return added;
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
    let deal = this.probes.get(wait);
    if (deal === undefined) {
      deal = { ...this.base(wait) };
      this.probes.set(wait, deal);
    }
    deal.deposit = deposit;
    deal.term = term;
    deal.balloon_amount = balloon;
    if (!this.input.asset_age_plus_term_sent)
      deal.asset_age_plus_term = deal.asset_age === null ? null : deal.asset_age + term;
    return deal;
  }

  /** The changed deal and its priced rows (one slot per distinct change). */
  private slot(wait: number, deposit: number, term: number, balloon: number): Slot {
    let byBalloon = this.slots.get(wait);
    if (byBalloon === undefined) this.slots.set(wait, (byBalloon = new Map()));
    let byTerm = byBalloon.get(balloon);
    if (byTerm === undefined) byBalloon.set(balloon, (byTerm = new Map()));
    let byDeposit = byTerm.get(term);
    if (byDeposit === undefined) byTerm.set(term, (byDeposit = new Map()));
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
    let byBalloon = this.feasible.get(wait);
    if (byBalloon === undefined) this.feasible.set(wait, (byBalloon = new Map()));
    let byProduct = byBalloon.get(balloon);
    if (byProduct === undefined) byBalloon.set(balloon, (byProduct = new Map()));
    let terms = byProduct.get(productId);
    if (terms === undefined) {
      terms = new Int8Array(this.maxTerm + 1);
      byProduct.set(productId, terms);
    }
    return terms;
  }

  /**
   * The linked bracket's product's per-term answer at (wait, balloon) (`termsOf`): every approval linking the bracket
   * asks it per term, nearly always at the (wait, balloon) asked last, which the record keeps.
   */
  termsAt(l: Linked, wait: number, balloon: number): Int8Array {
    if (l.terms != null && l.termsWait === wait && l.termsBalloon === balloon) return l.terms;
    const terms = this.termsOf(l.productId, wait, balloon);
    l.termsWait = wait;
    l.termsBalloon = balloon;
    l.terms = terms;
    return terms;
  }

  /**
   * As the plain rule asks it: the bracket's product gives an amount financed on the deal with no deposit. Answered
   * for every term at the first question (`amountFinancedTerms`: one quote, then the term's own bounds per term);
   * `terms[0]` marks the array filled.
   */
  prices(terms: Int8Array, id: number, wait: number, term: number, balloon: number): boolean {
    if (terms[0] === 0) {
      const deal = this.probe(wait, 0, term, balloon);
      amountFinancedTerms(this.catalogue.pricingIndex, id, deal, !this.input.asset_age_plus_term_sent, terms);
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
    let line = this.lines.get(l.productId);
    if (line === undefined) {
      // Lists made at their size: one grown by `push` reserves room for many more, and a deal keeps these.
      const count = this.grids.length;
      line = {
        reference,
        id: l.id,
        first: new Array(count),
        slope: new Array(count),
        kKeys: [],
        kValues: [],
        ranges: [],
        shared: [],
        many: null,
      };
      for (let at = 0; at < count; at++) {
        const g = this.grids[at];
        // Guesses are where a straight line through the amounts at both ends crosses a bound; the tests decide.
        const first = this.amountAt(line, g.value(0));
        line.first[at] = first;
        line.slope[at] = g.last > 0 ? (this.amountAt(line, g.value(g.last)) - first) / g.last : Number.NaN;
      }
      this.lines.set(l.productId, line);
    }
    // Brackets of one product with the same amount range share one record.
    const kept = sharedOf(line, l.min, l.max);
    if (kept !== undefined) return kept;
    const count = this.grids.length;
    const t: Thresholds = {
      belowMax: new Array(count),
      belowMin: new Array(count),
      low: new Array(count),
      high: new Array(count),
    };
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

  /** The amount financed of the line's product at `deposit` (cents; -Infinity when it does not price). */
  private amountAt(line: ProductLine, deposit: number): number {
    const { wait, term, balloon } = line.reference;
    const cents = amountFinancedCents(this.catalogue.pricingIndex, line.id, this.probe(wait, deposit, term, balloon));
    return cents === null ? -Infinity : cents;
  }

  /** The first k on grid `at` whose amount financed is at most `bound` (`below`: under it); last + 1 when none. */
  private firstK(line: ProductLine, at: number, bound: number, below: boolean): number {
    const side = at * 2 + (below ? 1 : 0);
    let k = keptK(line, side, bound);
    if (k !== undefined) return k;
    const g = this.grids[at];
    const guess = Math.ceil((bound - line.first[at]) / line.slope[at]);
    k = below
      ? firstTrueFrom(0, g.last + 1, guess, (x) => this.amountAt(line, g.value(x)) < bound)
      : firstTrueFrom(0, g.last + 1, guess, (x) => this.amountAt(line, g.value(x)) <= bound);
    keepK(line, side, bound, k);
    return k;
  }

  /**
   * The least of a linked bracket's repayment floors (`floorOf`) over every term any approval searches (the bounds'
   * and the deal's own) where its term range and its product allow it, at (wait, balloon): under every floor it has
   * in any approval's search there. Infinity when it prices at none of them. Only the shortest and the longest such
   * term are priced: a floor's rate, amount, balloon and fee do not move with the term and the instalment is monotone
   * in the instalment count (`i(P - B)/(1 - (1 + i)^-n) + iB`, up or down by the sign of P - B), so the least is at
   * one end.
   */
  leastFloorOf(l: Linked, terms: Int8Array, wait: number, balloon: number): number {
    // Nearly always asked at the (wait, balloon) asked last, which the record keeps.
    if (l.least !== undefined && !Number.isNaN(l.least) && l.leastWait === wait && l.leastBalloon === balloon)
      return l.least;
    let byBalloon = this.leastFloors.get(wait);
    if (byBalloon === undefined) this.leastFloors.set(wait, (byBalloon = new Map()));
    let byId = byBalloon.get(balloon);
    if (byId === undefined) byBalloon.set(balloon, (byId = new Map()));
    let least = byId.get(l.id);
    if (least === undefined) {
      least = this.leastFloorAt(l, terms, wait, balloon);
      byId.set(l.id, least);
    }
    l.leastWait = wait;
    l.leastBalloon = balloon;
    l.least = least;
    return least;
  }

  private leastFloorAt(l: Linked, terms: Int8Array, wait: number, balloon: number): number {
    let least = Infinity;
    const b = l.bracket;
    const lo = Math.ceil(Math.max(Math.min(this.input.bounds.min_term, this.t0), b.min_term ?? 1, 1));
    const hi = Math.min(this.maxTerm, b.max_term ?? Infinity);
    let first = lo;
    while (first <= hi && !this.searchedAndPriced(l, terms, wait, first, balloon)) first++;
    if (first <= hi) {
      let last = hi;
      while (last > first && !this.searchedAndPriced(l, terms, wait, last, balloon)) last--;
      // Where its floors are read: any deal its product prices gives the amount financed (`floorOf`).
      l.reference ??= { wait, term: first, balloon };
      least = Math.min(
        this.floorOf(b, l.min, l.reference, first, balloon),
        this.floorOf(b, l.min, l.reference, last, balloon),
      );
    }
    return least;
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
  floorOf(b: RateBracket, min: number, reference: Reference, term: number, balloon: number): number {
    let least = this.leastAmounts.get(b.id);
    if (least === undefined) {
      const deal = this.probe(reference.wait, this.dMax, reference.term, reference.balloon);
      const cents = amountFinancedCents(this.catalogue.pricingIndex, b.id, deal);
      // A cent below the rounded figures: P itself is within half a cent of them.
      least = Math.max(0, cents === null ? 0 : cents - 0.01, min - 0.01);
      this.leastAmounts.set(b.id, least);
    }
    const at = this.floorStart(b.id, balloon) + term;
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

  /** Where the bracket's floors at `balloon` start in `floorTable`; a run of NaN made on the first question. */
  private floorStart(id: number, balloon: number): number {
    let starts = this.floorStarts;
    if (balloon !== this.b0) {
      let other = this.otherFloorStarts.get(balloon);
      if (other === undefined) this.otherFloorStarts.set(balloon, (other = new Map()));
      starts = other;
    }
    let start = starts.get(id);
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
    starts.set(id, start);
    return start;
  }
}

/** A linked bracket the search reads: its record, product and amount range. */
export interface Linked {
  id: number;
  bracket: RateBracket;
  productId: number;
  min: number;
  max: number;
  /** Its deposit thresholds, once its product priced some (wait, term). */
  thresholds: Thresholds | null;
  /** Where its thresholds were read (its product prices there). */
  reference: Reference | null;
  /**
   * False when it prices no change of this deal (`bracketAdmits`: its asset, type, financier, asset age or LVR refuse
   * the deal, and no lever or wait moves them); absent (a record made elsewhere): not known, so it is tried.
   */
  admitted?: boolean;
  /**
   * Its product's per-term answer at the (wait, balloon) asked last (`DealWork.termsAt`); null or absent: not asked
   * yet (`linkedOf` sets every field, so every record has one shape).
   */
  termsWait?: number;
  termsBalloon?: number;
  terms?: Int8Array | null;
  /** Its least floor at the (wait, balloon) asked last (`DealWork.leastFloorOf`); NaN or absent: not asked yet. */
  leastWait?: number;
  leastBalloon?: number;
  least?: number;
}

/** One distinct changed deal and its brackets' rows (null: the bracket does not price it). */
interface Slot {
  /** Built when a candidate needs it (`deal`). */
  deal: Deal | null;
  rows: Map<number, PricedBracket | null>;
}
