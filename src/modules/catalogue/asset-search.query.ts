import { builder } from '../../graphql/builder.ts';
import { ValidationError } from '../../lib/errors.ts';
import {
  ASSET_SEARCH_DEFAULT_LIMIT,
  ASSET_SEARCH_MAX_LIMIT,
  ASSET_SEARCH_MAX_QUERY_LENGTH,
  searchAssets,
  validateAssetSearch,
  type AssetSearchResult,
} from './asset-search.ts';

const AssetSearchResultRef = builder.objectRef<AssetSearchResult>('AssetSearchResult').implement({
  description: 'A leaf of the asset tree (an actual asset, never a category) found by assetSearch',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The id the calculator and Matrix take as asset_value' }),
    name: t.exposeString('name', { description: "The asset's name" }),
    alias: t.exposeString('alias', { nullable: true, description: 'Comma-separated alternative names' }),
    parent_id: t.exposeInt('parent_id', { nullable: true, description: 'The category it sits in; null at the top' }),
    path: t.exposeStringList('path', { description: 'Ancestor names, root first' }),
    label: t.exposeString('label', { description: 'The path and the name, e.g. "Motor Vehicles › Passenger Car"' }),
  }),
});

builder.queryField('assetSearch', (t) =>
  t.field({
    type: [AssetSearchResultRef],
    description:
      "Assets whose name or aliases, or whose categories' names or aliases, contain every word of q " +
      '(case-insensitive, partial words). Leaves only, best matches first: the name starts with q, a name word ' +
      'starts with a word of q, the name contains one, an alias does, then category-only matches; ties by label.',
    authScopes: { signedIn: true },
    args: {
      q: t.arg.string({
        required: true,
        description: `1 to ${ASSET_SEARCH_MAX_QUERY_LENGTH} characters after trimming`,
      }),
      limit: t.arg.int({ description: `1 to ${ASSET_SEARCH_MAX_LIMIT}; default ${ASSET_SEARCH_DEFAULT_LIMIT}` }),
    },
    errors: {
      types: [ValidationError],
      dataField: { description: 'The assets whose name or alias matched, best match first' },
    },
    resolve: async (_root, args, ctx) => {
      const input = validateAssetSearch(args.q, args.limit);
      const snapshot = await ctx.services.catalogue.get();
      return searchAssets(snapshot.assets, input.q, input.limit);
    },
  }),
);
