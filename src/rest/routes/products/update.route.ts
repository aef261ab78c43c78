import { body, defineRoute, intParam } from '../../define-route.ts';
import { say } from '../../../lib/wording.ts';
import { etagOf, expectedVersionOf } from './expected-version.ts';

const PRODUCT_FIELDS = `id product_name organisation_id min_range max_range min_amount max_amount min_abn_age max_abn_age
  min_asset_age max_asset_age min_gst_age max_gst_age min_asset_age_plus_term max_asset_age_plus_term min_credit_score
  max_credit_score monthly_fee documentation_fee brokerage_cap maximum_brokerage_limit compounding_frequency
  brokerage_loading_treatment max_origination_fee_limit doc_fee_financed private_sale sale_hire_back home_owner
  created_at updated_at`;

export default defineRoute({
  method: 'patch',
  path: '/products/:id',
  document: `mutation RestUpdateProduct($id: Int!, $input: ProductPatchInput!, $expected_version: Int) {
    updateProduct(id: $id, input: $input, expectedVersion: $expected_version) {
      __typename
      ... on RateCardChange { card_version product { ${PRODUCT_FIELDS} } }
      ... on RateCardVersionConflictError { current_version }
      ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id), input: body(req), expected_version: expectedVersionOf(req) }),
  respond: (r, ctx) => {
    switch (r.__typename) {
      case 'RateCardChange':
        return [200, { message: say('product_updated', ctx.client), data: r.product }, etagOf(r.card_version)];
      case 'RateCardVersionConflictError':
        return [409, { error: 'version_conflict', current_version: r.current_version }];
      default:
        return undefined;
    }
  },
});
