import { builder } from '../../graphql/builder.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import {
  AlreadySubscribedError,
  CapHitError,
  EntitlementRequiredError,
  FeatureDisabledError,
  NotScheduledToCancelError,
} from './errors.ts';
import { SURFACES, type Surface } from '../../lib/vocabulary.ts';

// Named BillingSubscription: a type called `Subscription` is GraphQL's subscription root by convention, and
// clients and code generators read it as one (`subscription { plan }` would be a subscription operation).
export const SubscriptionRef = builder.prismaObject('Subscription', {
  name: 'BillingSubscription',
  description: "An organisation's billing subscription: plan, status, seats, renewal and the card on file",
  fields: (t) => ({
    plan: t.exposeString('plan'),
    plan_name: t.exposeString('plan_name'),
    status: t.exposeString('status'),
    seats: t.exposeInt('seats'),
    trial_end: t.expose('trial_end', { type: 'DateTime', nullable: true }),
    current_period_end: t.expose('current_period_end', { type: 'DateTime', nullable: true }),
    cancel_at_period_end: t.exposeBoolean('cancel_at_period_end'),
    card_brand: t.exposeString('card_brand', { nullable: true }),
    card_last4: t.exposeString('card_last4', { nullable: true }),
  }),
});

export const SubscriptionEnvelopeRef = builder
  .objectRef<{ subscription: any | null }>('SubscriptionEnvelope')
  .implement({
    fields: (t) => ({
      subscription: t.field({ type: SubscriptionRef, nullable: true, resolve: (r) => r.subscription }),
    }),
  });

export type SurfaceStates = Record<Surface, string>;

export const SurfacesRef = builder.objectRef<SurfaceStates>('Surfaces').implement({
  description:
    'Each surface is `available`, or says why not: entitlement_required, feature_disabled, bid_standing_required, organisation_required',
  fields: (t) => Object.fromEntries(SURFACES.map((s) => [s, t.exposeString(s)])) as any,
});

export const FeatureFlagsRef = builder
  .objectRef<{ surfaces: SurfaceStates; entitlements: string[]; plan: string }>('FeatureFlags')
  .implement({
    fields: (t) => ({
      surfaces: t.field({ type: SurfacesRef, resolve: (r) => r.surfaces }),
      entitlements: t.exposeStringList('entitlements'),
      plan: t.exposeString('plan'),
    }),
  });

// ---------- errors ----------

builder.objectType(CapHitError, {
  name: 'CapHitError',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    detail: t.exposeString('detail'),
    limit: t.exposeInt('limit'),
    used: t.exposeInt('used'),
    metric: t.exposeString('metric', { description: 'calculator or matrix: which daily allowance ran out' }),
  }),
});

builder.objectType(EntitlementRequiredError, {
  name: 'EntitlementRequiredError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ detail: t.exposeString('detail'), entitlement: t.exposeString('entitlement') }),
});

builder.objectType(FeatureDisabledError, {
  name: 'FeatureDisabledError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ detail: t.exposeString('detail') }),
});

export const CheckoutSessionRef = builder.objectRef<{ id: string; url: string }>('CheckoutSession').implement({
  description: "A payment processor's checkout: open `url` to subscribe (docs/billing.md)",
  fields: (t) => ({ id: t.exposeString('id'), url: t.exposeString('url') }),
});

builder.objectType(NotScheduledToCancelError, {
  name: 'NotScheduledToCancelError',
  interfaces: [ErrorInterface],
});

builder.objectType(AlreadySubscribedError, {
  name: 'AlreadySubscribedError',
  interfaces: [ErrorInterface],
});
