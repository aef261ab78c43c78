/** The pricing module's GraphQL registrations. */
import './errors.ts';
import './deal.types.ts';
import './pricing.types.ts';
import './calculate.query.ts';
import './recalculate.query.ts';
import './financiers.query.ts';
