import { defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/billing/subscription',
  document: `query RestSubscription { subscription { __typename ... on SubscriptionEnvelope { subscription {
    plan plan_name status seats trial_end current_period_end cancel_at_period_end card_brand card_last4 } } ...ErrorFields } }`,
  respond: (r) => (r.__typename === 'SubscriptionEnvelope' ? [200, { subscription: r.subscription }] : undefined),
});
