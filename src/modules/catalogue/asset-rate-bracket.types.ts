/**
 * The spec's AssetRateBracketRelation (minimal: the asset-tree work owns the full version of this file). An asset
 * mapped to a whole product (rate_bracket null) or to one of its brackets.
 */
import { builder } from '../../graphql/builder.ts';

export const AssetRateBracketRef = builder.prismaObject('AssetRateBracket', {
  name: 'AssetRateBracketRelation',
  fields: (t) => ({
    id: t.exposeInt('id'),
    asset: t.string({ select: { asset: { select: { name: true } } }, resolve: (m) => m.asset.name }),
    asset_id: t.exposeInt('asset_id'),
    organisation: t.string({
      select: { organisation: { select: { name: true } } },
      resolve: (m) => m.organisation.name,
    }),
    organisation_id: t.exposeInt('organisation_id'),
    product: t.string({
      nullable: true,
      select: { product: { select: { product_name: true } } },
      resolve: (m) => m.product?.product_name ?? null,
    }),
    product_id: t.exposeInt('product_id', { nullable: true }),
    rate_bracket: t.string({
      nullable: true,
      select: { rate_bracket: { select: { name: true } } },
      resolve: (m) => m.rate_bracket?.name ?? null,
    }),
    rate_bracket_id: t.exposeInt('rate_bracket_id', { nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
  }),
});
