import { SURFACES, isOneOf } from '../../../lib/vocabulary.ts';
import { defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/calculator/financiers',
  document: `query RestFinanciers($surface: Surface) {
    financiers(surface: $surface) { __typename ... on QueryFinanciersSuccess { data { id name } } ...ErrorFields } }`,
  // The spec: any other value reads as calculator (null), so an unknown surface never reaches the enum's coercion.
  variables: (req) => ({ surface: isOneOf(SURFACES, req.query.surface) ? req.query.surface : null }),
  respond: (r) => (r.__typename === 'QueryFinanciersSuccess' ? [200, r.data] : undefined),
});
