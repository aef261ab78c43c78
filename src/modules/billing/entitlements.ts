/**
 * Who may run which surface, and the daily allowances. Both surfaces call these before any engine runs.
 * Allowances are counted per user per calendar day in the service's zone, in one atomic database statement
 * (record_run, which also records the run as a recent scenario), so they are exact across processes; a refused run
 * consumes nothing.
 */
import type { Metric, ScenarioTool, Surface, SurfaceState } from '../../lib/vocabulary.ts';
import { calendarDay } from '../../lib/clock.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { say } from '../../lib/wording.ts';
import { termsOf, type Caller } from '../../lib/caller.ts';
import { allowanceRefusals } from '../../lib/metrics.ts';
import { CapHitError, EntitlementRequiredError, FeatureDisabledError } from './errors.ts';
import { recordRun } from '../scenarios/index.ts';

/** The state of each surface for this caller (GET /feature-flags). */
export function surfaceState(ctx: Pick<ServiceContext, 'config'>, caller: Caller, surface: Surface): SurfaceState {
  if (ctx.config.disabledSurfaces.includes(surface)) return 'feature_disabled';
  if (!caller.organisation) return 'organisation_required';
  const terms = termsOf(caller);
  switch (surface) {
    case 'calculator':
      return 'available';
    case 'consumer_calculator':
      // Consumer credit advice is governed by Best Interests Duty: only brokers bound by it get consumer cards.
      if (!terms.entitlements.includes('consumer.enabled')) return 'entitlement_required';
      return caller.organisation.type === 'b' && caller.organisation.is_bid_broker
        ? 'available'
        : 'bid_standing_required';
    case 'matrix':
    case 'matrix_calculator':
      return terms.entitlements.includes('matrix.enabled') ? 'available' : 'entitlement_required';
  }
}

/** Throws the spec's typed 403 unless the caller can run the surface. */
export function requireSurface(ctx: Pick<ServiceContext, 'config' | 'client'>, caller: Caller, surface: Surface): void {
  const state = surfaceState(ctx, caller, surface);
  if (state === 'available') return;
  if (state === 'feature_disabled') throw new FeatureDisabledError(say('feature_disabled_detail', ctx.client));
  // Consumer pricing is not a plan upsell on every client: it turns on BID standing, so it is refused as a fact.
  if (surface === 'consumer_calculator') throw new FeatureDisabledError(say('consumer_unavailable_detail', ctx.client));
  if (state === 'entitlement_required') {
    throw new EntitlementRequiredError(
      say('entitlement_required_detail', ctx.client),
      say('entitlement_required_message', ctx.client),
      'matrix.enabled',
    );
  }
  throw new FeatureDisabledError(say('feature_disabled_detail', ctx.client));
}

/**
 * Meters one run: consumes one of each metric, all or nothing, and records the run as the caller's recent scenario
 * for `recent.tool`, in one database statement (record_run). Counters are locked in a fixed order so concurrent
 * runs never deadlock. A refused run consumes nothing and records nothing. Returns the recent scenario's id.
 */
export async function meterRun(
  ctx: Pick<ServiceContext, 'prisma' | 'config' | 'clock' | 'client'>,
  caller: Caller,
  metrics: Metric[],
  recent: { tool: ScenarioTool; request: unknown; summary?: unknown },
): Promise<number> {
  const terms = termsOf(caller);
  const ordered = [...new Set(metrics)].sort();
  const outcome = await recordRun(ctx.prisma, {
    userId: caller.userId,
    day: calendarDay(ctx.clock.now(), ctx.config.serviceTimeZone),
    metrics: ordered,
    limits: ordered.map((m) => (m === 'calculator' ? terms.calculator_allowance : terms.matrix_allowance)),
    tool: recent.tool,
    request: recent.request,
    summary: recent.summary,
  });
  if (outcome.ok) return outcome.scenarioId;
  const params = { limit: outcome.limit, used: outcome.used, metric: outcome.metric };
  allowanceRefusals.labels(outcome.metric).inc();
  throw new CapHitError(
    say('cap_hit_detail', ctx.client, params),
    say('cap_hit_message', ctx.client, params),
    outcome.limit,
    outcome.used,
    outcome.metric as Metric,
  );
}
