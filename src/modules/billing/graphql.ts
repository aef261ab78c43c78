import './billing.types.ts';
import './subscription.query.ts';
import './feature-flags.query.ts';
import './reactivate-subscription.mutation.ts';
import './create-checkout-session.mutation.ts';
