import { body, defineRoute } from '../../define-route.ts';
import { PLAN_ERROR_FIELDS, planErrorReply } from '../../../modules/billing/errors.ts';

export const CALCULATOR_ROW_FIELDS = `organisation_id organisation_name product_id product_name rate_bracket_id rate_bracket_name
  base_min base_max rate_min rate_max e_min e_max repayment_min repayment_max balloon commission amount_financed instalments
  repayment_frequency advance monthly_fee_per_instalment`;

/** DealInput's non-null fields. */
const REQUIRED = ['cost', 'asset_value'] as const;

/**
 * The body as DealInput. An absent required field is sent as null: GraphQL reports a missing input-object field
 * against the object (`input`), but a null one against the field itself, so the 400 names `cost` / `asset_value`.
 */
function dealInput(raw: Record<string, any>): Record<string, any> {
  const input: Record<string, any> = { ...raw };
  for (const field of REQUIRED) if (input[field] === undefined) input[field] = null;
  return input;
}

export default defineRoute({
  method: 'post', path: '/calculator',
  document: `query RestCalculate($input: DealInput!) {
    calculate(input: $input) {
      __typename ... on CalculatorResult { priced_count scenario_id results { ${CALCULATOR_ROW_FIELDS} } }
      ${PLAN_ERROR_FIELDS} ...ErrorFields } }`,
  variables: (req) => ({ input: dealInput(body(req)) }),
  respond: (r) => {
    if (r.__typename === 'CalculatorResult') return [200, { results: r.results, priced_count: r.priced_count, scenario_id: r.scenario_id }];
    return planErrorReply(r);
  },
});
