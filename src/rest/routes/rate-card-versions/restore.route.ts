import { defineRoute, intParam } from '../../define-route.ts';
import { say } from '../../../lib/wording.ts';
import { etagOf, expectedVersionOf } from '../products/expected-version.ts';

export default defineRoute({
  method: 'post',
  path: '/rate-card-versions/:id/restore',
  document: `mutation RestRestoreRateCardVersion($id: Int!, $expected_version: Int) {
    restoreRateCardVersion(id: $id, expectedVersion: $expected_version) {
      __typename
      ... on RateCardChange { card_version skipped_asset_mappings restore_point { ...RateCardVersionFields } }
      ... on RateCardVersionConflictError { current_version }
      ...ErrorFields } }`,
  variables: (req) => ({ id: intParam(req.params.id), expected_version: expectedVersionOf(req) }),
  respond: (r, ctx) => {
    switch (r.__typename) {
      case 'RateCardChange':
        return [
          200,
          {
            message: say('rate_card_version_restored', ctx.client),
            card_version: r.card_version,
            version: r.restore_point,
            skipped_asset_mappings: r.skipped_asset_mappings,
          },
          etagOf(r.card_version),
        ];
      case 'RateCardVersionConflictError':
        return [409, { error: 'version_conflict', current_version: r.current_version }];
      default:
        return undefined;
    }
  },
});
