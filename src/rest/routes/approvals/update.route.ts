import { body, defineRoute, intParam } from '../../define-route.ts';

/**
 * PUT /approvals/{id}: replaces every writable field of one of the caller's own approvals (absent = null or empty).
 * 403 for another organisation's approval, a read token or a caller without change_approval; 404 for no such id.
 */
export default defineRoute({
  method: 'put',
  path: '/approvals/:id',
  document: `mutation RestUpdateApproval($id: Int!, $input: ApprovalInput!) {
    updateApproval(id: $id, input: $input) { __typename ...ApprovalFields ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id), input: body(req) }),
  respond: (r) => {
    if (r.__typename !== 'Approval') return undefined;
    const { __typename, ...approval } = r;
    return [200, approval];
  },
});
