import { defineRoute, intParam } from '../../define-route.ts';

/** GET /approvals/count?organisation_id=: `{organisation_id, count}`; 404 when the organisation is no financier. */
export default defineRoute({
  method: 'get',
  path: '/approvals/count',
  document: `query RestApprovalCount($organisation_id: Int!) {
    approvalCount(organisationId: $organisation_id) {
      __typename ... on ApprovalCount { organisation_id count } ...ErrorFields } }`,
  variables: (req) => ({ organisation_id: intParam(req.query.organisation_id) }),
  respond: (r) => {
    if (r.__typename !== 'ApprovalCount') return undefined;
    const { __typename, ...count } = r;
    return [200, count];
  },
});
