import { body, defineRoute } from '../../define-route.ts';

/** POST /billing/checkout-session {plan, seats?} (spec: "referenced but unspecified"; docs/billing.md): 201 {url, id}. */
export default defineRoute({
  method: 'post',
  path: '/billing/checkout-session',
  document: `mutation RestCheckoutSession($plan: PurchasablePlan!, $seats: Int) { createCheckoutSession(plan: $plan, seats: $seats) {
    __typename ... on CheckoutSession { url id } ...ErrorFields } }`,
  variables: (req) => ({ plan: body(req).plan, seats: body(req).seats }),
  respond: (r) => {
    if (r.__typename === 'CheckoutSession') return [201, { url: r.url, id: r.id }];
    if (r.__typename === 'AlreadySubscribedError') return [409, { error: r.message }];
    return undefined;
  },
});
