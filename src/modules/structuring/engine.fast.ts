/**
 * The structuring engine's fast path: the same answers as `structureDeal` in engine.ts (the plain rule, which defines
 * them; test/structuring/fast.test.ts holds the two equal on generated deals and catalogues), at a cost that does not
 * grow with the catalogue's size per candidate. The service runs this one. Its parts:
 * - this file: the walk over the approvals, as `structureWith` walks them, with the deal prepared for the criteria
 *   engine once and each approval's criteria read once (`visitUnmetCriteria`: its blockers, and from them its status),
 *   and an approval's search set up only when it is searched (one blocked by a fact never is);
 * - deal-work.fast.ts: what one deal's search shares across approvals (per linked bracket, one record a deal that
 *   keeps what every approval linking it reads; per product, product-line.fast.ts);
 * - approval-brackets.fast.ts: one approval's linked brackets, which of them could price a change, and the deposits
 *   and terms it tries;
 * - search.fast.ts: one approval's search.
 *
 * What differs is only how the candidates are found and checked, never which ones count:
 * - one deal's work is shared by every approval: each linked bracket is priced alone (`priceOneBracket`, not a walk
 *   over every bracket the asset reaches) and each distinct changed deal once per bracket, so approvals that share a
 *   financier's brackets share the pricing; a product's "can it price this deal at all" is asked once per term and
 *   wait;
 * - the amount financed does not depend on the term, the balloon or the wait (they only decide whether the product
 *   prices at all) and falls as the deposit rises, so each bracket's deposit interval on each grid is found once per
 *   deal by bisection and then clamped to each approval's minimum deposit and `max_deposit`, where the plain rule
 *   bisects again per approval, wait and term: the same ends, as the plain bisection over a sub-range of a monotone
 *   test ends at the clamped threshold;
 * - the smallest change is searched in the change order (fewer levers, less waiting, smaller deposit, term and balloon
 *   changes) and stops at the first order key that has a sufficient candidate, checking only that key's ties (the
 *   cheapest, then the plain rule's own order). With a balloon range it checks every candidate, as the plain rule.
 */
import type { Approval } from '../catalogue/index.ts';
import { compareNames, docLevelRank, prepareDeal, type UnmetVisitor, visitUnmetCriteria } from '../matrix/index.ts';
import { DealWork } from './deal-work.fast.ts';
import {
  type ApprovalStructuring,
  type Blocker,
  blockerOf,
  type Candidate,
  compareRank,
  pricingBlockers,
  sortedAnswers,
  type Structuring,
  type StructuringCatalogue,
  type StructuringInput,
  type StructuringStatus,
  suggestionOf,
  waitsAfter,
} from './engine.ts';
import { FastSearch } from './search.fast.ts';

/**
 * One deal's blockers, found by reading each approval's criteria once (`visitUnmetCriteria`): each distinct blocker
 * made once and numbered (thousands of approvals state the same few, and a blocker is read, never changed), each
 * approval's list kept as a run of numbers in `ids`. With, for the approval being read, whether the deal's answers
 * drop it (`evaluatePrepared`'s null), whether a fact is among its blockers and the wait time needs.
 */
class Blockers implements UnmetVisitor {
  /** Blocker number -> the blocker. */
  readonly table: Blocker[] = [];
  /** The approvals' lists, one run each, in walk order. */
  ids = new Int32Array(1 << 14);
  length = 0;
  dropped = false;
  facts = false;
  needed = 0;
  /** criterion -> required -> the number of the blocker made for it on this deal. */
  private readonly kept = new Map<string, Map<number | string | boolean, number>>();

  /** Starts the next approval's list; it runs from the `length` read here to the one read after its visit. */
  next(): void {
    this.dropped = false;
    this.facts = false;
    this.needed = 0;
  }

  unmet(
    criterion: string,
    field: string,
    value: number | string | boolean | null,
    required: number | string | boolean,
    answered: boolean,
  ) {
    let byRequired = this.kept.get(criterion);
    if (byRequired === undefined) this.kept.set(criterion, (byRequired = new Map()));
    let id = byRequired.get(required);
    let b = id === undefined ? undefined : this.table[id];
    if (b === undefined || b.deal_value !== value || b.field !== field) {
      b = blockerOf(criterion, field, value, required);
      id = this.table.length;
      this.table.push(b);
      byRequired.set(required, id);
    }
    if (answered) this.dropped = true;
    if (b.kind === 'fact') this.facts = true;
    else if (b.kind === 'time') this.needed = Math.max(this.needed, b.eligible_in_months ?? 0);
    if (this.length === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id as number;
  }

  /** The blockers of the run [from, to), as a new list. */
  listOf(from: number, to: number): Blocker[] {
    const list: Blocker[] = new Array(to - from);
    for (let k = from; k < to; k++) list[k - from] = this.table[this.ids[k]];
    return list;
  }
}

/** An approval's answer in the walk (`kinds`): not listed, or its status; the bits below added. */
const UNLISTED = 0;
const STATUS_OF: readonly (StructuringStatus | null)[] = [null, 'ruled_out', 'possible', 'unpriced'];
const RULED_OUT = 1;
const POSSIBLE = 2;
const UNPRICED = 3;
const STATUS_BITS = 3;
/** A fact blocks it (`no_suggestion_reason` 'fact'). */
const FACT = 4;
/** It has a suggestion (listed first, in the change order). */
const SUGGESTED = 8;

/**
 * Structures one deal exactly as `structureDeal` (engine.ts) does: `structureWith`'s walk, step for step. The walk
 * keeps each approval's answer as numbers (its status, its run of blocker numbers) and the few suggested approvals'
 * candidates; the answers' records are built from them in one step at the end. So what stays alive across the
 * young collections the searches' garbage sets off is a few typed arrays, not thousands of records to copy.
 */
export function structureDealFast(input: StructuringInput, catalogue: StructuringCatalogue): Structuring {
  const work = new DealWork(input, catalogue);
  try {
    return structureWithWork(input, catalogue, work);
  } finally {
    work.release();
  }
}

/** `structureDealFast`'s walk, on the deal's work. */
function structureWithWork(input: StructuringInput, catalogue: StructuringCatalogue, work: DealWork): Structuring {
  const { deal } = input;
  const { approvals } = catalogue;
  const count = approvals.length;
  const prepared = prepareDeal(deal, catalogue.ancestry);
  const unmet = new Blockers();
  const kinds = new Uint8Array(count);
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  const suggestedAt: number[] = [];
  const suggestedBest: Candidate[] = [];
  let cheapest: Candidate | null = null;
  let cheapestApproval: Approval | null = null;
  for (let position = 0; position < count; position++) {
    const a = approvals[position];
    unmet.next();
    from[position] = unmet.length;
    visitUnmetCriteria(a, prepared, unmet);
    to[position] = unmet.length;
    let kind: number;
    let needed = 0;
    let search: FastSearch | null = null;
    if (unmet.length === from[position]) {
      // Confirmed: listed only when none of its brackets prices the deal as it stands.
      search = new FastSearch(a, work);
      if (search.pricesAsItStands(deal)) {
        const c = search.cheapest(0, input.rank_by, cheapest);
        if (c !== null && (cheapest === null || compareRank(c, cheapest, input.rank_by) < 0)) {
          cheapest = c;
          cheapestApproval = a;
        }
        continue;
      }
      kind = UNPRICED;
    } else {
      kind = unmet.dropped ? RULED_OUT : POSSIBLE;
      needed = unmet.needed;
      if (unmet.facts) kind |= FACT;
    }
    if ((kind & FACT) === 0) {
      search ??= new FastSearch(a, work);
      const best = search.best(waitsAfter(a, work.base(needed), needed, catalogue));
      if (best !== null) {
        kind |= SUGGESTED;
        suggestedAt.push(position);
        suggestedBest.push(best);
        const c = search.cheapest(best.wait, input.rank_by, cheapest);
        if (c !== null && (cheapest === null || compareRank(c, cheapest, input.rank_by) < 0)) {
          cheapest = c;
          cheapestApproval = a;
        }
      }
    }
    kinds[position] = kind;
  }

  // The records, from the numbers: the suggested in the change order, then the rest in `restOrder`.
  const answerAt = (position: number, suggestion: ApprovalStructuring['suggestion']): ApprovalStructuring => {
    const a = approvals[position];
    const kind = kinds[position];
    const status = kind & STATUS_BITS;
    return {
      approval: a,
      status: STATUS_OF[status] as StructuringStatus,
      blockers: status === UNPRICED ? pricingBlockers(a, deal, catalogue) : unmet.listOf(from[position], to[position]),
      suggestion,
      no_suggestion_reason: suggestion !== null ? null : (kind & FACT) !== 0 ? 'fact' : 'out_of_bounds',
    };
  };
  const listed = sortedAnswers(
    suggestedAt.map((position, k) => answerAt(position, suggestionOf(approvals[position], suggestedBest[k], input))),
  );
  const rest = restOrder(approvals);
  for (let k = 0; k < rest.length; k++) {
    const position = rest[k];
    const kind = kinds[position];
    if (kind !== UNLISTED && (kind & SUGGESTED) === 0) listed.push(answerAt(position, null));
  }
  return {
    approvals: listed,
    cheapest: cheapest === null || cheapestApproval === null ? null : suggestionOf(cheapestApproval, cheapest, input),
  };
}

const restOrders = new WeakMap<readonly Approval[], Int32Array>();

/**
 * Positions in `approvals` in `sortedAnswers`' order for answers without a suggestion (doc level, name, id), kept per
 * list: the names' order is a total one (`compareNames`), so the order of any subset is this one's. Each distinct name
 * is collated once, as `sortedAnswers` does.
 */
function restOrder(approvals: readonly Approval[]): Int32Array {
  let order = restOrders.get(approvals);
  if (order !== undefined) return order;
  const names = [...new Set(approvals.map((a) => a.name))].sort(compareNames);
  const nameRank = new Map(names.map((name, k) => [name, k]));
  const levels = approvals.map((a) => docLevelRank(a.doc_level));
  const ranks = approvals.map((a) => nameRank.get(a.name) ?? 0);
  order = Int32Array.from(approvals.keys());
  order.sort((x, y) => levels[x] - levels[y] || ranks[x] - ranks[y] || approvals[x].id - approvals[y].id || x - y);
  restOrders.set(approvals, order);
  return order;
}
