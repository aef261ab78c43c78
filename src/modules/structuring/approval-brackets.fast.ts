/**
 * One approval's linked brackets over the work one deal shares (deal-work.fast.ts), for its search (search.fast.ts):
 * which of them could price a change (term ranges, products, deposit windows, what the deal admits), the deposits and
 * terms the plain rule tries, and a candidate checked on both engines.
 */
import type { Approval } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import { depositRequired, MONEY_TOLERANCE } from '../matrix/index.ts';
import { compareCheapest, type PricedBracket, priceOneBracket } from '../pricing/index.ts';
import { type Candidate, candidateOf, wholeAtLeast } from './engine.ts';
import { type DealWork, type Linked, referenceOf, type TermMasks, type Thresholds } from './deal-work.fast.ts';

export class ApprovalBrackets {
  /**
   * Linked brackets of the approval's own financier, in the approval's order, without repeats, that some searched
   * deposit could meet (`DealWork.reaches`; the others price no change): `linked`.
   */
  protected linkedList: Linked[] | null = null;
  protected readonly minimum: number;
  protected readonly lo: number;
  protected readonly hi: number;
  /**
   * The deposits of the terms where exactly these linked brackets' products price (a bit each): `deposits`. Made on
   * first use, as the list below: most approvals are never searched.
   */
  protected depositLists: Map<number, number[]> | null = null;
  /** Deposit list -> linked brackets that could price (a bit each) -> its positions one of them could price. */
  protected plausibleLists: Map<number[], Map<number, number[]>> | null = null;
  /**
   * The first of each kept beside the maps, which are made only for a second: most searches meet one set of
   * brackets, and a map per search weighs more than the list it keeps.
   */
  private firstDepositMask = -1;
  private firstDeposits: number[] | null = null;
  private firstPlausibleMask = -1;
  private firstPlausibleOf: number[] | null = null;
  private firstPositions: number[] | null = null;
  protected termList: number[] | null = null;
  /** The first 30 linked brackets the deal admits, a bit each (`linked`). */
  private admittedBits = 0;
  /** Of the first 30 linked brackets: whose own-deposit amount test is known (`ownCould`), and which pass it. */
  private ownKnown = 0;
  private ownInside = 0;
  /** `deposits`' list when no deposit but the deal's own is in bounds (the approval's minimum is past them). */
  private ownDepositOnly: number[] | null = null;

  constructor(
    protected readonly a: Approval,
    protected readonly work: DealWork,
  ) {
    this.minimum = depositRequired(a, work.input.deal.cost_inc) ?? 0;
    this.lo = Math.max(0, this.minimum - MONEY_TOLERANCE);
    this.hi = work.input.bounds.max_deposit;
  }

  /** Built on first use: most approvals are blocked by a fact and never searched. */
  protected get linked(): Linked[] {
    if (this.linkedList !== null) return this.linkedList;
    const a = this.a;
    const linked: Linked[] = [];
    const ids = a.rate_bracket_ids;
    // Without repeats, first place kept (a financier may link hundreds of brackets to one approval).
    const seen = seenFor(ids);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (!firstPlace(ids, i, seen)) continue;
      const l = this.work.linkedOf(id);
      if (l !== null && l.bracket.organisation_id === a.organisation_id && this.work.reaches(l)) linked.push(l);
    }
    for (let k = 0; k < linked.length && k < 30; k++) if (linked[k].admitted) this.admittedBits |= 1 << k;
    this.linkedList = linked;
    return linked;
  }

  /**
   * True when the approval is confirmed on the deal as it stands (the deal after no wait) and one of its linked
   * brackets prices it: the first that does answers, and a bracket `ownDepositOutside` passes over is not priced.
   */
  pricesAsItStands(deal: Deal): boolean {
    const work = this.work;
    if (!work.confirms(this.a, deal, 0)) return false;
    for (let k = 0; k < this.linked.length; k++) {
      if (this.ownDepositOutside(k, 0, work.t0, work.b0)) continue;
      if (priceOneBracket(work.catalogue.pricingIndex, deal, this.linked[k].id, 'commercial') !== null) return true;
    }
    return false;
  }

  /**
   * The approval's cheapest linked bracket on the changed deal (Rule 13), before its criteria are read. `own`: the
   * deposit is the deal's own, and brackets are passed over by `ownDepositOutside`, not by their thresholds.
   */
  protected bracketAt(wait: number, deposit: number, term: number, balloon: number, own = false): PricedBracket | null {
    const work = this.work;
    let bracket: PricedBracket | null = null;
    for (let k = 0; k < this.linked.length; k++) {
      if (own ? this.ownDepositOutside(k, wait, term, balloon) : this.surelyNot(k, wait, deposit, term, balloon))
        continue;
      const row = work.price(this.linked[k].id, wait, deposit, term, balloon);
      if (row !== null && (bracket === null || compareCheapest(row, bracket) < 0)) bracket = row;
    }
    return bracket;
  }

  protected candidate(wait: number, deposit: number, term: number, balloon: number, own = false): Candidate | null {
    const bracket = this.bracketAt(wait, deposit, term, balloon, own);
    return bracket === null ? null : this.confirmed(bracket, wait, deposit, term, balloon);
  }

  /** The candidate when the approval is confirmed on the changed deal, else null. */
  protected confirmed(
    bracket: PricedBracket,
    wait: number,
    deposit: number,
    term: number,
    balloon: number,
  ): Candidate | null {
    const work = this.work;
    const deal = work.deal(wait, deposit, term, balloon);
    if (!work.confirms(this.a, deal, wait)) return null;
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
  protected terms(): number[] {
    if (this.termList !== null) return this.termList;
    const { bounds } = this.work.input;
    const t0 = this.work.t0;
    const lo = Math.max(Math.min(bounds.min_term, t0), this.a.min_term ?? 1, 1);
    const hi = Math.min(Math.max(bounds.max_term, t0), this.a.max_term ?? Infinity);
    this.termList = this.work.termsBetween(Math.ceil(lo), Math.floor(hi));
    return this.termList;
  }

  /**
   * `terms().includes(term)` without the walk: the list is every whole term between its ends that is the deal's own
   * or within the bounds (`DealWork.termsBetween`).
   */
  protected hasTerm(term: number): boolean {
    const terms = this.terms();
    if (terms.length === 0 || term < terms[0] || term > terms[terms.length - 1] || term !== Math.floor(term))
      return false;
    const { bounds } = this.work.input;
    return term === this.work.t0 || (term >= bounds.min_term && term <= bounds.max_term);
  }

  /** Linked bracket `k`'s product's per-term answer at (wait, balloon) (`DealWork.termsAt`, shared by every approval). */
  protected termsAt(k: number, wait: number, balloon: number): Int8Array {
    return this.work.termsAt(this.linked[k], wait, balloon);
  }

  /** The bracket's thresholds, read on (wait, term, balloon), where its product prices. */
  protected thresholdsOf(l: Linked, wait: number, term: number, balloon: number): Thresholds {
    if (l.thresholds === null) {
      const reference = referenceOf(l, wait, term, balloon);
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
  protected surelyNot(k: number, wait: number, deposit: number, term: number, balloon: number): boolean {
    const l = this.linked[k];
    if (!l.admitted || !this.inTermRange(k, term)) return true;
    if (!(deposit >= 0)) return false;
    if (!this.work.prices(this.termsAt(k, wait, balloon), l.id, wait, term, balloon)) return true;
    return outside(this.thresholdsOf(l, wait, term, balloon), this.work.grids.length, deposit);
  }

  /**
   * `surelyNot` at the deal's own deposit without the bracket's thresholds: its product's amount financed there
   * (`DealWork.ownAmount`) outside its amount range by more than a cent. A search that changes no deposit asks only
   * this, so a bracket whose thresholds no search needs never has them found.
   */
  protected ownDepositOutside(k: number, wait: number, term: number, balloon: number): boolean {
    return !this.canPrice(k, wait, term, balloon) || this.ownAmountOutside(k, wait, term, balloon);
  }

  /** `ownDepositOutside`'s amount test, asked where bracket `k` can price: the same at every such (wait, term, balloon). */
  private ownAmountOutside(k: number, wait: number, term: number, balloon: number): boolean {
    const l = this.linked[k];
    const amount = this.work.ownAmount(l, wait, term, balloon);
    return amount < l.min - CENT || amount > l.max + CENT;
  }

  /**
   * False when no linked bracket could price the deal's own deposit at (wait, term, balloon) (`ownDepositOutside`),
   * so its candidate there is none. The amount test is kept per bracket (a bit each, for the first 30), as it is the
   * same wherever the bracket can price.
   */
  protected ownCould(wait: number, term: number, balloon: number): boolean {
    if (this.linked.length > 30) return this.pricesAt(wait, term, balloon);
    const can = this.canPriceBits(wait, term, balloon);
    let unknown = can & ~this.ownKnown;
    while (unknown !== 0) {
      const k = 31 - Math.clz32(unknown & -unknown);
      unknown &= unknown - 1;
      this.ownKnown |= 1 << k;
      if (!this.ownAmountOutside(k, wait, term, balloon)) this.ownInside |= 1 << k;
    }
    return (can & this.ownInside) !== 0;
  }

  /** Linked bracket `k`'s own term range allows `term`. */
  protected inTermRange(k: number, term: number): boolean {
    const b = this.linked[k].bracket;
    return !((b.min_term !== null && term < b.min_term) || (b.max_term !== null && term > b.max_term));
  }

  /** Which of the first 30 linked brackets' products price at (wait, term, balloon), a bit each (`DealWork.prices`). */
  protected productBits(wait: number, term: number, balloon: number): number {
    return this.holdMasks(wait, balloon).products[term];
  }

  /** Which of the first 30 linked brackets could price at (wait, term, balloon), a bit each (`canPrice`). */
  protected canPriceBits(wait: number, term: number, balloon: number): number {
    return this.couldAt(this.holdMasks(wait, balloon), term);
  }

  /** `canPriceBits` read from the search's mask table (`termMasks`): for a caller that walks every term. */
  protected couldAt(masks: TermMasks, term: number): number {
    return masks.products[term] & masks.ranges[term] & this.admittedBits;
  }

  /**
   * `holdMasks` for a search with at most 30 linked brackets (the masks' width), else null: read per term (`couldAt`,
   * `products[term]`) by a caller that walks every term.
   */
  protected termMasks(wait: number, balloon: number): TermMasks | null {
    return this.linked.length <= 30 ? this.holdMasks(wait, balloon) : null;
  }

  /**
   * The deal's mask table (`DealWork.masks`) for this search at (wait, balloon), filled for every term at once: a
   * product's per-term answer is filled whole on its first question (`DealWork.prices`), and every search asks each
   * linked bracket's product at some term.
   */
  private holdMasks(wait: number, balloon: number): TermMasks {
    const masks = this.work.masks;
    if (masks.owner === this && masks.wait === wait && masks.balloon === balloon) return masks;
    const linked = this.linked;
    const count = Math.min(linked.length, 30);
    const size = masks.products.length;
    // The term ranges are the approval's own: kept while it holds the table.
    if (masks.owner !== this) {
      masks.ranges.fill(0);
      for (let k = 0; k < count; k++) {
        const b = linked[k].bracket;
        const from = Math.max(1, Math.ceil(b.min_term ?? 1));
        const to = Math.min(size - 1, Math.floor(b.max_term ?? Infinity));
        for (let t = from; t <= to; t++) masks.ranges[t] |= 1 << k;
      }
    }
    masks.owner = this;
    masks.wait = wait;
    masks.balloon = balloon;
    masks.products.fill(0);
    for (let k = 0; k < count; k++) {
      const terms = this.termsAt(k, wait, balloon);
      this.work.prices(terms, linked[k].id, wait, 1, balloon);
      for (let t = 1; t < size; t++) if (terms[t] === 1) masks.products[t] |= 1 << k;
    }
    return masks;
  }

  /**
   * Linked bracket `k` could price some deposit at (wait, term, balloon): the deal admits it, its term range allows the
   * term, and its product prices there.
   */
  protected canPrice(k: number, wait: number, term: number, balloon: number): boolean {
    return (
      this.linked[k].admitted &&
      this.inTermRange(k, term) &&
      this.work.prices(this.termsAt(k, wait, balloon), this.linked[k].id, wait, term, balloon)
    );
  }

  /**
   * The positions in `deposits` (the list `deposits` gives for (wait, term, balloon)) that some linked bracket could
   * price at (wait, term, balloon): its term range and product allow the term and the deposit is inside its window
   * (`surelyNot`). Any other position's candidate is none, so a search skips it unpriced. Kept per list and set of
   * such brackets.
   */
  protected plausible(wait: number, term: number, balloon: number, deposits: number[]): number[] {
    const linked = this.linked;
    const few = linked.length <= 30;
    const mask = few ? this.canPriceBits(wait, term, balloon) : 0;
    if (few && this.firstPositions !== null && this.firstPlausibleMask === mask && this.firstPlausibleOf === deposits)
      return this.firstPositions;
    let byMask = few ? this.plausibleLists?.get(deposits) : undefined;
    let positions = byMask?.get(mask);
    if (positions !== undefined) return positions;
    positions = [];
    for (let i = 0; i < deposits.length; i++) {
      const d = deposits[i];
      for (let k = 0; k < linked.length; k++) {
        if (!this.surelyNot(k, wait, d, term, balloon)) {
          positions.push(i);
          break;
        }
      }
    }
    if (few && this.firstPositions === null) {
      this.firstPlausibleMask = mask;
      this.firstPlausibleOf = deposits;
      this.firstPositions = positions;
    } else if (few) {
      this.plausibleLists ??= new Map();
      if (byMask === undefined) this.plausibleLists.set(deposits, (byMask = new Map()));
      byMask.set(mask, positions);
    }
    return positions;
  }

  /** The deposits bracket `l` adds once its product prices, as the plain rule finds them. */
  protected addedBy(l: Linked, wait: number, term: number, balloon: number): number[] {
    // They depend on the bracket and the approval's minimum deposit only: kept per deal for every approval.
    let out = this.work.addedOf(l, this.minimum);
    if (out !== undefined) return out;
    const work = this.work;
    const t = this.thresholdsOf(l, wait, term, balloon);
    // Four a grid, in a list made at its size (the deal keeps it), cut to what was found.
    out = new Array<number>(4 * work.grids.length);
    let n = 0;
    for (let at = 0; at < work.grids.length; at++) {
      const g = work.grids[at];
      let first = wholeAtLeast(this.lo / g.step);
      const last = g.last;
      while (first <= last && g.value(first) + MONEY_TOLERANCE < this.minimum) first++;
      if (first > last) continue;
      const kLo = Math.min(Math.max(t.belowMax[at], first), last + 1);
      const kHi = Math.min(Math.max(t.belowMin[at], kLo), last + 1) - 1;
      if (kLo > kHi) continue;
      const near = work.d0 / g.step;
      out[n++] = g.value(kLo);
      out[n++] = g.value(kHi);
      out[n++] = g.value(Math.min(kHi, Math.max(kLo, Math.floor(near))));
      out[n++] = g.value(Math.min(kHi, Math.max(kLo, Math.ceil(near))));
    }
    out.length = n;
    this.work.keepAdded(l, this.minimum, out);
    return out;
  }

  /** The plain rule's deposits for (wait, term, balloon), in its order. */
  protected deposits(wait: number, term: number, balloon: number): number[] {
    const work = this.work;
    if (this.lo > this.hi) return (this.ownDepositOnly ??= [work.d0]);
    const linked = this.linked;
    // They depend only on which linked brackets' products price here: one list per such set, kept.
    const few = linked.length <= 30;
    const mask = few ? this.productBits(wait, term, balloon) : 0;
    if (few && this.firstDeposits !== null && this.firstDepositMask === mask) return this.firstDeposits;
    const kept = few ? this.depositLists?.get(mask) : undefined;
    if (kept !== undefined) return kept;
    // Every bracket's deposits, then each kept at its first place.
    const all = allDeposits;
    all.length = 0;
    all.push(work.d0);
    for (let k = 0; k < linked.length; k++) {
      const l = linked[k];
      if (!work.prices(this.termsAt(k, wait, balloon), l.id, wait, term, balloon)) continue;
      const added = this.addedBy(l, wait, term, balloon);
      for (let i = 0; i < added.length; i++) all.push(added[i]);
    }
    const seen = seenFor(all);
    const result: number[] = [];
    for (let i = 0; i < all.length; i++) {
      const d = all[i];
      if (!firstPlace(all, i, seen)) continue;
      if (d === work.d0 || (d <= this.hi + MONEY_TOLERANCE && d + MONEY_TOLERANCE >= this.minimum)) result.push(d);
    }
    if (few && this.firstDeposits === null) {
      this.firstDepositMask = mask;
      this.firstDeposits = result;
    } else if (few) (this.depositLists ??= new Map()).set(mask, result);
    return result;
  }

  /**
   * Whether the approval's criteria hold after `wait` months on every candidate whose deposit meets its minimum: the
   * candidates differ only in deposit, term and balloon; its criteria read the term as a range the searched terms are
   * already narrowed to, and the deposit as that minimum, and read no balloon. So one candidate decides them all,
   * before any is priced.
   */
  protected criteriaHold(wait: number): boolean {
    const terms = this.terms();
    if (terms.length === 0) return false;
    // Only its status is read, so the reused probe serves: no changed deal is built and kept per approval's minimum.
    const deal = this.work.probe(wait, Math.max(this.work.d0, this.minimum), terms[0], this.work.b0);
    return this.work.confirms(this.a, deal, wait);
  }

  /** True when some linked bracket could price at (wait, term, balloon): its term range and its product allow it. */
  protected pricesAt(wait: number, term: number, balloon: number): boolean {
    if (this.linked.length <= 30) return this.canPriceBits(wait, term, balloon) !== 0;
    for (let k = 0; k < this.linked.length; k++) {
      if (this.canPrice(k, wait, term, balloon)) return true;
    }
    return false;
  }
}

/**
 * The Set `firstPlace` keeps for a long list, null for a short one: a short list looks back, a long one (hundreds of
 * brackets) goes through a Set, so the check never turns quadratic.
 */
function seenFor(list: readonly number[]): Set<number> | null {
  return list.length > 16 ? new Set<number>() : null;
}

/** True when `list[i]` is the first of its value in `list`, asked from i = 0 up (`seen` from `seenFor`). */
function firstPlace(list: readonly number[], i: number, seen: Set<number> | null): boolean {
  if (seen === null) return list.indexOf(list[i]) === i;
  if (seen.has(list[i])) return false;
  seen.add(list[i]);
  return true;
}

/** A cent, in dollars: `ownDepositOutside` passes over a bracket only when its amount is further out than this. */
const CENT = 0.01;

/** `deposits`' list of every bracket's deposits before repeats are dropped: one list, reused by every call. */
const allDeposits: number[] = [];

/** True when `deposit` is outside the bracket's window on one of the deal's `grids` (`Thresholds.low`, `high`). */
function outside(t: Thresholds, grids: number, deposit: number): boolean {
  for (let at = 0; at < grids; at++) if (deposit <= t.low[at] || deposit >= t.high[at]) return true;
  return false;
}
