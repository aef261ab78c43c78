/**
 * The structuring engine: for every approval a deal does not get (ruled out, `possible`, or confirmed with no linked
 * bracket that prices), what blocks it and the smallest change that makes it `confirmed` and priced
 * (docs/what-it-would-take.md).
 *
 * Pure: no I/O, no GraphQL. It reads the criteria engine (`evaluateApproval`, `unmetCriteria`) and the pricing engine
 * (`priceDeal`, `amountFinancedCents`) and never restates their rules: every suggestion is verified by running both
 * engines on the changed deal, and its figures are the pricing engine's for that deal.
 *
 * Search: an approval blocked by a fact is never searched. Otherwise, per waiting time and term, each linked bracket's
 * amount-financed range gives an interval of deposits (P falls as the deposit rises, so its ends are found by
 * bisection on the product's own figure), intersected with the approval's minimum deposit and the bounds; the
 * deposits nearest the deal's own on each grid (whole dollars, whole percentage points) are the candidates, and a
 * lower balloon is tried where the instalment would be negative. Candidates are compared by the change order.
 *
 * One file past ~500 lines on purpose: it is the reference the fast path (engine.fast.ts) and the tests' oracle are
 * held to, and it reads top to bottom in the order docs/what-it-would-take.md does (blockers, time, the search).
 */
import type { Approval, RateBracket } from '../catalogue/index.ts';
import type { Deal } from '../deal/index.ts';
import {
  compareNames,
  depositRequired,
  docLevelRank,
  evaluateApproval,
  MONEY_TOLERANCE,
  unmetCriteria,
  type AssetAncestry,
  type UnmetCriterion,
} from '../matrix/index.ts';
import {
  amountFinancedCents,
  compareCheapest,
  priceDeal,
  productOfBracket,
  type PricedBracket,
  type PricingIndex,
} from '../pricing/index.ts';
import { roundMoney, roundRate } from '../pricing/index.ts';

/**
 * The least whole number at or above `x`, and the greatest at or below it, each within float noise. Never -0: a
 * ceiling of a tiny negative is -0, which is not the 0 a deal sends, and a change to -0 is no change at all.
 */
export const wholeAtLeast = (x: number): number => Math.ceil(x - 1e-9) + 0;
export const wholeAtMost = (x: number): number => Math.floor(x + 1e-9) + 0;

/** What kind of change could meet a criterion. */
export const BLOCKER_KINDS = ['lever', 'time', 'fact'] as const;
export type BlockerKind = (typeof BLOCKER_KINDS)[number];

/** The structuring levers a broker controls. */
export const LEVERS = ['deposit', 'term', 'balloon'] as const;
export type Lever = (typeof LEVERS)[number];

export const STRUCTURING_STATUSES = ['ruled_out', 'possible', 'unpriced'] as const;
export type StructuringStatus = (typeof STRUCTURING_STATUSES)[number];

export const RANK_BY = ['repayment', 'rate'] as const;
export type RankBy = (typeof RANK_BY)[number];

export const NO_SUGGESTION_REASONS = ['fact', 'out_of_bounds'] as const;
export type NoSuggestionReason = (typeof NO_SUGGESTION_REASONS)[number];

export interface Blocker {
  /** The approval's (or `product.` / `rate_bracket.`) field, e.g. `min_term`, `product.max_amount`. */
  criterion: string;
  /** The request field the criterion reads. */
  field: string;
  kind: BlockerKind;
  /** The lever that could meet it (kind `lever`), else null. */
  lever: Lever | null;
  deal_value: number | string | boolean | null;
  required: number | string | boolean;
  /** kind `time`: months until the deal's own figures meet it; else null. */
  eligible_in_months: number | null;
}

/** Bounds the broker gives for the levers, resolved (see `resolveBounds`). Dollars and months. */
export interface StructuringBounds {
  max_deposit: number;
  min_term: number;
  max_term: number;
  /** null: the balloon stays the deal's. */
  min_balloon: number | null;
  max_balloon: number | null;
}

export interface StructuringInput {
  /** The validated deal (a priced surface's: deposit answered, term set). */
  deal: Deal;
  /** The cost whole-percentage deposits are of (GST-inclusive when the request's deposit_gst). */
  deposit_base: number;
  /** True when the request sent asset_age_plus_term itself (then a term change does not move it). */
  asset_age_plus_term_sent: boolean;
  bounds: StructuringBounds;
  rank_by: RankBy;
}

export interface StructuringCatalogue {
  /** The approvals in scope, already narrowed to what the caller may see and asked for. */
  approvals: readonly Approval[];
  ancestry: AssetAncestry;
  pricingIndex: PricingIndex;
  bracketsById: ReadonlyMap<number, RateBracket>;
}

interface Change {
  lever: Lever;
  from: number;
  to: number;
}

export interface Suggestion {
  approval: Approval;
  changes: Change[];
  wait_months: number;
  deposit: number;
  term: number;
  balloon: number;
  /** The cheapest linked bracket on the changed deal (Rule 13), as the pricing engine priced it. */
  bracket: PricedBracket;
  /** The changed deal both engines were run on (time fields advanced by `wait_months`). */
  deal: Deal;
}

export interface ApprovalStructuring {
  approval: Approval;
  status: StructuringStatus;
  blockers: Blocker[];
  suggestion: Suggestion | null;
  no_suggestion_reason: NoSuggestionReason | null;
}

export interface Structuring {
  approvals: ApprovalStructuring[];
  cheapest: Suggestion | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Blockers
// ---------------------------------------------------------------------------------------------------------------

/** Month-valued minimums met by waiting: each month adds one. */
const isMonthAge = (criterion: string): boolean =>
  criterion === 'min_abn_age' || criterion === 'min_gst_age' || criterion === 'min_file_age';

function criterionBlocker(u: UnmetCriterion): Blocker {
  return blockerOf(u.criterion, u.field, u.deal_value, u.required);
}

/** The blocker of one unmet criterion: a lever, time or fact, by its field (the table above). */
export function blockerOf(
  criterion: string,
  field: string,
  dealValue: number | string | boolean | null,
  required: number | string | boolean,
): Blocker {
  // One literal of one shape per blocker (no spread): thousands are built per deal.
  const answered = dealValue !== null;
  let kind: BlockerKind = 'fact';
  let lever: Lever | null = null;
  let months: number | null = null;
  if (field === 'term') {
    kind = 'lever';
    lever = 'term';
  } else if (field === 'deposit') {
    kind = 'lever';
    lever = 'deposit';
  } else if (answered && isMonthAge(criterion)) {
    kind = 'time';
    months = Math.ceil((required as number) - (dealValue as number));
  } else if (answered && criterion === 'min_borrower_age') {
    kind = 'time';
    months = 12 * Math.ceil((required as number) - (dealValue as number));
  }
  return {
    criterion,
    field,
    deal_value: dealValue,
    required,
    kind,
    lever,
    eligible_in_months: months,
  };
}

/** Why none of the approval's linked brackets prices the deal: one blocker per bracket, its first unmet bound. */
export function pricingBlockers(a: Approval, deal: Deal, catalogue: StructuringCatalogue): Blocker[] {
  const blockers: Blocker[] = [];
  const term = deal.term ?? 0;
  const lever = (criterion: string, field: string, l: Lever, value: number, required: number): Blocker => ({
    criterion,
    field,
    kind: 'lever',
    lever: l,
    deal_value: value,
    required,
    eligible_in_months: null,
  });
  const fact = (criterion: string, field: string, value: number | boolean | null, required: number | string) => ({
    criterion,
    field,
    kind: 'fact' as const,
    lever: null,
    deal_value: value,
    required,
    eligible_in_months: null,
  });
  for (const id of new Set(a.rate_bracket_ids)) {
    const b = catalogue.bracketsById.get(id);
    const product = productOfBracket(catalogue.pricingIndex, id);
    if (b === undefined || product === null || b.organisation_id !== a.organisation_id) continue;
    if (b.min_term !== null && term < b.min_term)
      blockers.push(lever('rate_bracket.min_term', 'term', 'term', term, b.min_term));
    else if (b.max_term !== null && term > b.max_term)
      blockers.push(lever('rate_bracket.max_term', 'term', 'term', term, b.max_term));
    else if (product.min_range !== null && term < product.min_range)
      blockers.push(lever('product.min_range', 'term', 'term', term, product.min_range));
    else if (product.max_range !== null && term > product.max_range)
      blockers.push(lever('product.max_range', 'term', 'term', term, product.max_range));
    else if (deal.abn_age !== null && product.min_abn_age !== null && deal.abn_age < product.min_abn_age)
      blockers.push({
        ...fact('product.min_abn_age', 'abn_age', deal.abn_age, product.min_abn_age),
        kind: 'time',
        eligible_in_months: Math.ceil(product.min_abn_age - deal.abn_age),
      });
    else if (deal.gst_age !== null && product.min_gst_age !== null && deal.gst_age < product.min_gst_age)
      blockers.push({
        ...fact('product.min_gst_age', 'gst_age', deal.gst_age, product.min_gst_age),
        kind: 'time',
        eligible_in_months: Math.ceil(product.min_gst_age - deal.gst_age),
      });
    else if (
      deal.asset_age_plus_term !== null &&
      product.max_asset_age_plus_term !== null &&
      deal.asset_age_plus_term > product.max_asset_age_plus_term
    )
      blockers.push(
        lever(
          'product.max_asset_age_plus_term',
          'term',
          'term',
          deal.asset_age_plus_term,
          product.max_asset_age_plus_term,
        ),
      );
    else {
      const cents = amountFinancedCents(catalogue.pricingIndex, id, deal);
      if (cents === null) {
        blockers.push(fact(`rate_bracket.${id}`, 'asset_value', deal.asset_value, 'a deal this card prices'));
        continue;
      }
      const [min, max] = amountRange(b, product);
      if (cents > max) blockers.push(lever('rate_bracket.max_amount', 'deposit', 'deposit', cents, max));
      else if (cents < min) blockers.push(lever('rate_bracket.min_amount', 'deposit', 'deposit', cents, min));
      else blockers.push(lever('rate_bracket.instalment', 'balloon', 'balloon', deal.balloon_amount, 0));
    }
  }
  return blockers;
}

/** The amount financed a bracket and its product both accept, in dollars. */
export function amountRange(
  b: RateBracket,
  product: { min_amount: number | null; max_amount: number | null },
): [number, number] {
  return [
    Math.max(b.min_amount ?? -Infinity, product.min_amount ?? -Infinity),
    Math.min(b.max_amount ?? Infinity, product.max_amount ?? Infinity),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Changed deals
// ---------------------------------------------------------------------------------------------------------------

/** The deal after `months`: ABN, GST and credit-file ages add the months, borrower ages the whole years. */
export function advancedDeal(deal: Deal, months: number): Deal {
  if (months === 0) return deal;
  const years = Math.floor(months / 12);
  const plus = (x: number | null, by: number) => (x === null ? null : x + by);
  return {
    ...deal,
    abn_age: plus(deal.abn_age, months),
    gst_age: plus(deal.gst_age, months),
    file_age: plus(deal.file_age, months),
    borrower_age_youngest: plus(deal.borrower_age_youngest, years),
    borrower_age_oldest: plus(deal.borrower_age_oldest, years),
  };
}

export function changedDeal(input: StructuringInput, base: Deal, deposit: number, term: number, balloon: number): Deal {
  const assetAgePlusTerm = input.asset_age_plus_term_sent
    ? base.asset_age_plus_term
    : base.asset_age !== null
      ? base.asset_age + term
      : null;
  return { ...base, deposit, term, balloon_amount: balloon, asset_age_plus_term: assetAgePlusTerm };
}

// ---------------------------------------------------------------------------------------------------------------
// The change order
// ---------------------------------------------------------------------------------------------------------------

export interface Candidate {
  levers: number;
  wait: number;
  dDeposit: number;
  dTerm: number;
  dBalloon: number;
  deposit: number;
  term: number;
  balloon: number;
  bracket: PricedBracket;
  deal: Deal;
}

/** A sufficient change as the search compares it: how far each lever moved from the deal as entered. */
export function candidateOf(
  entered: { deposit: number; term: number; balloon: number },
  wait: number,
  deposit: number,
  term: number,
  balloon: number,
  bracket: PricedBracket,
  deal: Deal,
): Candidate {
  const dDeposit = leverChange(deposit, entered.deposit);
  const dTerm = Math.abs(term - entered.term);
  const dBalloon = leverChange(balloon, entered.balloon);
  return {
    levers: (dDeposit > 0 ? 1 : 0) + (dTerm > 0 ? 1 : 0) + (dBalloon > 0 ? 1 : 0),
    wait,
    dDeposit,
    dTerm,
    dBalloon,
    deposit,
    term,
    balloon,
    bracket,
    deal,
  };
}

/** Fewer levers, then less waiting, then the least deposit, term and balloon change, then the cheapest (Rule 13). */
export function compareChanges(a: Candidate, b: Candidate): number {
  return (
    a.levers - b.levers ||
    a.wait - b.wait ||
    a.dDeposit - b.dDeposit ||
    a.dTerm - b.dTerm ||
    a.dBalloon - b.dBalloon ||
    compareCheapest(a.bracket, b.bracket)
  );
}

/** A deposit change smaller than this is no change (the grid is whole dollars; figures are compared to the cent). */
const SAME = 1e-9;

/** How far a money lever (deposit, balloon) moved from its value as entered: 0 when the move is under `SAME`. */
export function leverChange(value: number, entered: number): number {
  const change = Math.abs(value - entered);
  return change < SAME ? 0 : change;
}

// ---------------------------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------------------------

class Search implements ApprovalSearch {
  private readonly linked: Set<number>;
  private readonly organisations: Set<number>;
  private readonly d0: number;
  private readonly t0: number;
  private readonly b0: number;

  constructor(
    private readonly a: Approval,
    private readonly input: StructuringInput,
    private readonly catalogue: StructuringCatalogue,
  ) {
    this.linked = new Set(a.rate_bracket_ids);
    this.organisations = new Set([a.organisation_id]);
    this.d0 = input.deal.deposit ?? 0;
    this.t0 = input.deal.term ?? 0;
    this.b0 = input.deal.balloon_amount;
  }

  pricesAsItStands(deal: Deal): boolean {
    return this.verify(deal) !== null;
  }

  /** The approval confirmed and priced on `deal`: its cheapest linked bracket, else null. */
  verify(deal: Deal): PricedBracket | null {
    if (evaluateApproval(this.a, deal, this.catalogue.ancestry)?.status !== 'confirmed') return null;
    const rows = priceDeal(this.catalogue.pricingIndex, deal, {
      bracketIds: this.linked,
      organisationIds: this.organisations,
      type: 'commercial',
    });
    return rows.length > 0 ? rows[0] : null;
  }

  candidate(wait: number, base: Deal, deposit: number, term: number, balloon: number): Candidate | null {
    const deal = changedDeal(this.input, base, deposit, term, balloon);
    const bracket = this.verify(deal);
    if (bracket === null) return null;
    return candidateOf(
      { deposit: this.d0, term: this.t0, balloon: this.b0 },
      wait,
      deposit,
      term,
      balloon,
      bracket,
      deal,
    );
  }

  /** Terms to try: the bounds (with the deal's own), narrowed by the approval's own term criteria. */
  terms(): number[] {
    const { bounds } = this.input;
    const lo = Math.max(Math.min(bounds.min_term, this.t0), this.a.min_term ?? 1, 1);
    const hi = Math.min(Math.max(bounds.max_term, this.t0), this.a.max_term ?? Infinity);
    const terms: number[] = [];
    for (let t = Math.ceil(lo); t <= hi; t++) {
      if (t === this.t0 || (t >= bounds.min_term && t <= bounds.max_term)) terms.push(t);
    }
    return terms;
  }

  /**
   * Deposits to try on (base, term, balloon): the deal's own, and per linked bracket the grid values nearest the deal's
   * own inside the deposits that bracket's amount range allows, within the approval's minimum and the bounds.
   */
  deposits(base: Deal, term: number, balloon: number): number[] {
    const minimum = depositRequired(this.a, base.cost_inc) ?? 0;
    const lo = Math.max(0, minimum - MONEY_TOLERANCE);
    const hi = this.input.bounds.max_deposit;
    const out = new Set<number>([this.d0]);
    if (lo > hi) return [...out];
    const grids: ((k: number) => number)[] = [(k) => k];
    const percentBase = this.input.deposit_base;
    if (percentBase > 0) grids.push((k) => (percentBase * k) / 100);
    for (const id of this.linked) {
      const b = this.catalogue.bracketsById.get(id);
      const product = productOfBracket(this.catalogue.pricingIndex, id);
      if (b === undefined || product === null || b.organisation_id !== this.a.organisation_id) continue;
      const [minAmount, maxAmount] = amountRange(b, product);
      const amount = (d: number): number => {
        const cents = amountFinancedCents(
          this.catalogue.pricingIndex,
          id,
          changedDeal(this.input, base, d, term, balloon),
        );
        return cents === null ? -Infinity : cents;
      };
      // A product that cannot price the deal whatever the deposit (its term, ages, flags) gives nothing.
      if (
        amountFinancedCents(this.catalogue.pricingIndex, id, changedDeal(this.input, base, 0, term, balloon)) === null
      )
        continue;
      for (const value of grids) {
        const step = value(1);
        let first = wholeAtLeast(lo / step);
        const last = wholeAtMost(hi / step);
        while (first <= last && value(first) + MONEY_TOLERANCE < minimum) first++;
        if (first > last) continue;
        // First k whose P is at most the maximum (P falls as k rises), and the last whose P is at least the minimum.
        const kLo = firstTrue(first, last + 1, (k) => amount(value(k)) <= maxAmount);
        const kHi = firstTrue(kLo, last + 1, (k) => amount(value(k)) < minAmount) - 1;
        if (kLo > kHi) continue;
        const near = this.d0 / step;
        for (const k of [kLo, kHi, Math.floor(near), Math.ceil(near)]) {
          out.add(value(Math.min(kHi, Math.max(kLo, k))));
        }
      }
    }
    return [...out].filter((d) => d === this.d0 || (d <= hi + MONEY_TOLERANCE && d + MONEY_TOLERANCE >= minimum));
  }

  /** Balloons to try with a deposit and term: the deal's own, and the highest lower one that prices. */
  lowerBalloon(wait: number, base: Deal, deposit: number, term: number): Candidate | null {
    const { min_balloon: min } = this.input.bounds;
    if (min === null) return null;
    const kMin = wholeAtLeast(min);
    const kMax = wholeAtLeast(this.b0) - 1; // whole dollars strictly below the deal's balloon
    if (kMin > kMax) return null;
    if (this.candidate(wait, base, deposit, term, kMin) === null) return null;
    // The instalment falls as the balloon rises: the last whole dollar that still prices.
    const k = firstTrue(kMin, kMax + 1, (x) => x > kMax || this.candidate(wait, base, deposit, term, x) === null) - 1;
    return this.candidate(wait, base, deposit, term, k);
  }

  best(waits: readonly number[]): Candidate | null {
    let best: Candidate | null = null;
    const consider = (c: Candidate | null) => {
      if (c !== null && (best === null || compareChanges(c, best) < 0)) best = c;
    };
    const { bounds } = this.input;
    for (const wait of waits) {
      const base = advancedDeal(this.input.deal, wait);
      for (const term of this.terms()) {
        for (const deposit of this.deposits(base, term, this.b0)) {
          consider(this.candidate(wait, base, deposit, term, this.b0));
        }
        if (bounds.min_balloon !== null && bounds.min_balloon < this.b0) {
          const low = wholeAtLeast(bounds.min_balloon);
          for (const deposit of this.deposits(base, term, low)) {
            consider(this.lowerBalloon(wait, base, deposit, term));
          }
        }
      }
    }
    return best;
  }

  /** The cheapest reachable change by `rankBy`: interval ends of deposit and balloon at every term. */
  cheapest(wait: number, rankBy: RankBy): Candidate | null {
    let best: Candidate | null = null;
    const { bounds } = this.input;
    const base = advancedDeal(this.input.deal, wait);
    const balloons = new Set<number>([this.b0]);
    if (bounds.min_balloon !== null) balloons.add(wholeAtLeast(bounds.min_balloon));
    if (bounds.max_balloon !== null) balloons.add(wholeAtMost(bounds.max_balloon));
    for (const term of this.terms()) {
      for (const balloon of balloons) {
        for (const deposit of this.deposits(base, term, balloon)) {
          const c = this.candidate(wait, base, deposit, term, balloon);
          if (c !== null && (best === null || compareRank(c, best, rankBy) < 0)) best = c;
        }
      }
    }
    return best;
  }
}

/** The first integer in [lo, hi) for which `test` holds (`test` false then true), or hi. */
export function firstTrue(lo: number, hi: number, test: (k: number) => boolean): number {
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function compareRank(a: Candidate, b: Candidate, rankBy: RankBy): number {
  const byRepayment = roundMoney(a.bracket.repayment_min) - roundMoney(b.bracket.repayment_min);
  const byRate = roundRate(a.bracket.e_min) - roundRate(b.bracket.e_min);
  return (rankBy === 'rate' ? byRate || byRepayment : byRepayment || byRate) || compareChanges(a, b);
}

export function suggestionOf(a: Approval, c: Candidate, input: StructuringInput): Suggestion {
  const changes: Change[] = [];
  const d0 = input.deal.deposit ?? 0;
  if (c.dDeposit > 0) changes.push({ lever: 'deposit', from: d0, to: c.deposit });
  if (c.dTerm > 0) changes.push({ lever: 'term', from: input.deal.term ?? 0, to: c.term });
  if (c.dBalloon > 0) changes.push({ lever: 'balloon', from: input.deal.balloon_amount, to: c.balloon });
  return {
    approval: a,
    changes,
    wait_months: c.wait,
    deposit: c.deposit,
    term: c.term,
    balloon: c.balloon,
    bracket: c.bracket,
    deal: c.deal,
  };
}

/** Waiting times worth trying: what the criteria need, and what each linked product's ABN or GST minimum adds. */
function waits(a: Approval, deal: Deal, needed: number, catalogue: StructuringCatalogue): number[] {
  return waitsAfter(a, advancedDeal(deal, needed), needed, catalogue);
}

/** `waits` on the deal already advanced by `needed` months (the fast path keeps one per wait). */
export function waitsAfter(a: Approval, advanced: Deal, needed: number, catalogue: StructuringCatalogue): number[] {
  // Most approvals need no more than `needed`: the set is made only when a product adds a wait.
  let out: Set<number> | null = null;
  // Indexed, not for-of: asked for every approval a deal searches.
  const ids = a.rate_bracket_ids;
  for (let i = 0; i < ids.length; i++) {
    const product = productOfBracket(catalogue.pricingIndex, ids[i]);
    if (product === null) continue;
    if (advanced.abn_age !== null && product.min_abn_age !== null && advanced.abn_age < product.min_abn_age)
      (out ??= new Set([needed])).add(needed + Math.ceil(product.min_abn_age - advanced.abn_age));
    if (advanced.gst_age !== null && product.min_gst_age !== null && advanced.gst_age < product.min_gst_age)
      (out ??= new Set([needed])).add(needed + Math.ceil(product.min_gst_age - advanced.gst_age));
  }
  return out === null ? [needed] : [...out].sort((x, y) => x - y);
}

/**
 * Structures one deal against the approvals in scope: each one it does not get, with its blockers and smallest
 * change; and the cheapest reachable change across them all (approvals the deal already gets included). The plain
 * rule, which defines the answer; the service runs `structureDealFast` (engine.fast.ts), which answers the same.
 */
export function structureDeal(input: StructuringInput, catalogue: StructuringCatalogue): Structuring {
  return structureWith(input, catalogue, (a) => new Search(a, input, catalogue));
}

/**
 * What `structureWith` asks of the search over one approval's changes: the plain one (`Search`, above) or the one in
 * search.fast.ts (the fast path's), which answers the same (test/structuring/fast.test.ts).
 */
export interface ApprovalSearch {
  /** True when the approval is confirmed on `deal` and one of its linked brackets prices it. */
  pricesAsItStands(deal: Deal): boolean;
  /** The least sufficient change by the change order, trying these waiting times. */
  best(waits: readonly number[]): Candidate | null;
  /**
   * The cheapest reachable change by `rankBy` after `wait` months. When it ranks after `toBeat` (the best of the
   * approvals before) or equal to it, it may answer null instead: the caller keeps `toBeat` then.
   */
  cheapest(wait: number, rankBy: RankBy, toBeat: Candidate | null): Candidate | null;
}

/** `structureDeal` with the search given per approval. */
function structureWith(
  input: StructuringInput,
  catalogue: StructuringCatalogue,
  searchOf: (a: Approval) => ApprovalSearch,
): Structuring {
  const { deal } = input;
  const answers: ApprovalStructuring[] = [];
  let cheapest: Candidate | null = null;
  let cheapestApproval: Approval | null = null;
  for (const a of catalogue.approvals) {
    const search = searchOf(a);
    const outcome = evaluateApproval(a, deal, catalogue.ancestry);
    let status: StructuringStatus;
    let blockers: Blocker[];
    if (outcome?.status === 'confirmed') {
      if (search.pricesAsItStands(deal)) {
        const c = search.cheapest(0, input.rank_by, cheapest);
        if (c !== null && (cheapest === null || compareRank(c, cheapest, input.rank_by) < 0)) {
          cheapest = c;
          cheapestApproval = a;
        }
        continue;
      }
      status = 'unpriced';
      blockers = pricingBlockers(a, deal, catalogue);
    } else {
      status = outcome === null ? 'ruled_out' : 'possible';
      blockers = unmetCriteria(a, deal, catalogue.ancestry).map(criterionBlocker);
    }
    const facts = status !== 'unpriced' && blockers.some((b) => b.kind === 'fact');
    let best: Candidate | null = null;
    if (!facts) {
      let needed = 0;
      for (const b of blockers)
        if (status !== 'unpriced' && b.kind === 'time') needed = Math.max(needed, b.eligible_in_months ?? 0);
      best = search.best(waits(a, deal, needed, catalogue));
      if (best !== null) {
        const c = search.cheapest(best.wait, input.rank_by, cheapest);
        if (c !== null && (cheapest === null || compareRank(c, cheapest, input.rank_by) < 0)) {
          cheapest = c;
          cheapestApproval = a;
        }
      }
    }
    answers.push({
      approval: a,
      status,
      blockers,
      suggestion: best === null ? null : suggestionOf(a, best, input),
      no_suggestion_reason: best !== null ? null : facts ? 'fact' : 'out_of_bounds',
    });
  }
  return {
    approvals: sortedAnswers(answers),
    cheapest: cheapest === null || cheapestApproval === null ? null : suggestionOf(cheapestApproval, cheapest, input),
  };
}

/**
 * `compareAnswers`' order. The thousands without a suggestion are sorted on ranks read once: each distinct name is
 * collated once, not once per comparison.
 */
export function sortedAnswers(answers: ApprovalStructuring[]): ApprovalStructuring[] {
  const suggested = answers.filter((a) => a.suggestion !== null).sort(compareAnswers);
  const rest = answers.filter((a) => a.suggestion === null);
  const names = [...new Set(rest.map((a) => a.approval.name))].sort(compareNames);
  const nameRank = new Map(names.map((name, k) => [name, k]));
  const keyed = rest.map((a) => ({
    answer: a,
    level: docLevelRank(a.approval.doc_level),
    name: nameRank.get(a.approval.name) ?? 0,
    id: a.approval.id,
  }));
  keyed.sort((x, y) => x.level - y.level || x.name - y.name || x.id - y.id);
  for (const k of keyed) suggested.push(k.answer);
  return suggested;
}

/** Those with a suggestion first, by the change order; then the rest by doc level and name. */
function compareAnswers(x: ApprovalStructuring, y: ApprovalStructuring): number {
  const sx = x.suggestion;
  const sy = y.suggestion;
  if (sx !== null && sy !== null) {
    return (
      sx.changes.length - sy.changes.length ||
      sx.wait_months - sy.wait_months ||
      delta(sx, 'deposit') - delta(sy, 'deposit') ||
      delta(sx, 'term') - delta(sy, 'term') ||
      delta(sx, 'balloon') - delta(sy, 'balloon') ||
      compareCheapest(sx.bracket, sy.bracket) ||
      x.approval.id - y.approval.id
    );
  }
  if (sx !== null) return -1;
  if (sy !== null) return 1;
  return (
    docLevelRank(x.approval.doc_level) - docLevelRank(y.approval.doc_level) ||
    compareNames(x.approval.name, y.approval.name) ||
    x.approval.id - y.approval.id
  );
}

function delta(s: Suggestion, lever: Lever): number {
  const change = s.changes.find((c) => c.lever === lever);
  return change === undefined ? 0 : Math.abs(change.to - change.from);
}

/** The broker's bounds as given (dollars, months); absent ones take the documented defaults. */
export interface GivenBounds {
  max_deposit?: number | null;
  min_term?: number | null;
  max_term?: number | null;
  min_balloon?: number | null;
  max_balloon?: number | null;
}

/** Default term range, months, widened to include the deal's own term. */
const DEFAULT_MIN_TERM = 12;
const DEFAULT_MAX_TERM = 84;

/**
 * Defaults: deposit between 0 and max(the deal's deposit, 50% of the GST-inclusive cost); terms 12..84 months; the
 * balloon fixed unless a range is given (a range missing one end takes the deal's balloon there). Validation is the
 * service's.
 */
export function resolveBounds(deal: Deal, given: GivenBounds | null | undefined): StructuringBounds {
  const g = given ?? {};
  const deposit = deal.deposit ?? 0;
  const ranged = (g.min_balloon ?? null) !== null || (g.max_balloon ?? null) !== null;
  return {
    max_deposit: g.max_deposit ?? Math.max(deposit, deal.cost_inc / 2),
    min_term: g.min_term ?? DEFAULT_MIN_TERM,
    max_term: g.max_term ?? DEFAULT_MAX_TERM,
    min_balloon: ranged ? (g.min_balloon ?? Math.min(deal.balloon_amount, g.max_balloon as number)) : null,
    max_balloon: ranged ? (g.max_balloon ?? Math.max(deal.balloon_amount, g.min_balloon as number)) : null,
  };
}
