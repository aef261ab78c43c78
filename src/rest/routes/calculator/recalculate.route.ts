import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/calculator/recalculate',
  document: `query RestRecalculate($input: RecalculateInput!) {
    recalculate(input: $input) {
      __typename ... on RecalculateResult { rate_bracket_id r_min r_max repayment_min repayment_max e_min e_max }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'RecalculateResult') {
      const { __typename, ...result } = r;
      return [200, result];
    }
    // The spec's documented 500: a body, never a stack trace.
    if (r.__typename === 'RecalculationFailedError') return [500, { error: r.message }];
    return undefined; // 400 (ValidationError), 401, 403, 404 (a bracket outside the caller's book): the bridge's shared bodies
  },
});
