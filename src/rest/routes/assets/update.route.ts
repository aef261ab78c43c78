import { body, defineRoute, intParam } from '../../define-route.ts';
import { say } from '../../../lib/wording.ts';

/** The spec's Asset, in its field order; asset_rate_brackets are AssetRateBracketRelations. */
const ASSET_FIELDS = `id name alias parent parent_id is_asset is_deleted
  asset_rate_brackets { id asset asset_id organisation organisation_id product product_id rate_bracket rate_bracket_id created_at updated_at }
  created_at updated_at`;

/**
 * PATCH /assets/{id}: renames, re-aliases, moves, deletes or restores an asset. Body `name` (required), `alias`,
 * `parent_id`, `is_deleted` (true deletes, false restores: deleteAsset's and restoreAsset's change, in the same
 * transaction as the rest); a field left out stays as it is (`alias` or `parent_id` null clears it). 200
 * `{message, data: Asset}`; 400 naming the field (blank or long name, long alias, a parent that is unknown, deleted,
 * the asset itself or beneath it, an `is_deleted` that is not a boolean); 403 without permission to edit equipment
 * or with a read API token; 404 no such asset (docs/asset-tree.md).
 */
export default defineRoute({
  method: 'patch',
  path: '/assets/:id',
  document: `mutation RestUpdateAsset($id: Int!, $name: String!, $alias: String, $parent_id: Int, $is_deleted: Boolean) {
    updateAsset(id: $id, input: { name: $name, alias: $alias, parent_id: $parent_id, is_deleted: $is_deleted }) {
      __typename ... on Asset { ${ASSET_FIELDS} } ...ErrorFields } }`,
  // A variable left out leaves its input field out (unchanged); JSON null is sent as null (cleared).
  variables: (req) => {
    const { name, alias, parent_id, is_deleted } = body(req);
    return { id: intParam(req.params.id), name, alias, parent_id, is_deleted };
  },
  respond: (r, ctx) => {
    if (r.__typename !== 'Asset') return undefined;
    const { __typename, ...asset } = r;
    return [200, { message: say('asset_updated', ctx.client), data: asset }];
  },
});
