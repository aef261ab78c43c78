import './billing.types.ts';
import './subscription.query.ts';
import './feature-flags.query.ts';
