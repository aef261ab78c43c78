import { body, defineRoute } from '../../define-route.ts';

/** RecalculateInput's non-null fields (api-v1.md: the whole body is required; `billing_type` may be null). */
const REQUIRED = ['rate_bracket_id', 'base_min', 'base_max', 'compounding_freq_value', 'pv', 'balloon', 'cost', 'deposit',
  'noi_min', 'noi_max', 'repayment_frequency'] as const;

/**
 * The body as RecalculateInput. An absent required field is sent as null: GraphQL reports a missing input-object
 * field against the object (`input`), but a null one against the field itself, so the 400 names each missing
 * field. An absent `billing_type` stays absent, and the resolver names it (null is a value it accepts).
 */
function recalculateInput(raw: Record<string, any>): Record<string, any> {
  const input: Record<string, any> = { ...raw };
  for (const field of REQUIRED) if (input[field] === undefined) input[field] = null;
  return input;
}

export default defineRoute({
  method: 'post', path: '/calculator/recalculate',
  document: `query RestRecalculate($input: RecalculateInput!) {
    recalculate(input: $input) {
      __typename ... on RecalculateResult { rate_bracket_id r_min r_max repayment_min repayment_max e_min e_max }
      ...ErrorFields } }`,
  variables: (req) => ({ input: recalculateInput(body(req)) }),
  respond: (r) => {
    if (r.__typename === 'RecalculateResult') { const { __typename, ...result } = r; return [200, result]; }
    // The spec's documented 500: a body, never a stack trace.
    if (r.__typename === 'RecalculationFailedError') return [500, { error: r.message }];
    return undefined; // 400 (ValidationError), 401, 403: the bridge's shared bodies
  },
});
