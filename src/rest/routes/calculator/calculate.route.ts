import { body, defineRoute, scenarioHeader } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/calculator',
  document: `query RestCalculate($input: DealInput!) {
    calculate(input: $input) {
      __typename ... on CalculatorResult { priced_count scenario_id results { ...CalculatorRowFields } }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'CalculatorResult')
      return [
        200,
        { results: r.results, priced_count: r.priced_count, scenario_id: r.scenario_id },
        scenarioHeader(r.scenario_id),
      ];
    return undefined;
  },
});
