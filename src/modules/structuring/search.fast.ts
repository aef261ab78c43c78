/**
 * One approval's search for the structuring fast path (engine.fast.ts): its smallest change in the change order and
 * its cheapest reachable change, over its linked brackets (approval-brackets.fast.ts) and the work one deal shares
 * (deal-work.fast.ts).
 */
import { MONEY_TOLERANCE } from '../matrix/index.ts';
import { type PricedBracket, roundMoney, roundRate } from '../pricing/index.ts';
import { ApprovalBrackets } from './approval-brackets.fast.ts';
import type { Reference } from './deal-work.fast.ts';
import {
  type ApprovalSearch,
  type Candidate,
  compareChanges,
  compareRank,
  firstTrue,
  leverChange,
  type RankBy,
  wholeAtLeast,
} from './engine.ts';

/**
 * Candidates' places in the change order at a fixed balloon, before they are checked: per key its deposit change, term
 * change, position in the plain rule's order (ties of equal changes keep it), deposit and term, each a full number.
 * In columns reused by every search (one search runs at a time, and checking a candidate makes no keys), not a record
 * per key.
 */
class Keys {
  length = 0;
  dDeposit = new Float64Array(256);
  dTerm = new Float64Array(256);
  order = new Float64Array(256);
  deposit = new Float64Array(256);
  term = new Float64Array(256);
  private byKey = new Int32Array(256);
  /** `leastGroup`'s keys. */
  group = new Int32Array(256);

  push(dDeposit: number, dTerm: number, order: number, deposit: number, term: number): void {
    if (this.length === this.term.length) this.grow();
    const k = this.length++;
    this.dDeposit[k] = dDeposit;
    this.dTerm[k] = dTerm;
    this.order[k] = order;
    this.deposit[k] = deposit;
    this.term[k] = term;
  }

  /**
   * The keys' numbers from the least (dDeposit, dTerm, order) up. Asked only when the least group (`leastGroup`) has
   * no sufficient candidate.
   */
  sorted(): Int32Array {
    const byKey = this.byKey.subarray(0, this.length);
    for (let k = 0; k < byKey.length; k++) byKey[k] = k;
    return byKey.sort(this.compare);
  }

  /**
   * The keys of the least (dDeposit, dTerm), in `group`, in the plain rule's order (keys are pushed in it); their
   * count. One scan, where `sorted` orders them all.
   */
  leastGroup(): number {
    const n = this.length;
    if (n === 0) return 0;
    let dd = this.dDeposit[0];
    let dt = this.dTerm[0];
    for (let k = 1; k < n; k++) {
      const d = this.dDeposit[k];
      if (d < dd || (d === dd && this.dTerm[k] < dt)) {
        dd = d;
        dt = this.dTerm[k];
      }
    }
    let count = 0;
    for (let k = 0; k < n; k++) if (this.dDeposit[k] === dd && this.dTerm[k] === dt) this.group[count++] = k;
    return count;
  }

  /** Made once: a closure per sort would be made thousands of times a deal. */
  private readonly compare = (x: number, y: number): number =>
    this.dDeposit[x] - this.dDeposit[y] || this.dTerm[x] - this.dTerm[y] || this.order[x] - this.order[y];

  private grow(): void {
    const size = this.term.length * 2;
    const wider = (from: Float64Array) => {
      const to = new Float64Array(size);
      to.set(from);
      return to;
    };
    this.dDeposit = wider(this.dDeposit);
    this.dTerm = wider(this.dTerm);
    this.order = wider(this.order);
    this.deposit = wider(this.deposit);
    this.term = wider(this.term);
    this.byKey = new Int32Array(size);
    this.group = new Int32Array(size);
  }
}

const keys = new Keys();

export class FastSearch extends ApprovalBrackets implements ApprovalSearch {
  /** `leastChangeAt`'s last answer and what it was asked on (-1: nothing yet). */
  private readonly lastLeast = { products: -1, could: -1, wait: -1, balloon: Number.NaN, least: Infinity };

  /** As the plain rule: the highest whole-dollar balloon below the deal's that still prices, by bisection. */
  private lowerBalloon(wait: number, deposit: number, term: number): Candidate | null {
    const { min_balloon: min } = this.work.input.bounds;
    if (min === null) return null;
    const kMin = wholeAtLeast(min);
    const kMax = wholeAtLeast(this.work.b0) - 1;
    if (kMin > kMax) return null;
    if (this.candidate(wait, deposit, term, kMin) === null) return null;
    const k = firstTrue(kMin, kMax + 1, (x) => x > kMax || this.candidate(wait, deposit, term, x) === null) - 1;
    return this.candidate(wait, deposit, term, k);
  }

  best(waits: readonly number[]): Candidate | null {
    // No linked bracket can price any change (`DealWork.reaches`): there is nothing to search.
    if (this.linked.length === 0) return null;
    const { bounds } = this.work.input;
    if (bounds.min_balloon !== null && bounds.min_balloon < this.work.b0) return this.everyCandidate(waits);
    return this.inChangeOrder(waits);
  }

  /** Every candidate of the plain rule, in its order (the balloon's bisections need each one checked). */
  private everyCandidate(waits: readonly number[]): Candidate | null {
    let best: Candidate | null = null;
    const consider = (c: Candidate | null) => {
      if (c !== null && (best === null || compareChanges(c, best) < 0)) best = c;
    };
    const { bounds } = this.work.input;
    const b0 = this.work.b0;
    for (const wait of waits) {
      for (const term of this.terms()) {
        for (const deposit of this.deposits(wait, term, b0)) consider(this.candidate(wait, deposit, term, b0));
        if (bounds.min_balloon !== null && bounds.min_balloon < b0) {
          const low = wholeAtLeast(bounds.min_balloon);
          for (const deposit of this.deposits(wait, term, low)) consider(this.lowerBalloon(wait, deposit, term));
        }
      }
    }
    return best;
  }

  /**
   * The balloon fixed: every candidate's order key is known before it is checked, so the candidates are checked from
   * the least key up; the first key with a sufficient candidate wins, its ties decided as the plain rule decides them
   * (the cheapest, then the earlier in the plain rule's order). Keys are made lazily, lever count by lever count and
   * wait by wait: no change, then a term change alone (nearest term first), then a deposit change alone (at the deal's
   * term), then both; a wait whose criteria fail (`criteriaHold`) or where no linked bracket could price at any term
   * (`pricesSomewhere`) has none, nor a term where none could price (`pricesAt`).
   */
  private inChangeOrder(waits: readonly number[]): Candidate | null {
    // Per wait: its criteria hold and some linked bracket could price there.
    const hold: (boolean | undefined)[] = [];
    for (let levers = 0; levers <= 2; levers++) {
      for (let w = 0; w < waits.length; w++) {
        const wait = waits[w];
        hold[w] ??= this.criteriaHold(wait) && this.pricesSomewhere(wait);
        if (!hold[w]) continue;
        const best =
          levers === 0
            ? this.ownTerm(wait, false)
            : levers === 1
              ? (this.termAlone(wait) ?? this.ownTerm(wait, true))
              : this.termAndDeposit(wait);
        if (best !== null) return best;
      }
    }
    return null;
  }

  /**
   * False when no linked bracket could price at any term the search tries, at (wait, the deal's balloon): then no
   * lever finds a candidate there. Read from the mask table (`termMasks`); true for a search without one.
   */
  private pricesSomewhere(wait: number): boolean {
    const masks = this.termMasks(wait, this.work.b0);
    if (masks === null) return true;
    const terms = this.terms();
    for (let ti = 0; ti < terms.length; ti++) if (this.couldAt(masks, terms[ti]) !== 0) return true;
    return false;
  }

  /**
   * At the deal's own term: with `changed` false the deposits that are no change (one tie group), else each changed
   * deposit from the least change up, ties in the plain rule's order.
   */
  private ownTerm(wait: number, changed: boolean): Candidate | null {
    const work = this.work;
    const t0 = work.t0;
    if (!this.hasTerm(t0) || !this.pricesAt(wait, t0, work.b0)) return null;
    // Only the deal's own deposit is no change: its one candidate, with no deposit list.
    if (!changed && !work.nearOwnDeposit)
      return work.d0 + MONEY_TOLERANCE >= this.minimum ? this.candidate(wait, work.d0, t0, work.b0, true) : null;
    const deposits = this.deposits(wait, t0, work.b0);
    const positions = this.plausible(wait, t0, work.b0, deposits);
    if (changed) {
      // The least change's keys first: the others are pushed only when none of them is sufficient.
      const dDeposit = this.leastDepositChange(deposits, positions);
      if (dDeposit === Infinity) return null;
      keys.length = 0;
      this.pushLeast(deposits, positions, dDeposit, 0, t0, 0);
      const best = this.groupBest(wait, null, keys.length);
      if (best !== null) return best;
    }
    keys.length = 0;
    for (let j = 0; j < positions.length; j++) {
      const i = positions[j];
      const deposit = deposits[i];
      const dDeposit = leverChange(deposit, work.d0);
      // Below the approval's minimum deposit (the deal's own can be) its criteria fail.
      if (dDeposit > 0 === changed && deposit + MONEY_TOLERANCE >= this.minimum) keys.push(dDeposit, 0, i, deposit, t0);
    }
    return this.leastKeyFirst(wait);
  }

  /**
   * A changed term with no change of deposit: the terms from the nearest to the deal's up, the lower of two equally
   * near first (the plain rule's order); every deposit that is no change at one distance is one tie group.
   */
  private termAlone(wait: number): Candidate | null {
    const work = this.work;
    // Only the deal's own deposit is no change unless a grid value is (`nearOwnDeposit`).
    if (!work.nearOwnDeposit && work.d0 + MONEY_TOLERANCE < this.minimum) return null;
    const terms = this.terms();
    const t0 = work.t0;
    const b0 = work.b0;
    const reach = Math.max(t0 - terms[0], terms[terms.length - 1] - t0);
    const masks = this.termMasks(wait, b0);
    for (let distance = 1; distance <= reach; distance++) {
      let best: Candidate | null = null;
      // The lower of the two terms first, then the higher: no list made per distance.
      for (let side = -1; side <= 1; side += 2) {
        const term = t0 + side * distance;
        if (!this.hasTerm(term)) continue;
        // `pricesAt`, read from the mask table when the search has one.
        if (masks !== null ? this.couldAt(masks, term) === 0 : !this.pricesAt(wait, term, b0)) continue;
        if (!work.nearOwnDeposit) {
          // Only the deal's own deposit is no change: its one candidate at the term, with no deposit list.
          if (!this.ownCould(wait, term, b0)) continue;
          const c = this.candidate(wait, work.d0, term, b0, true);
          if (c !== null && (best === null || compareChanges(c, best) < 0)) best = c;
          continue;
        }
        const deposits = this.deposits(wait, term, b0);
        const positions = this.plausible(wait, term, b0, deposits);
        for (let j = 0; j < positions.length; j++) {
          const i = positions[j];
          const deposit = deposits[i];
          // The deal's own deposit is first; another is no change only near it (`nearOwnDeposit`).
          if (i > 0 && !work.nearOwnDeposit) break;
          if (leverChange(deposit, work.d0) !== 0 || deposit + MONEY_TOLERANCE < this.minimum) continue;
          const c = this.candidate(wait, deposit, term, b0);
          if (c !== null && (best === null || compareChanges(c, best) < 0)) best = c;
        }
      }
      if (best !== null) return best;
    }
    return null;
  }

  /**
   * Both changed: keys (dDeposit, dTerm) over every term other than the deal's, in the plain rule's order. The least
   * key is found from each term's least deposit change (`leastDepositChange`) and its group checked first (at most two
   * terms: as far below the deal's as above); every key is made only when none of that group is sufficient.
   */
  private termAndDeposit(wait: number): Candidate | null {
    const work = this.work;
    const b0 = work.b0;
    let dd = Infinity;
    let dt = Infinity;
    // Which linked brackets could price each term, read from the search's mask table (`termMasks`) when it has one.
    const masks = this.termMasks(wait, b0);
    const terms = this.terms();
    for (let ti = 0; ti < terms.length; ti++) {
      const term = terms[ti];
      const dTerm = Math.abs(term - work.t0);
      if (dTerm === 0) continue;
      let least: number;
      if (masks !== null) {
        const could = this.couldAt(masks, term);
        if (could === 0) continue;
        least = this.leastChangeAt(wait, term, b0, masks.products[term], could);
      } else {
        if (!this.pricesAt(wait, term, b0)) continue;
        least = this.leastChangeAt(wait, term, b0, -1, -1);
      }
      if (least < dd || (least === dd && dTerm < dt)) {
        dd = least;
        dt = dTerm;
      }
    }
    if (dd === Infinity) return null;
    keys.length = 0;
    for (let side = -1; side <= 1; side += 2) {
      const term = work.t0 + side * dt;
      if (!this.hasTerm(term) || !this.pricesAt(wait, term, b0)) continue;
      const deposits = this.deposits(wait, term, b0);
      this.pushLeast(deposits, this.plausible(wait, term, b0, deposits), dd, dt, term, term * 65_536);
    }
    const best = this.groupBest(wait, null, keys.length);
    return best ?? this.everyTermAndDeposit(wait);
  }

  /** `termAndDeposit`'s keys, every one of them, checked from the least up. */
  private everyTermAndDeposit(wait: number): Candidate | null {
    const work = this.work;
    const b0 = work.b0;
    keys.length = 0;
    const terms = this.terms();
    for (let ti = 0; ti < terms.length; ti++) {
      const term = terms[ti];
      const dTerm = Math.abs(term - work.t0);
      if (dTerm === 0 || !this.pricesAt(wait, term, b0)) continue;
      const deposits = this.deposits(wait, term, b0);
      const positions = this.plausible(wait, term, b0, deposits);
      // The plain rule's order: terms up, then each term's deposits in their order.
      for (let j = 0; j < positions.length; j++) {
        const i = positions[j];
        const deposit = deposits[i];
        const dDeposit = leverChange(deposit, work.d0);
        if (dDeposit > 0 && deposit + MONEY_TOLERANCE >= this.minimum)
          keys.push(dDeposit, dTerm, term * 65_536 + i, deposit, term);
      }
    }
    return this.leastKeyFirst(wait);
  }

  /**
   * The keys checked from the least (dDeposit, dTerm) up: the first key with a sufficient candidate wins, its ties
   * decided as the plain rule decides them (the cheapest, then the earlier in the plain rule's order).
   */
  private leastKeyFirst(wait: number): Candidate | null {
    // Most searches end in their least key's group: it is found by one scan, and the keys are sorted only when none of
    // it is sufficient (its candidates are then asked again, from the deal's priced rows).
    const least = keys.leastGroup();
    let best = this.groupBest(wait, keys.group, least);
    if (best !== null || least === keys.length) return best;
    for (const key of keys.sorted()) {
      if (best !== null && (keys.dDeposit[key] !== best.dDeposit || keys.dTerm[key] !== best.dTerm)) break;
      const c = this.candidate(wait, keys.deposit[key], keys.term[key], this.work.b0);
      if (c !== null && (best === null || compareChanges(c, best) < 0)) best = c;
    }
    return best;
  }

  /**
   * The best candidate of the keys `at[0..count)` (one group: equal changes; `at` null: the first `count` keys, as
   * `pushLeast` makes them), by `compareChanges`, the earlier in the list first of equals; null when none is sufficient.
   */
  private groupBest(wait: number, at: Int32Array | null, count: number): Candidate | null {
    let best: Candidate | null = null;
    for (let j = 0; j < count; j++) {
      const key = at === null ? j : at[j];
      const c = this.candidate(wait, keys.deposit[key], keys.term[key], this.work.b0);
      if (c !== null && (best === null || compareChanges(c, best) < 0)) best = c;
    }
    return best;
  }

  /**
   * `leastDepositChange` of the deposits and positions at (wait, term, balloon). Both depend only on which linked
   * brackets' products price there and which could price (`products`, `could`: `productBits`, `canPriceBits`; -1 when
   * the search has more than 30), which is nearly always what the term before had: then it is the answer kept from
   * that term.
   */
  private leastChangeAt(wait: number, term: number, balloon: number, products: number, could: number): number {
    const last = this.lastLeast;
    if (
      could !== -1 &&
      last.products === products &&
      last.could === could &&
      last.wait === wait &&
      last.balloon === balloon
    )
      return last.least;
    const deposits = this.deposits(wait, term, balloon);
    const least = this.leastDepositChange(deposits, this.plausible(wait, term, balloon, deposits));
    last.products = products;
    last.could = could;
    last.wait = wait;
    last.balloon = balloon;
    last.least = least;
    return least;
  }

  /**
   * The least deposit change (`leverChange` above 0) among the positions `positions` of `deposits` whose deposit meets
   * the approval's minimum; Infinity when none.
   */
  private leastDepositChange(deposits: readonly number[], positions: readonly number[]): number {
    let least = Infinity;
    const d0 = this.work.d0;
    for (let j = 0; j < positions.length; j++) {
      const deposit = deposits[positions[j]];
      const dDeposit = leverChange(deposit, d0);
      if (dDeposit > 0 && dDeposit < least && deposit + MONEY_TOLERANCE >= this.minimum) least = dDeposit;
    }
    return least;
  }

  /** Pushes the keys of `positions` whose deposit change is `dDeposit` (the least: `leastDepositChange`), in order. */
  private pushLeast(
    deposits: readonly number[],
    positions: readonly number[],
    dDeposit: number,
    dTerm: number,
    term: number,
    orderBase: number,
  ): void {
    const d0 = this.work.d0;
    for (let j = 0; j < positions.length; j++) {
      const i = positions[j];
      const deposit = deposits[i];
      if (leverChange(deposit, d0) === dDeposit && deposit + MONEY_TOLERANCE >= this.minimum)
        keys.push(dDeposit, dTerm, orderBase + i, deposit, term);
    }
  }

  /**
   * The plain rule's candidates (every term, balloon and deposit it tries), ranked as it ranks them; ties of the whole
   * ranking go to the earlier in its order. By repayment, each (term, balloon) is visited from the least floor up
   * (`DealWork.floorOf`, the least over the brackets that could price there) and the search ends at the first floor
   * that ranks after the best so far or `toBeat`: no candidate left can rank before them.
   */
  cheapest(wait: number, rankBy: RankBy, toBeat: Candidate | null): Candidate | null {
    const balloons = this.work.cheapestBalloons;
    if (rankBy === 'repayment' && toBeat !== null && this.surelyNoBetter(wait, balloons, toBeat)) return null;
    const terms = this.terms();
    const cells: { order: number; term: number; balloon: number; floor: number }[] = [];
    for (let ti = 0; ti < terms.length; ti++) {
      for (let bi = 0; bi < balloons.length; bi++) {
        const floor = rankBy === 'repayment' ? this.floorAt(wait, terms[ti], balloons[bi]) : -Infinity;
        if (floor !== Infinity)
          cells.push({ order: ti * balloons.length + bi, term: terms[ti], balloon: balloons[bi], floor });
      }
    }
    if (rankBy === 'repayment') cells.sort((x, y) => x.floor - y.floor || x.order - y.order);
    let best: Candidate | null = null;
    let bestOrder = 0;
    for (let ci = 0; ci < cells.length; ci++) {
      const cell = cells[ci];
      if (rankBy === 'repayment') {
        const floor = roundMoney(cell.floor);
        if (toBeat !== null && floor > roundMoney(toBeat.bracket.repayment_min)) break;
        if (best !== null && floor > roundMoney(best.bracket.repayment_min)) break;
      }
      const deposits = this.deposits(wait, cell.term, cell.balloon);
      const positions = this.plausible(wait, cell.term, cell.balloon, deposits);
      for (let j = 0; j < positions.length; j++) {
        const di = positions[j];
        const deposit = deposits[di];
        const bracket = this.bracketAt(wait, deposit, cell.term, cell.balloon);
        // Figures that already rank after the best cannot win, whatever the change: its criteria are not read.
        if (bracket === null) continue;
        if (toBeat !== null && rankFigures(bracket, toBeat.bracket, rankBy) > 0) continue;
        if (best !== null && rankFigures(bracket, best.bracket, rankBy) > 0) continue;
        const c = this.confirmed(bracket, wait, deposit, cell.term, cell.balloon);
        if (c === null) continue;
        // The plain rule keeps the first of equals in its order: term, balloon, deposit.
        const order = cell.order * 65_536 + di;
        const rank = best === null ? -1 : compareRank(c, best, rankBy);
        if (rank < 0 || (rank === 0 && order < bestOrder)) {
          best = c;
          bestOrder = order;
        }
      }
    }
    return best;
  }

  /**
   * True when no cell's floor can rank before `toBeat`: the least floor of each linked bracket over every term any
   * approval searches (`DealWork.leastFloorOf`) is under the floor of each cell this approval has, so when the least
   * of them ranks after `toBeat`, the walk below would stop at its first cell. A bracket's own is read only when its
   * product's floor (`DealWork.productFloorOf`, under those of all its brackets) does not rank after `toBeat` already.
   */
  private surelyNoBetter(wait: number, balloons: readonly number[], toBeat: Candidate): boolean {
    const bound = roundMoney(toBeat.bracket.repayment_min);
    for (let bi = 0; bi < balloons.length; bi++) {
      const balloon = balloons[bi];
      for (let k = 0; k < this.linked.length; k++) {
        const l = this.linked[k];
        if (!l.admitted) continue;
        const terms = this.termsAt(k, wait, balloon);
        // Under the bracket's own: when it ranks after `toBeat`, so does the bracket's.
        if (roundMoney(this.work.productFloorOf(l, terms, wait, balloon)) > bound) continue;
        const floor = this.work.leastFloorOf(l, terms, wait, balloon);
        // The least of them would not rank after `toBeat` either: the rest need not be read.
        if (roundMoney(floor) <= bound) return false;
      }
    }
    return true;
  }

  /**
   * The least repayment floor at (wait, term, balloon) over the linked brackets that could price there; Infinity
   * when none can.
   */
  private floorAt(wait: number, term: number, balloon: number): number {
    let least = Infinity;
    for (let k = 0; k < this.linked.length; k++) {
      if (!this.canPrice(k, wait, term, balloon)) continue;
      const l = this.linked[k];
      this.thresholdsOf(l, wait, term, balloon);
      const floor = this.work.floorOf(l, l.reference as Reference, term, balloon);
      if (floor < least) least = floor;
    }
    return least;
  }
}

/** compareRank's first two keys (the shown repayment and rate), as it reads them. */
function rankFigures(a: PricedBracket, b: PricedBracket, rankBy: RankBy): number {
  const byRepayment = roundMoney(a.repayment_min) - roundMoney(b.repayment_min);
  const byRate = roundRate(a.e_min) - roundRate(b.e_min);
  return rankBy === 'rate' ? byRate || byRepayment : byRepayment || byRate;
}
