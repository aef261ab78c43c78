import type { Request } from 'express';
import { body, defineRoute } from '../../define-route.ts';
import { PLAN_ERROR_FIELDS, planErrorReply } from '../../../modules/billing/errors.ts';

export const APPROVAL_RESULT_FIELDS = 'approval_id approval_name doc_level status missing_fields deposit_percentage deposit_amount deposit_required max_term rate_bracket_ids';
export const FINANCIER_GROUP_FIELDS = `organisation_id organisation_name approvals { ${APPROVAL_RESULT_FIELDS} }`;

/**
 * The deal body as the `DealInput` variable. GraphQL's input coercion reports a required field that is absent at the
 * path of the enclosing object, so the bridge would name `input` instead of `cost` / `asset_value`. Absent required
 * fields are therefore sent as explicit nulls, which coercion reports at the field's own path: the 400 names each
 * missing field, as the spec's general error body requires.
 */
export function dealInput(req: Request): Record<string, unknown> {
  return { cost: null, asset_value: null, ...body(req) };
}

export default defineRoute({
  method: 'post', path: '/matrix/',
  document: `query RestMatrix($input: DealInput!) {
    matrix(input: $input) {
      __typename ... on MatrixResult { destination_count results { ${FINANCIER_GROUP_FIELDS} } }
      ${PLAN_ERROR_FIELDS} ...ErrorFields } }`,
  variables: (req) => ({ input: dealInput(req) }),
  respond: (r) => {
    if (r.__typename === 'MatrixResult') return [200, { results: r.results, destination_count: r.destination_count }];
    return planErrorReply(r);
  },
});
