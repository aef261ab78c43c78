import { defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/calculator/financiers',
  document: `query RestFinanciers($surface: String) {
    financiers(surface: $surface) { __typename ... on QueryFinanciersSuccess { data { id name } } ...ErrorFields } }`,
  variables: (req) => ({ surface: typeof req.query.surface === 'string' ? req.query.surface : null }),
  respond: (r) => (r.__typename === 'QueryFinanciersSuccess' ? [200, r.data] : undefined),
});
