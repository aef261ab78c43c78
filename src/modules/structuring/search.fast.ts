/**
 * One approval's search for the structuring fast path (engine.fast.ts): its smallest change in the change order and
 * its cheapest reachable change, over the work one deal shares (deal-work.fast.ts).
 */
import type { Approval } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import { depositRequired, evaluateApproval, MONEY_TOLERANCE } from '../matrix/index.ts';
import { compareCheapest, type PricedBracket, priceOneBracket } from '../pricing/index.ts';
import { roundMoney, roundRate } from '../pricing/index.ts';
import {
  candidateOf,
  compareChanges,
  compareRank,
  firstTrue,
  leverChange,
  type ApprovalSearch,
  type Candidate,
  type RankBy,
} from './engine.ts';
import type { DealWork, Linked, Reference, Thresholds } from './deal-work.fast.ts';

/** A candidate's place in the change order at a fixed balloon, before it is checked. */
interface Key {
  dDeposit: number;
  dTerm: number;
  /** Its position in the plain rule's order: ties of equal (dDeposit, dTerm) keep it. */
  order: number;
  deposit: number;
  term: number;
}

export class FastSearch implements ApprovalSearch {
  /** Linked brackets of the approval's own financier, in the approval's order, without repeats (`linked`). */
  private linkedList: Linked[] | null = null;
  /** Per linked bracket: 0 when it prices no change of the deal (`DealWork.admits`). */
  private admitted = new Uint8Array(0);
  private readonly minimum: number;
  private readonly lo: number;
  private readonly hi: number;
  /** The deposits of the terms where exactly these linked brackets' products price (a bit each): `deposits`. */
  private readonly depositLists = new Map<number, number[]>();
  /** Deposit list -> linked brackets that could price (a bit each) -> its positions one of them could price. */
  private readonly plausibleLists = new Map<number[], Map<number, Int32Array>>();
  private termList: number[] | null = null;
  /** `${wait}|${balloon}` -> per linked bracket, its product's per-term answer (DealWork.termsOf). */
  private readonly feasible = new Map<string, Int8Array[]>();
  private lastWait = 0;
  private lastBalloon = 0;
  private lastFeasible: Int8Array[] | null = null;

  constructor(
    private readonly a: Approval,
    private readonly work: DealWork,
  ) {
    this.minimum = depositRequired(a, work.input.deal.cost_inc) ?? 0;
    this.lo = Math.max(0, this.minimum - MONEY_TOLERANCE);
    this.hi = work.input.bounds.max_deposit;
  }

  /** Built on first use: most approvals are blocked by a fact and never searched. */
  private get linked(): Linked[] {
    if (this.linkedList !== null) return this.linkedList;
    const a = this.a;
    const linked: Linked[] = [];
    const ids = a.rate_bracket_ids;
    for (let i = 0; i < ids.length; i++) {
      // Without repeats, first place kept.
      if (ids.indexOf(ids[i]) < i) continue;
      const l = this.work.linkedOf(ids[i]);
      if (l !== null && l.bracket.organisation_id === a.organisation_id) linked.push(l);
    }
    this.admitted = new Uint8Array(linked.length);
    for (let k = 0; k < linked.length; k++) this.admitted[k] = this.work.admits(linked[k].id) ? 1 : 0;
    this.linkedList = linked;
    return linked;
  }

  verify(deal: Deal): PricedBracket | null {
    if (evaluateApproval(this.a, deal, this.work.catalogue.ancestry)?.status !== 'confirmed') return null;
    let best: PricedBracket | null = null;
    for (const l of this.linked) {
      const row = priceOneBracket(this.work.catalogue.pricingIndex, deal, l.id, 'commercial');
      if (row !== null && (best === null || compareCheapest(row, best) < 0)) best = row;
    }
    return best;
  }

  /** The approval's cheapest linked bracket on the changed deal (Rule 13), before its criteria are read. */
  private bracketAt(wait: number, deposit: number, term: number, balloon: number): PricedBracket | null {
    const work = this.work;
    let bracket: PricedBracket | null = null;
    for (let k = 0; k < this.linked.length; k++) {
      if (this.surelyNot(k, wait, deposit, term, balloon)) continue;
      const row = work.price(this.linked[k].id, wait, deposit, term, balloon);
      if (row !== null && (bracket === null || compareCheapest(row, bracket) < 0)) bracket = row;
    }
    return bracket;
  }

  private candidate(wait: number, deposit: number, term: number, balloon: number): Candidate | null {
    const bracket = this.bracketAt(wait, deposit, term, balloon);
    return bracket === null ? null : this.confirmed(bracket, wait, deposit, term, balloon);
  }

  /** The candidate when the approval is confirmed on the changed deal, else null. */
  private confirmed(
    bracket: PricedBracket,
    wait: number,
    deposit: number,
    term: number,
    balloon: number,
  ): Candidate | null {
    const work = this.work;
    const deal = work.deal(wait, deposit, term, balloon);
    if (evaluateApproval(this.a, deal, work.catalogue.ancestry)?.status !== 'confirmed') return null;
    return candidateOf(
      { deposit: work.d0, term: work.t0, balloon: work.b0 },
      wait,
      deposit,
      term,
      balloon,
      bracket,
      deal,
    );
  }

  /** As the plain rule: the bounds (with the deal's own), narrowed by the approval's own term criteria. */
  private terms(): number[] {
    if (this.termList !== null) return this.termList;
    const { bounds } = this.work.input;
    const t0 = this.work.t0;
    const lo = Math.max(Math.min(bounds.min_term, t0), this.a.min_term ?? 1, 1);
    const hi = Math.min(Math.max(bounds.max_term, t0), this.a.max_term ?? Infinity);
    const terms: number[] = [];
    for (let t = Math.ceil(lo); t <= hi; t++) {
      if (t === t0 || (t >= bounds.min_term && t <= bounds.max_term)) terms.push(t);
    }
    this.termList = terms;
    return terms;
  }

  /** Per linked bracket, its product's per-term answer at (wait, balloon). */
  private feasibleAt(wait: number, balloon: number): Int8Array[] {
    // Asked per term and bracket, nearly always for the same (wait, balloon) as the last time.
    if (this.lastFeasible !== null && wait === this.lastWait && balloon === this.lastBalloon) return this.lastFeasible;
    const key = `${wait}|${balloon}`;
    let arrays = this.feasible.get(key);
    if (arrays === undefined) {
      arrays = this.linked.map((l) => this.work.termsOf(l.productId, wait, balloon));
      this.feasible.set(key, arrays);
    }
    this.lastWait = wait;
    this.lastBalloon = balloon;
    this.lastFeasible = arrays;
    return arrays;
  }

  /** The bracket's thresholds, read on (wait, term, balloon), where its product prices. */
  private thresholdsOf(l: Linked, wait: number, term: number, balloon: number): Thresholds {
    if (l.thresholds === null) {
      const reference = { wait, term, balloon };
      l.thresholds = this.work.thresholdsOf(l, reference);
      l.reference ??= reference;
    }
    return l.thresholds;
  }

  /**
   * True when the bracket surely cannot price `deposit` at (wait, term, balloon): outside its own term range, its
   * product prices nothing there, or the amount financed is outside its range (the thresholds bound it on both sides:
   * it falls as the deposit rises). A pricing check it would fail anyway, made without building the deal.
   */
  private surelyNot(k: number, wait: number, deposit: number, term: number, balloon: number): boolean {
    const l = this.linked[k];
    const b = l.bracket;
    if (this.admitted[k] === 0) return true;
    if ((b.min_term !== null && term < b.min_term) || (b.max_term !== null && term > b.max_term)) return true;
    if (!(deposit >= 0)) return false;
    if (!this.work.prices(this.feasibleAt(wait, balloon)[k], l.id, wait, term, balloon)) return true;
    return outside(this.thresholdsOf(l, wait, term, balloon), deposit);
  }

  /**
   * The positions in `deposits` (the list `deposits` gives for (wait, term, balloon)) that some linked bracket could
   * price at (wait, term, balloon): its term range and product allow the term and the deposit is inside its window
   * (`surelyNot`). Any other position's candidate is none, so a search skips it unpriced. Kept per list and set of
   * such brackets.
   */
  private plausible(wait: number, term: number, balloon: number, deposits: number[]): Int32Array {
    const linked = this.linked;
    const feasible = this.feasibleAt(wait, balloon);
    let mask = 0;
    for (let k = 0; k < linked.length && k < 30; k++) {
      const b = linked[k].bracket;
      if (this.admitted[k] === 0) continue;
      if ((b.min_term !== null && term < b.min_term) || (b.max_term !== null && term > b.max_term)) continue;
      if (this.work.prices(feasible[k], linked[k].id, wait, term, balloon)) mask |= 1 << k;
    }
    let byMask = linked.length <= 30 ? this.plausibleLists.get(deposits) : undefined;
    let positions = byMask?.get(mask);
    if (positions !== undefined) return positions;
    const out: number[] = [];
    for (let i = 0; i < deposits.length; i++) {
      const d = deposits[i];
      for (let k = 0; k < linked.length; k++) {
        if (!this.surelyNot(k, wait, d, term, balloon)) {
          out.push(i);
          break;
        }
      }
    }
    positions = Int32Array.from(out);
    if (linked.length <= 30) {
      if (byMask === undefined) this.plausibleLists.set(deposits, (byMask = new Map()));
      byMask.set(mask, positions);
    }
    return positions;
  }

  /** The deposits bracket `l` adds once its product prices, as the plain rule finds them. */
  private addedBy(l: Linked, wait: number, term: number, balloon: number): number[] {
    // They depend on the bracket and the approval's minimum deposit only: kept per deal for every approval.
    const added = this.work.addedFor(this.minimum);
    let out = added.get(l.id);
    if (out !== undefined) return out;
    out = [];
    const work = this.work;
    const t = this.thresholdsOf(l, wait, term, balloon);
    work.grids.forEach((g, at) => {
      let first = Math.ceil(this.lo / g.step - 1e-9);
      const last = g.last;
      while (first <= last && g.value(first) + MONEY_TOLERANCE < this.minimum) first++;
      if (first > last) return;
      const kLo = Math.min(Math.max(t.belowMax[at], first), last + 1);
      const kHi = Math.min(Math.max(t.belowMin[at], kLo), last + 1) - 1;
      if (kLo > kHi) return;
      const near = work.d0 / g.step;
      for (const k of [kLo, kHi, Math.floor(near), Math.ceil(near)]) out.push(g.value(Math.min(kHi, Math.max(kLo, k))));
    });
    added.set(l.id, out);
    return out;
  }

  /** The plain rule's deposits for (wait, term, balloon), in its order. */
  private deposits(wait: number, term: number, balloon: number): number[] {
    const work = this.work;
    if (this.lo > this.hi) return [work.d0];
    const feasible = this.feasibleAt(wait, balloon);
    const linked = this.linked;
    // They depend only on which linked brackets' products price here: one list per such set, kept.
    let mask = 0;
    for (let k = 0; k < linked.length && k < 30; k++)
      if (work.prices(feasible[k], linked[k].id, wait, term, balloon)) mask |= 1 << k;
    const kept = linked.length <= 30 ? this.depositLists.get(mask) : undefined;
    if (kept !== undefined) return kept;
    const out = new Set<number>([work.d0]);
    for (let k = 0; k < linked.length; k++) {
      const l = linked[k];
      if (!work.prices(feasible[k], l.id, wait, term, balloon)) continue;
      for (const d of this.addedBy(l, wait, term, balloon)) out.add(d);
    }
    const result: number[] = [];
    for (const d of out)
      if (d === work.d0 || (d <= this.hi + MONEY_TOLERANCE && d + MONEY_TOLERANCE >= this.minimum)) result.push(d);
    if (linked.length <= 30) this.depositLists.set(mask, result);
    return result;
  }

  /** As the plain rule: the highest whole-dollar balloon below the deal's that still prices, by bisection. */
  private lowerBalloon(wait: number, deposit: number, term: number): Candidate | null {
    const { min_balloon: min } = this.work.input.bounds;
    if (min === null) return null;
    const kMin = Math.ceil(min - 1e-9);
    const kMax = Math.ceil(this.work.b0 - 1e-9) - 1;
    if (kMin > kMax) return null;
    if (this.candidate(wait, deposit, term, kMin) === null) return null;
    const k = firstTrue(kMin, kMax + 1, (x) => x > kMax || this.candidate(wait, deposit, term, x) === null) - 1;
    return this.candidate(wait, deposit, term, k);
  }

  best(waits: readonly number[]): Candidate | null {
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
          const low = Math.ceil(bounds.min_balloon - 1e-9);
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
   * term), then both; a wait whose criteria fail (`criteriaHold`) has none, nor a term where no linked bracket's
   * product prices (`pricesAt`).
   */
  private inChangeOrder(waits: readonly number[]): Candidate | null {
    const hold: (boolean | undefined)[] = [];
    for (let levers = 0; levers <= 2; levers++) {
      for (let w = 0; w < waits.length; w++) {
        const wait = waits[w];
        hold[w] ??= this.criteriaHold(wait);
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
   * At the deal's own term: with `changed` false the deposits that are no change (one tie group), else each changed
   * deposit from the least change up, ties in the plain rule's order.
   */
  private ownTerm(wait: number, changed: boolean): Candidate | null {
    const work = this.work;
    const t0 = work.t0;
    if (!this.terms().includes(t0) || !this.pricesAt(wait, t0, work.b0)) return null;
    const deposits = this.deposits(wait, t0, work.b0);
    const keys: Key[] = [];
    for (const i of this.plausible(wait, t0, work.b0, deposits)) {
      const deposit = deposits[i];
      if (!changed && !work.nearOwnDeposit && i > 0) break;
      const dDeposit = leverChange(deposit, work.d0);
      // Below the approval's minimum deposit (the deal's own can be) its criteria fail.
      if (dDeposit > 0 === changed && deposit + MONEY_TOLERANCE >= this.minimum)
        keys.push({ dDeposit, dTerm: 0, order: i, deposit, term: t0 });
    }
    return this.leastKeyFirst(wait, keys);
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
    for (let distance = 1; distance <= reach; distance++) {
      let best: Candidate | null = null;
      for (const term of [t0 - distance, t0 + distance]) {
        if (term < terms[0] || term > terms[terms.length - 1] || !terms.includes(term)) continue;
        if (!this.pricesAt(wait, term, b0)) continue;
        const deposits = this.deposits(wait, term, b0);
        for (const i of this.plausible(wait, term, b0, deposits)) {
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

  /** Both changed: keys (dDeposit, dTerm) over every term other than the deal's, in the plain rule's order. */
  private termAndDeposit(wait: number): Candidate | null {
    const work = this.work;
    const b0 = work.b0;
    const keys: Key[] = [];
    for (const term of this.terms()) {
      const dTerm = Math.abs(term - work.t0);
      if (dTerm === 0 || !this.pricesAt(wait, term, b0)) continue;
      const deposits = this.deposits(wait, term, b0);
      // The plain rule's order: terms up, then each term's deposits in their order.
      for (const i of this.plausible(wait, term, b0, deposits)) {
        const deposit = deposits[i];
        const dDeposit = leverChange(deposit, work.d0);
        if (dDeposit > 0 && deposit + MONEY_TOLERANCE >= this.minimum)
          keys.push({ dDeposit, dTerm, order: term * 65_536 + i, deposit, term });
      }
    }
    return this.leastKeyFirst(wait, keys);
  }

  /**
   * The keys checked from the least (dDeposit, dTerm) up: the first key with a sufficient candidate wins, its ties
   * decided as the plain rule decides them (the cheapest, then the earlier in the plain rule's order).
   */
  private leastKeyFirst(wait: number, keys: Key[]): Candidate | null {
    keys.sort((x, y) => x.dDeposit - y.dDeposit || x.dTerm - y.dTerm || x.order - y.order);
    let best: Candidate | null = null;
    for (const key of keys) {
      if (best !== null && (key.dDeposit !== best.dDeposit || key.dTerm !== best.dTerm)) break;
      const c = this.candidate(wait, key.deposit, key.term, this.work.b0);
      if (c !== null && (best === null || compareChanges(c, best) < 0)) best = c;
    }
    return best;
  }

  /**
   * Whether the approval's criteria hold after `wait` months on every candidate whose deposit meets its minimum: the
   * candidates differ only in deposit, term and balloon; its criteria read the term as a range the searched terms are
   * already narrowed to, and the deposit as that minimum, and read no balloon. So one candidate decides them all,
   * before any is priced.
   */
  private criteriaHold(wait: number): boolean {
    const terms = this.terms();
    if (terms.length === 0) return false;
    const deal = this.work.deal(wait, Math.max(this.work.d0, this.minimum), terms[0], this.work.b0);
    return evaluateApproval(this.a, deal, this.work.catalogue.ancestry)?.status === 'confirmed';
  }

  /** True when some linked bracket could price at (wait, term, balloon): its term range and its product allow it. */
  private pricesAt(wait: number, term: number, balloon: number): boolean {
    const feasible = this.feasibleAt(wait, balloon);
    for (let k = 0; k < this.linked.length; k++) {
      const l = this.linked[k];
      const b = l.bracket;
      if (this.admitted[k] === 0) continue;
      if ((b.min_term !== null && term < b.min_term) || (b.max_term !== null && term > b.max_term)) continue;
      if (this.work.prices(feasible[k], l.id, wait, term, balloon)) return true;
    }
    return false;
  }

  /**
   * The plain rule's candidates (every term, balloon and deposit it tries), ranked as it ranks them; ties of the whole
   * ranking go to the earlier in its order. By repayment, each (term, balloon) is visited from the least floor up
   * (`DealWork.floorOf`, the least over the brackets that could price there) and the search ends at the first floor
   * that ranks after the best so far or `toBeat`: no candidate left can rank before them.
   */
  cheapest(wait: number, rankBy: RankBy, toBeat: Candidate | null): Candidate | null {
    const { bounds } = this.work.input;
    const balloonSet = new Set<number>([this.work.b0]);
    if (bounds.min_balloon !== null) balloonSet.add(Math.ceil(bounds.min_balloon - 1e-9));
    if (bounds.max_balloon !== null) balloonSet.add(Math.floor(bounds.max_balloon + 1e-9));
    const balloons = [...balloonSet];
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
    for (const cell of cells) {
      if (rankBy === 'repayment') {
        const floor = roundMoney(cell.floor);
        if (toBeat !== null && floor > roundMoney(toBeat.bracket.repayment_min)) break;
        if (best !== null && floor > roundMoney(best.bracket.repayment_min)) break;
      }
      const deposits = this.deposits(wait, cell.term, cell.balloon);
      for (const di of this.plausible(wait, cell.term, cell.balloon, deposits)) {
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
   * of them ranks after `toBeat`, the walk below would stop at its first cell.
   */
  private surelyNoBetter(wait: number, balloons: readonly number[], toBeat: Candidate): boolean {
    let least = Infinity;
    for (const balloon of balloons) {
      const feasible = this.feasibleAt(wait, balloon);
      for (let k = 0; k < this.linked.length && least !== -Infinity; k++) {
        if (this.admitted[k] === 0) continue;
        const floor = this.work.leastFloorOf(this.linked[k], feasible[k], wait, balloon);
        if (floor < least) least = floor;
      }
    }
    return roundMoney(least) > roundMoney(toBeat.bracket.repayment_min);
  }

  /**
   * The least repayment floor at (wait, term, balloon) over the linked brackets that could price there; Infinity
   * when none can.
   */
  private floorAt(wait: number, term: number, balloon: number): number {
    let least = Infinity;
    const feasible = this.feasibleAt(wait, balloon);
    for (let k = 0; k < this.linked.length; k++) {
      const l = this.linked[k];
      const b = l.bracket;
      if (this.admitted[k] === 0) continue;
      if ((b.min_term !== null && term < b.min_term) || (b.max_term !== null && term > b.max_term)) continue;
      if (!this.work.prices(feasible[k], l.id, wait, term, balloon)) continue;
      this.thresholdsOf(l, wait, term, balloon);
      const floor = this.work.floorOf(b, l.min, l.reference as Reference, term, balloon);
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

/** True when `deposit` is outside the bracket's window on some grid (`Thresholds.low`, `high`). */
function outside(t: Thresholds, deposit: number): boolean {
  for (let at = 0; at < t.low.length; at++) if (deposit <= t.low[at] || deposit >= t.high[at]) return true;
  return false;
}
