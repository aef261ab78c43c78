/**
 * Who may run which surface, and the daily allowances. Both surfaces call these before any engine runs.
 * Allowances are counted per user per calendar day in the service's zone, in one atomic database statement
 * (consume_allowances), so they are exact across processes; a refused run consumes nothing.
 */
import type { Surface } from '../../config.ts';
import { calendarDay } from '../../lib/clock.ts';
import type { Context } from '../../lib/context.ts';
import { say } from '../../lib/wording.ts';
import type { Caller } from '../auth/caller.ts';
import { CapHitError, EntitlementRequiredError, FeatureDisabledError, type Metric } from './errors.ts';
import { PLAN_TERMS, type PlanTerms } from './plans.ts';

export type SurfaceState = 'available' | 'entitlement_required' | 'feature_disabled' | 'bid_standing_required' | 'organisation_required';

export function termsOf(caller: Caller): PlanTerms {
  return caller.organisation?.terms ?? PLAN_TERMS.free;
}

/** The state of each surface for this caller (GET /feature-flags). */
export function surfaceState(ctx: Pick<Context, 'config'>, caller: Caller, surface: Surface): SurfaceState {
  if (ctx.config.disabledSurfaces.includes(surface)) return 'feature_disabled';
  if (!caller.organisation) return 'organisation_required';
  const terms = termsOf(caller);
  switch (surface) {
    case 'calculator':
      return 'available';
    case 'consumer_calculator':
      // Consumer credit advice is governed by Best Interests Duty: only brokers bound by it get consumer cards.
      if (!terms.entitlements.includes('consumer.enabled')) return 'entitlement_required';
      return caller.organisation.type === 'b' && caller.organisation.is_bid_broker ? 'available' : 'bid_standing_required';
    case 'matrix':
    case 'matrix_calculator':
      return terms.entitlements.includes('matrix.enabled') ? 'available' : 'entitlement_required';
  }
}

/** Throws the spec's typed 403 unless the caller can run the surface. */
export function requireSurface(ctx: Pick<Context, 'config' | 'client'>, caller: Caller, surface: Surface): void {
  const state = surfaceState(ctx, caller, surface);
  if (state === 'available') return;
  if (state === 'entitlement_required' && surface !== 'consumer_calculator' && surface !== 'calculator') {
    throw new EntitlementRequiredError(say('entitlement_required_detail', ctx.client), say('entitlement_required_message', ctx.client), 'matrix.enabled');
  }
  throw new FeatureDisabledError(say('feature_disabled_detail', ctx.client));
}

/** Consumes one run of each metric, all or nothing. Metrics are locked in a fixed order so runs never deadlock. */
export async function consumeAllowances(ctx: Pick<Context, 'prisma' | 'config' | 'clock' | 'client'>, caller: Caller, metrics: Metric[]): Promise<void> {
  const terms = termsOf(caller);
  const ordered = [...new Set(metrics)].sort();
  const limits = ordered.map((m) => (m === 'calculator' ? terms.calculator_allowance : terms.matrix_allowance));
  const day = calendarDay(ctx.clock.now(), ctx.config.serviceTimeZone);
  const rows = await ctx.prisma.$queryRawUnsafe<{ ok: boolean; metric: Metric | null; used: number | null; limit: number | null }[]>(
    'SELECT * FROM consume_allowances($1::int, $2::text, $3::text[], $4::int[])', caller.userId, day, ordered, limits,
  );
  const outcome = rows[0];
  if (outcome.ok) return;
  const params = { limit: outcome.limit!, used: outcome.used!, metric: outcome.metric! };
  throw new CapHitError(say('cap_hit_detail', ctx.client, params), say('cap_hit_message', ctx.client, params), outcome.limit!, outcome.used!, outcome.metric!);
}
