import { defineRoute, intParam } from '../../define-route.ts';

export default defineRoute({
  method: 'get',
  path: '/rate-card-versions/:id/diff',
  document: `query RestRateCardVersionDiff($id: Int!) {
    rateCardVersionDiff(id: $id) {
      __typename
      ... on RateCardVersionDiff { version { ...RateCardVersionFields } summary_lines parts warnings subtrees }
      ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id) }),
  respond: (r) => {
    if (r.__typename !== 'RateCardVersionDiff') return undefined;
    const { __typename, ...diff } = r;
    return [200, diff];
  },
});
