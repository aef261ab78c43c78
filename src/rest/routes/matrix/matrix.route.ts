import { body, defineRoute } from '../../define-route.ts';

export const APPROVAL_RESULT_FIELDS = 'approval_id approval_name doc_level status missing_fields deposit_percentage deposit_amount deposit_required max_term rate_bracket_ids';
export const FINANCIER_GROUP_FIELDS = `organisation_id organisation_name approvals { ${APPROVAL_RESULT_FIELDS} }`;

export default defineRoute({
  method: 'post', path: '/matrix/',
  document: `query RestMatrix($input: DealInput!) {
    matrix(input: $input) {
      __typename ... on MatrixResult { destination_count results { ${FINANCIER_GROUP_FIELDS} } }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req) }),
  respond: (r) => {
    if (r.__typename === 'MatrixResult') return [200, { results: r.results, destination_count: r.destination_count }];
    return undefined;
  },
});
