/**
 * The structuring engine's fast path: the same answers as `structureDeal` in engine.ts (the plain rule, which defines
 * them; test/structuring/fast.test.ts holds the two equal on generated deals and catalogues), at a cost that does not
 * grow with the catalogue's size per candidate. The service runs this one. Its parts:
 * - this file: the walk over the approvals, as `structureWith` walks them, with the deal prepared for the criteria
 *   engine once and each unmet criterion made a blocker as it is found (`visitUnmetCriteria`), and an approval's
 *   search set up only when it is searched (one blocked by a fact never is);
 * - deal-work.fast.ts: what one deal's search shares across approvals;
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
import {
  compareNames,
  docLevelRank,
  evaluatePrepared,
  prepareDeal,
  type UnmetVisitor,
  visitUnmetCriteria,
} from '../matrix/index.ts';
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
  waits,
} from './engine.ts';
import { FastSearch } from './search.fast.ts';

/**
 * Each unmet criterion of one approval, as a blocker; with whether a fact is among them and the wait time needs. One
 * deal's blockers are shared by the approvals they are equal for (the same criterion, bound and answer): thousands of
 * approvals state the same few, and a blocker is read, never changed.
 */
class Blockers implements UnmetVisitor {
  list: Blocker[] = [];
  facts = false;
  needed = 0;
  /** criterion -> required -> the blocker made for it on this deal. */
  private readonly kept = new Map<string, Map<number | string | boolean, Blocker>>();

  reset(): void {
    this.list = [];
    this.facts = false;
    this.needed = 0;
  }

  unmet(
    criterion: string,
    field: string,
    value: number | string | boolean | null,
    required: number | string | boolean,
  ) {
    let byRequired = this.kept.get(criterion);
    if (byRequired === undefined) this.kept.set(criterion, (byRequired = new Map()));
    let b = byRequired.get(required);
    if (b === undefined || b.deal_value !== value || b.field !== field) {
      b = blockerOf(criterion, field, value, required);
      byRequired.set(required, b);
    }
    if (b.kind === 'fact') this.facts = true;
    else if (b.kind === 'time') this.needed = Math.max(this.needed, b.eligible_in_months ?? 0);
    this.list.push(b);
  }
}

/** Structures one deal exactly as `structureDeal` (engine.ts) does: `structureWith`'s walk, step for step. */
export function structureDealFast(input: StructuringInput, catalogue: StructuringCatalogue): Structuring {
  const work = new DealWork(input, catalogue);
  const { deal } = input;
  const prepared = prepareDeal(deal, catalogue.ancestry);
  const unmet = new Blockers();
  const suggested: ApprovalStructuring[] = [];
  // The rest by position in `catalogue.approvals`, listed at the end in `sortedAnswers`' order (`restOrder`).
  const rest: (ApprovalStructuring | undefined)[] = new Array(catalogue.approvals.length);
  let cheapest: Candidate | null = null;
  let cheapestApproval: Approval | null = null;
  for (let position = 0; position < catalogue.approvals.length; position++) {
    const a = catalogue.approvals[position];
    const outcome = evaluatePrepared(a, prepared);
    let status: StructuringStatus;
    let blockers: Blocker[];
    let facts: boolean;
    let needed = 0;
    let search: FastSearch | null = null;
    if (outcome?.status === 'confirmed') {
      search = new FastSearch(a, work);
      if (search.verify(deal) !== null) {
        const c = search.cheapest(0, input.rank_by, cheapest);
        if (c !== null && (cheapest === null || compareRank(c, cheapest, input.rank_by) < 0)) {
          cheapest = c;
          cheapestApproval = a;
        }
        continue;
      }
      status = 'unpriced';
      blockers = pricingBlockers(a, deal, catalogue);
      facts = false;
    } else {
      status = outcome === null ? 'ruled_out' : 'possible';
      unmet.reset();
      visitUnmetCriteria(a, prepared, unmet);
      blockers = unmet.list;
      facts = unmet.facts;
      needed = unmet.needed;
    }
    let best: Candidate | null = null;
    if (!facts) {
      search ??= new FastSearch(a, work);
      best = search.best(waits(a, deal, needed, catalogue));
      if (best !== null) {
        const c = search.cheapest(best.wait, input.rank_by, cheapest);
        if (c !== null && (cheapest === null || compareRank(c, cheapest, input.rank_by) < 0)) {
          cheapest = c;
          cheapestApproval = a;
        }
      }
    }
    const answer: ApprovalStructuring = {
      approval: a,
      status,
      blockers,
      suggestion: best === null ? null : suggestionOf(a, best, input),
      no_suggestion_reason: best !== null ? null : facts ? 'fact' : 'out_of_bounds',
    };
    if (best === null) rest[position] = answer;
    else suggested.push(answer);
  }
  const approvals = sortedAnswers(suggested);
  for (const position of restOrder(catalogue.approvals)) {
    const answer = rest[position];
    if (answer !== undefined) approvals.push(answer);
  }
  return {
    approvals,
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
