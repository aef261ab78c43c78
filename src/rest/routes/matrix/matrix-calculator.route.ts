import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/matrix-calculator/',
  document: `query RestMatrixCalculator($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename
      ... on MatrixCalculatorResult {
        results { ...MatrixCalculatorRowFields } priced_count destination_count degraded
        priced { ...PricedCardFields } financiers { ...MatrixFinancierGroupFields } }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'MatrixCalculatorResult') {
      const { __typename, priced, financiers, ...rest } = r;
      // `priced` and `financiers` appear only on the degraded run whose half they are.
      return [200, { ...rest, ...(priced ? { priced } : {}), ...(financiers ? { financiers } : {}) }];
    }
    return undefined;
  },
});
