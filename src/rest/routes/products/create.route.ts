import { body, defineRoute } from '../../define-route.ts';
import { say } from '../../../lib/wording.ts';
import { etagOf, expectedVersionOf } from './expected-version.ts';

export default defineRoute({
  method: 'post',
  path: '/products',
  document: `mutation RestCreateProduct($input: ProductInput!, $expected_version: Int) {
    createProduct(input: $input, expectedVersion: $expected_version) {
      __typename
      ... on RateCardChange { card_version product { id product_name } }
      ... on RateCardVersionConflictError { current_version }
      ...ErrorFields } }`,
  variables: (req) => ({ input: body(req), expected_version: expectedVersionOf(req) }),
  respond: (r, ctx) => {
    switch (r.__typename) {
      case 'RateCardChange':
        return [201, { ...r.product, message: say('product_created', ctx.client) }, etagOf(r.card_version)];
      case 'RateCardVersionConflictError':
        return [409, { error: 'version_conflict', current_version: r.current_version }];
      default:
        return undefined;
    }
  },
});
