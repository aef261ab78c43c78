/** The pricing module's GraphQL registrations. */
import './pricing.types.ts';
import './calculate.query.ts';
import './recalculate.query.ts';
import './financiers.query.ts';
