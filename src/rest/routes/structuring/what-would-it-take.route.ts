import { body, defineRoute } from '../../define-route.ts';

/** An extension beyond the specified endpoints (docs/what-it-would-take.md): the body is the deal plus the options. */
export default defineRoute({
  method: 'post',
  path: '/what-would-it-take/',
  document: `query RestWhatWouldItTake($input: DealInput!, $bounds: StructuringBoundsInput, $rankBy: StructuringRankBy,
    $docLevels: [DocLevel!], $organisationIds: [Int!]) {
    whatWouldItTake(input: $input, bounds: $bounds, rankBy: $rankBy, docLevels: $docLevels, organisationIds: $organisationIds) {
      __typename
      ...WhatWouldItTakeFields
      ...ErrorFields } }`,
  variables: (req) => {
    const { bounds, rank_by, doc_levels, organisation_ids, ...input } = body(req);
    return { input, bounds, rankBy: rank_by, docLevels: doc_levels, organisationIds: organisation_ids };
  },
  respond: (r) => {
    if (r.__typename === 'WhatWouldItTakeResult') {
      const { __typename, ...answer } = r;
      return [200, answer];
    }
    return undefined;
  },
});
