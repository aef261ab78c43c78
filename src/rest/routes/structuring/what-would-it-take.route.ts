import { body, defineRoute } from '../../define-route.ts';

const SUGGESTION = `approval_id organisation_id changes { lever from to to_percentage } wait_months deposit term balloon
  rate_bracket_id rate_min e_min repayment_min repayment_frequency masked sentence`;

/** An extension beyond the specified endpoints (docs/what-it-would-take.md): the body is the deal plus the options. */
export default defineRoute({
  method: 'post',
  path: '/what-would-it-take/',
  document: `query RestWhatWouldItTake($input: DealInput!, $bounds: StructuringBoundsInput, $rankBy: StructuringRankBy,
    $docLevels: [DocLevel!], $organisationIds: [Int!]) {
    whatWouldItTake(input: $input, bounds: $bounds, rankBy: $rankBy, docLevels: $docLevels, organisationIds: $organisationIds) {
      __typename
      ... on WhatWouldItTakeResult {
        approvals { approval_id approval_name organisation_id organisation_name doc_level status
          blockers { criterion field kind lever deal_value required eligible_in_months sentence }
          suggestion { ${SUGGESTION} } no_suggestion_reason }
        cheapest { ${SUGGESTION} }
        approval_count }
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
