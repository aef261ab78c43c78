/**
 * "What would it take?" for one deal (docs/what-it-would-take.md): the deal and bounds checked, the caller's scope and
 * the warm snapshot, the pure structuring engine (its fast path, engine.fast.ts), the Free-tier paywall, client
 * wording, one Matrix run metered.
 */
import type { FieldError } from '../../lib/errors.ts';
import { ValidationError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import type { DocLevel } from '../../lib/vocabulary.ts';
import { financiersInScope } from '../../lib/policy.ts';
import { meterRun, requireSurface } from '../billing/index.ts';
import { termsOf, type Caller } from '../../lib/caller.ts';
import { requireKnownAsset, snapshotFor } from '../catalogue/index.ts';
import { validatedDeal, type Deal, type DealRequest } from '../deal/index.ts';
import { FREE_TIER_VISIBLE_ROWS } from '../matrix/index.ts';
import { formatMoney, formatRate, roundMoney, roundRate } from '../pricing/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import {
  resolveBounds,
  type Blocker,
  type BlockerKind,
  type GivenBounds,
  type Lever,
  type NoSuggestionReason,
  type RankBy,
  type StructuringInput,
  type StructuringStatus,
  type Suggestion,
} from './engine.ts';
import { structureDealFast } from './engine.fast.ts';

export interface WhatWouldItTakeRequest {
  deal: DealRequest;
  bounds?: GivenBounds | null;
  rank_by?: RankBy | null;
  doc_levels?: DocLevel[] | null;
  organisation_ids?: number[] | null;
}

export interface StructuringBlockerResult {
  criterion: string;
  field: string;
  kind: BlockerKind;
  lever: Lever | null;
  deal_value: string | null;
  required: string;
  eligible_in_months: number | null;
  sentence: string;
}

export interface StructuringChangeResult {
  lever: Lever;
  from: number;
  to: number;
  /** A deposit that is a whole percentage of the cost, as that percentage; else null. */
  to_percentage: number | null;
}

export interface StructuringSuggestionResult {
  approval_id: number;
  organisation_id: number;
  changes: StructuringChangeResult[];
  wait_months: number;
  deposit: number;
  term: number;
  balloon: number;
  rate_bracket_id: number;
  rate_min: string | null;
  e_min: string | null;
  repayment_min: string | null;
  repayment_frequency: string;
  masked: boolean;
  sentence: string;
}

export interface ApprovalStructuringResult {
  approval_id: number;
  approval_name: string;
  organisation_id: number;
  organisation_name: string;
  doc_level: DocLevel;
  status: StructuringStatus;
  blockers: StructuringBlockerResult[];
  suggestion: StructuringSuggestionResult | null;
  no_suggestion_reason: NoSuggestionReason | null;
}

export interface WhatWouldItTakeResult {
  approvals: ApprovalStructuringResult[];
  cheapest: StructuringSuggestionResult | null;
  approval_count: number;
}

/** Longest term a bound may name, months: the Calculator's own limit. */
const MAX_BOUND_TERM = 600;

function boundErrors(bounds: GivenBounds | null | undefined): FieldError[] {
  const errors: FieldError[] = [];
  if (!bounds) return errors;
  const add = (field: string, message: string) => errors.push({ field: `bounds.${field}`, messages: [message] });
  for (const field of ['max_deposit', 'min_balloon', 'max_balloon'] as const) {
    const v = bounds[field];
    if (v !== null && v !== undefined && !(Number.isFinite(v) && v >= 0))
      add(field, 'Ensure this value is greater than or equal to 0.');
  }
  for (const field of ['min_term', 'max_term'] as const) {
    const v = bounds[field];
    if (v !== null && v !== undefined && !(Number.isInteger(v) && v >= 1 && v <= MAX_BOUND_TERM))
      add(field, `Ensure this value is a whole number of months from 1 to ${MAX_BOUND_TERM}.`);
  }
  const { min_term, max_term, min_balloon, max_balloon } = bounds;
  if (min_term != null && max_term != null && min_term > max_term)
    add('min_term', 'min_term cannot be greater than max_term.');
  if (min_balloon != null && max_balloon != null && min_balloon > max_balloon)
    add('min_balloon', 'min_balloon cannot be greater than max_balloon.');
  return errors;
}

/** The engine's input for a validated deal and its request: the cost a percentage deposit is of, the bounds resolved. */
export function structuringInput(deal: Deal, request: WhatWouldItTakeRequest): StructuringInput {
  const depositGst = request.deal.deposit_gst ?? false;
  return {
    deal,
    deposit_base: depositGst ? deal.cost_inc : deal.cost_gst ? (deal.cost_inc * 10) / 11 : deal.cost,
    asset_age_plus_term_sent: request.deal.asset_age_plus_term != null,
    bounds: resolveBounds(deal, request.bounds),
    rank_by: request.rank_by ?? 'repayment',
  };
}

export async function whatWouldItTake(
  ctx: ServiceContext,
  caller: Caller,
  request: WhatWouldItTakeRequest,
): Promise<WhatWouldItTakeResult> {
  const errors = boundErrors(request.bounds);
  let deal: Deal;
  try {
    deal = validatedDeal(request.deal, 'matrix_calculator', ctx.clock.now());
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError([...error.fieldErrors, ...errors]);
    throw error;
  }
  if (errors.length > 0) throw new ValidationError(errors);
  requireSurface(ctx, caller, 'matrix');
  const snapshot = await snapshotFor(ctx);
  requireKnownAsset(snapshot, deal.asset_value);

  const scope = financiersInScope(caller, deal.preferred_financier);
  const levels = request.doc_levels?.length ? new Set(request.doc_levels) : null;
  const organisations = request.organisation_ids?.length ? new Set(request.organisation_ids) : null;
  // Unnarrowed, the snapshot's own list: the engine keeps its listing order per list, so it is sorted once a version.
  const approvals =
    scope === null && levels === null && organisations === null
      ? snapshot.approvals
      : snapshot.approvals.filter(
          (a) =>
            (scope === null || scope.has(a.organisation_id)) &&
            (levels === null || levels.has(a.doc_level)) &&
            (organisations === null || organisations.has(a.organisation_id)),
        );
  const input = structuringInput(deal, request);
  const answer = structureDealFast(input, {
    approvals,
    ancestry: snapshot.ancestry,
    pricingIndex: snapshot.pricingIndex,
    bracketsById: snapshot.bracketsById,
  });

  // Free-tier paywall: as Matrix Calculator rows, the three suggestions with the lowest shown e_min keep their figures
  // (ties to the earlier in the answer's order). The cheapest reachable change shows its figures when its approval is
  // one of those three, or when the deal already gets it (an approval the Matrix Calculator shows anyway).
  const suggestions = answer.approvals.map((a) => a.suggestion).filter((s): s is Suggestion => s !== null);
  const paywalled = termsOf(caller).paywalled;
  const shown = new Set<Suggestion>(
    paywalled
      ? [...suggestions]
          .sort((x, y) => roundRate(x.bracket.e_min) - roundRate(y.bracket.e_min))
          .slice(0, FREE_TIER_VISIBLE_ROWS)
      : suggestions,
  );
  const cheapest = answer.cheapest;
  if (cheapest !== null) {
    const listed = answer.approvals.find((a) => a.approval === cheapest.approval);
    if (!paywalled || listed === undefined || (listed.suggestion !== null && shown.has(listed.suggestion)))
      shown.add(cheapest);
  }
  const base = input.deposit_base;
  const name = (id: number) => snapshot.organisationNames.get(id) ?? '';
  const suggestion = (s: Suggestion | null) =>
    s === null ? null : suggestionResult(ctx, s, !shown.has(s), base, deal, name(s.approval.organisation_id));
  const result: WhatWouldItTakeResult = {
    approvals: answer.approvals.map((a) => ({
      approval_id: a.approval.id,
      approval_name: a.approval.name,
      organisation_id: a.approval.organisation_id,
      organisation_name: name(a.approval.organisation_id),
      doc_level: a.approval.doc_level,
      status: a.status,
      blockers: a.blockers.map((b) => blockerResult(ctx, b)),
      suggestion: suggestion(a.suggestion),
      no_suggestion_reason: a.no_suggestion_reason,
    })),
    cheapest: suggestion(answer.cheapest),
    approval_count: answer.approvals.length,
  };
  await meterRun(ctx, caller, ['matrix'], { tool: 'matrix', request, summary: null });
  return result;
}

const text = (v: number | string | boolean | null): string | null =>
  v === null ? null : typeof v === 'number' ? String(roundMoney(v)) : String(v);

function blockerResult(ctx: ServiceContext, b: Blocker): StructuringBlockerResult {
  const params = {
    criterion: b.criterion,
    field: b.field,
    value: text(b.deal_value) ?? '',
    required: text(b.required) ?? '',
    lever: b.lever ?? '',
    months: b.eligible_in_months ?? 0,
  };
  const sentence =
    b.deal_value === null && b.kind !== 'lever'
      ? say('structuring_blocker_unanswered', ctx.client, params)
      : b.kind === 'lever'
        ? say('structuring_blocker_lever', ctx.client, params)
        : b.kind === 'time'
          ? say('structuring_blocker_time', ctx.client, params)
          : say('structuring_blocker_fact', ctx.client, params);
  return {
    criterion: b.criterion,
    field: b.field,
    kind: b.kind,
    lever: b.lever,
    deal_value: text(b.deal_value),
    required: text(b.required) ?? '',
    eligible_in_months: b.eligible_in_months,
    sentence,
  };
}

/** A deposit's whole percentage of `base`, or null when it is not one. */
function wholePercentage(deposit: number, base: number): number | null {
  if (!(base > 0)) return null;
  const k = Math.round((deposit / base) * 100);
  return Math.abs((base * k) / 100 - deposit) < 1e-6 ? k : null;
}

function suggestionResult(
  ctx: ServiceContext,
  s: Suggestion,
  masked: boolean,
  base: number,
  deal: Deal,
  financier: string,
): StructuringSuggestionResult {
  const clauses: string[] = [];
  if (s.wait_months > 0) clauses.push(say('structuring_wait', ctx.client, { months: s.wait_months }));
  for (const c of s.changes) {
    clauses.push(
      c.lever === 'term'
        ? say('structuring_change_term', ctx.client, { from: c.from, to: c.to })
        : say('structuring_change_money', ctx.client, {
            lever: c.lever,
            from: formatMoney(c.from),
            to: formatMoney(c.to),
          }),
    );
  }
  const changes = clauses.length > 0 ? clauses.join(', ') : say('structuring_no_change', ctx.client);
  const b = s.bracket;
  const sentence = masked
    ? say('structuring_suggestion_masked', ctx.client, { changes, financier })
    : say('structuring_suggestion', ctx.client, {
        changes,
        financier,
        rate: formatRate(b.rate_min),
        repayment: formatMoney(b.repayment_min),
        frequency: deal.repayment_frequency,
      });
  return {
    approval_id: s.approval.id,
    organisation_id: s.approval.organisation_id,
    changes: s.changes.map((c) => ({
      lever: c.lever,
      from: roundMoney(c.from),
      to: roundMoney(c.to),
      to_percentage: c.lever === 'deposit' ? wholePercentage(c.to, base) : null,
    })),
    wait_months: s.wait_months,
    deposit: roundMoney(s.deposit),
    term: s.term,
    balloon: roundMoney(s.balloon),
    rate_bracket_id: b.rate_bracket_id,
    rate_min: masked ? null : formatRate(b.rate_min),
    e_min: masked ? null : formatRate(b.e_min),
    repayment_min: masked ? null : formatMoney(b.repayment_min),
    repayment_frequency: deal.repayment_frequency,
    masked,
    sentence,
  };
}
