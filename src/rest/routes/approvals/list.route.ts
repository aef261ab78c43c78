import { defineRoute, intParam } from '../../define-route.ts';

/**
 * GET /approvals?organisation_id=: any signed-in caller (read API tokens too). 200: a JSON list of Approval, by
 * financier, priority (highest first), id; at most 1000, with `X-Total-Count` the number that matched.
 */
export default defineRoute({
  method: 'get',
  path: '/approvals',
  document: `query RestApprovals($organisation_id: Int) {
    approvalList(organisationId: $organisation_id) {
      __typename ... on ApprovalList { approvals { ...ApprovalFields } total_count truncated } ...ErrorFields } }`,
  variables: (req) => ({
    organisation_id: req.query.organisation_id === undefined ? undefined : intParam(req.query.organisation_id),
  }),
  respond: (r) =>
    r.__typename === 'ApprovalList' ? [200, r.approvals, { 'X-Total-Count': String(r.total_count) }] : undefined,
});
