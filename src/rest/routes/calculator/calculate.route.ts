import { body, defineRoute } from '../../define-route.ts';

export const CALCULATOR_ROW_FIELDS = `organisation_id organisation_name product_id product_name rate_bracket_id rate_bracket_name
  base_min base_max rate_min rate_max e_min e_max repayment_min repayment_max balloon commission amount_financed instalments
  repayment_frequency advance monthly_fee_per_instalment`;

export default defineRoute({
  method: 'post', path: '/calculator',
  document: `query RestCalculate($input: DealInput!) {
    calculate(input: $input) {
      __typename ... on CalculatorResult { priced_count scenario_id results { ${CALCULATOR_ROW_FIELDS} } }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'CalculatorResult') return [200, { results: r.results, priced_count: r.priced_count, scenario_id: r.scenario_id }];
    return undefined;
  },
});
