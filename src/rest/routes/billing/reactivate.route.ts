import { defineRoute } from '../../define-route.ts';

/** Spec: POST /billing/reactivate, no body; 200 with the Subscription (its `cancel_at_period_end` now false). */
export default defineRoute({
  method: 'post',
  path: '/billing/reactivate',
  document: `mutation RestReactivate { reactivateSubscription { __typename ... on BillingSubscription {
    plan plan_name status seats trial_end current_period_end cancel_at_period_end card_brand card_last4 } ...ErrorFields } }`,
  respond: (r) => {
    if (r.__typename === 'BillingSubscription') {
      const { __typename, ...subscription } = r;
      return [200, subscription];
    }
    if (r.__typename === 'NotScheduledToCancelError') return [409, { error: r.message }];
    return undefined;
  },
});
