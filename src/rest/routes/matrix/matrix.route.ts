import { body, defineRoute, scenarioHeader } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/matrix/',
  document: `query RestMatrix($input: DealInput!) {
    matrix(input: $input) {
      __typename ... on MatrixResult { destination_count scenario_id results { ...MatrixFinancierGroupFields } }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'MatrixResult')
      return [200, { results: r.results, destination_count: r.destination_count }, scenarioHeader(r.scenario_id)];
    return undefined;
  },
});
