import { builder } from '../../graphql/builder.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import {
  AlreadySubscribedError,
  CapHitError,
  EntitlementRequiredError,
  FeatureDisabledError,
  NotScheduledToCancelError,
} from './errors.ts';
import { SURFACES, type PlanName, type Surface, type SurfaceState } from '../../lib/vocabulary.ts';
import { MetricEnum, PlanEnum, SubscriptionStatusEnum, SurfaceStateEnum } from '../../graphql/enums.ts';
import { ENTITLEMENTS } from '../../lib/plans.ts';

// Named BillingSubscription: a type called `Subscription` is GraphQL's subscription root by convention, and
// clients and code generators read it as one (`subscription { plan }` would be a subscription operation).
export const SubscriptionRef = builder.prismaObject('Subscription', {
  name: 'BillingSubscription',
  description: "An organisation's billing subscription: plan, status, seats, renewal and the card on file",
  fields: (t) => ({
    plan: t.expose('plan', { type: PlanEnum, description: 'The plan subscribed to' }),
    plan_name: t.exposeString('plan_name', { description: "The plan's display name, e.g. Pro" }),
    status: t.expose('status', {
      type: SubscriptionStatusEnum,
      description: "The payment processor's status; trialing, active and past_due grant the plan",
    }),
    seats: t.exposeInt('seats', { description: 'Seats paid for' }),
    trial_end: t.expose('trial_end', {
      type: 'DateTime',
      nullable: true,
      description: 'When the free trial ends; null without a trial',
    }),
    current_period_end: t.expose('current_period_end', {
      type: 'DateTime',
      nullable: true,
      description: 'When the paid period ends (it renews then unless cancel_at_period_end); null when not known',
    }),
    cancel_at_period_end: t.exposeBoolean('cancel_at_period_end', {
      description: 'true: it ends at current_period_end instead of renewing (reactivateSubscription undoes it)',
    }),
    card_brand: t.exposeString('card_brand', {
      nullable: true,
      description: 'The card on file, e.g. visa; null when none is known',
    }),
    card_last4: t.exposeString('card_last4', {
      nullable: true,
      description: 'The last four digits of the card on file; null when none is known',
    }),
  }),
});

export const SubscriptionEnvelopeRef = builder
  .objectRef<{ subscription: any | null }>('SubscriptionEnvelope')
  .implement({
    description: "The caller's organisation's subscription, if any (broker and financier admins read it)",
    fields: (t) => ({
      subscription: t.field({
        type: SubscriptionRef,
        nullable: true,
        description: 'null: the organisation has never subscribed (it is on Free)',
        resolve: (r) => r.subscription,
      }),
    }),
  });

export type SurfaceStates = Record<Surface, SurfaceState>;

const SURFACE_NAMES: Record<Surface, string> = {
  calculator: 'the calculator',
  consumer_calculator: 'the calculator on consumer rate cards',
  matrix: 'the Approval Matrix',
  matrix_calculator: 'the Matrix Calculator',
};

const SurfacesRef = builder.objectRef<SurfaceStates>('Surfaces').implement({
  description: 'Each surface is available, or says why not',
  fields: (t) =>
    Object.fromEntries(
      SURFACES.map((s) => [
        s,
        t.expose(s, { type: SurfaceStateEnum, description: `Whether the caller can use ${SURFACE_NAMES[s]} now` }),
      ]),
    ) as any,
});

export const FeatureFlagsRef = builder
  .objectRef<{ surfaces: SurfaceStates; entitlements: string[]; plan: PlanName }>('FeatureFlags')
  .implement({
    description: 'What the caller can use now (GET /feature-flags)',
    fields: (t) => ({
      surfaces: t.field({
        type: SurfacesRef,
        description: 'Each surface, available or why not',
        resolve: (r) => r.surfaces,
      }),
      entitlements: t.exposeStringList('entitlements', {
        description: "What the caller's plan includes, e.g. matrix.enabled, consumer.enabled (docs/plans.md)",
        extensions: { listSize: ENTITLEMENTS.length },
      }),
      plan: t.expose('plan', { type: PlanEnum, description: "The caller's organisation's plan (free without one)" }),
    }),
  });

// ---------- errors ----------

builder.objectType(CapHitError, {
  name: 'CapHitError',
  description: 'A daily allowance is spent; nothing ran and nothing was counted (REST 429 cap_hit)',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    detail: t.exposeString('detail', { description: 'Why, in a sentence for logs and support' }),
    limit: t.exposeInt('limit', { description: "Runs the caller's plan allows per day" }),
    used: t.exposeInt('used', { description: 'Runs counted today (in the service time zone)' }),
    metric: t.expose('metric', { type: MetricEnum, description: 'Which daily allowance ran out' }),
  }),
});

builder.objectType(EntitlementRequiredError, {
  name: 'EntitlementRequiredError',
  description: "The caller's plan does not include this (REST 403 entitlement_required)",
  interfaces: [ErrorInterface],
  fields: (t) => ({
    detail: t.exposeString('detail', { description: 'Why, in a sentence for logs and support' }),
    entitlement: t.exposeString('entitlement', { description: 'The entitlement needed, e.g. matrix.enabled' }),
  }),
});

builder.objectType(FeatureDisabledError, {
  name: 'FeatureDisabledError',
  description: 'The surface is switched off, or not open to this caller (REST 403 feature_disabled)',
  interfaces: [ErrorInterface],
  fields: (t) => ({ detail: t.exposeString('detail', { description: 'Why, in a sentence to show' }) }),
});

export const CheckoutSessionRef = builder.objectRef<{ id: string; url: string }>('CheckoutSession').implement({
  description: "A payment processor's checkout: open `url` to subscribe (docs/billing.md)",
  fields: (t) => ({
    id: t.exposeString('id', { description: "The processor's id for the checkout" }),
    url: t.exposeString('url', { description: "The processor's checkout page" }),
  }),
});

builder.objectType(NotScheduledToCancelError, {
  name: 'NotScheduledToCancelError',
  description: 'The subscription is not scheduled to cancel, so there is nothing to undo (REST 409)',
  interfaces: [ErrorInterface],
});

builder.objectType(AlreadySubscribedError, {
  name: 'AlreadySubscribedError',
  description: 'The organisation already has a subscription that has not ended (REST 409)',
  interfaces: [ErrorInterface],
});
