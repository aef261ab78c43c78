/** Reading financiers' approval criteria. */
import { defineTool } from './define-tool.ts';

export const listApprovals = defineTool({
  name: 'list_approvals',
  title: 'List approvals',
  description:
    "Lists financiers' approvals (the credit criteria a deal must meet), one page at a time: every financier's, or " +
    "one financier's (organisation_id). Pass the returned end_cursor as after for the next page. Not metered.",
  document: `query McpApprovals($organisation_id: Int, $first: Int, $after: String) {
    approvals(organisationId: $organisation_id, first: $first, after: $after) {
      __typename
      ... on QueryApprovalsSuccess {
        data {
          edges { node { id name doc_level organisation_id priority min_term max_term min_credit_score
                         max_credit_score min_asset_cost max_asset_cost asset_state } }
          pageInfo { hasNextPage endCursor } } }
      ...ErrorFields } }`,
  write: false,
  arguments: {
    organisation_id: "Only this financier's approvals (its organisation id)",
    first: 'Page size, 1 to 100 (default 20)',
    after: 'The end_cursor of the previous page',
  },
  answer: (r) => ({
    approvals: r.data.edges.map((e: { node: unknown }) => e.node),
    has_next_page: r.data.pageInfo.hasNextPage,
    end_cursor: r.data.pageInfo.endCursor,
  }),
});
