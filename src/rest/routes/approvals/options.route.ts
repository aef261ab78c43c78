import { defineRoute } from '../../define-route.ts';

/** GET /approvals/options: `{doc_levels, transaction_types, industries}`, each a list of `{value, label}`. */
export default defineRoute({
  method: 'get',
  path: '/approvals/options',
  document: `query RestApprovalOptions {
    approvalOptions {
      __typename
      ... on ApprovalOptions {
        doc_levels { value label } transaction_types { value label } industries { value label } }
      ...ErrorFields } }`,
  respond: (r) => {
    if (r.__typename !== 'ApprovalOptions') return undefined;
    const { __typename, ...options } = r;
    return [200, options];
  },
});
