import { body, defineRoute, scenarioHeader } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/matrix-calculator/',
  document: `query RestMatrixCalculator($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename
      ... on MatrixCalculatorResult {
        results { ...MatrixCalculatorRowFields } priced_count destination_count degraded scenario_id
        priced { ...PricedCardFields } financiers { ...MatrixFinancierGroupFields } }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'MatrixCalculatorResult') {
      const { __typename, priced, financiers, scenario_id, ...rest } = r;
      // `priced` and `financiers` appear only on the degraded run whose half they are.
      const answer = { ...rest, ...(priced ? { priced } : {}), ...(financiers ? { financiers } : {}) };
      return [200, answer, scenarioHeader(scenario_id)];
    }
    return undefined;
  },
});
