/**
 * AssetRateBracket (the spec's AssetRateBracketRelation): one financier's mapping of an asset or category to a whole
 * product (`rate_bracket` null) or one rate bracket. The names beside the ids are selected with the row (Prisma
 * relation selection), so a list of mappings costs one query per relation level, never one per row.
 */
import { builder } from '../../graphql/builder.ts';

export const AssetRateBracketRef = builder.prismaObject('AssetRateBracket', {
  description: 'A mapping of an asset (or category, covering everything beneath it) to a product or one rate bracket',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The mapping id (deleteAssetMapping takes it)' }),
    asset: t.string({
      description: 'The asset name',
      select: { asset: { select: { name: true } } },
      resolve: (row) => row.asset.name,
    }),
    asset_id: t.exposeInt('asset_id', { description: 'The asset or category mapped' }),
    organisation: t.string({
      description: 'The financier name',
      select: { organisation: { select: { name: true } } },
      resolve: (row) => row.organisation.name,
    }),
    organisation_id: t.exposeInt('organisation_id', { description: 'The financier whose mapping it is' }),
    product: t.string({
      nullable: true,
      description: 'The product name (null when the mapping names no product)',
      select: { product: { select: { product_name: true } } },
      resolve: (row) => row.product?.product_name ?? null,
    }),
    product_id: t.exposeInt('product_id', {
      nullable: true,
      description: 'The product mapped; null when none is named',
    }),
    rate_bracket: t.string({
      nullable: true,
      description: 'The rate bracket name; null maps every bracket of the product',
      select: { rate_bracket: { select: { name: true } } },
      resolve: (row) => row.rate_bracket?.name ?? null,
    }),
    rate_bracket_id: t.exposeInt('rate_bracket_id', {
      nullable: true,
      description: 'The one rate bracket mapped; null = every bracket of the product',
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When the mapping was made' }),
    updated_at: t.expose('updated_at', { type: 'DateTime', description: 'When the mapping last changed' }),
  }),
});
