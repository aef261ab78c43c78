/**
 * Asset: a node of the asset tree (a category, or an actual asset when `is_asset`), as the spec shows it, plus the
 * graph links GraphQL clients browse it by: `parent_asset`, `children` (a capped cursor connection) and `ancestors`
 * (root first). `parent` stays the spec's string, the parent's name. Every link is batched: a page of assets costs the
 * same number of queries whatever its size.
 */
import DataLoader from 'dataloader';
import type { Asset } from '../../generated/prisma/client.ts';
import { builder } from '../../graphql/builder.ts';
import type { Context } from '../../graphql/context.ts';
import { bookOf } from '../../lib/policy.ts';
import { AssetRateBracketRef } from './asset-rate-bracket.types.ts';
import { MAX_ASSET_DEPTH } from './asset-tree.ts';
import { ancestorIdsOf } from './assets.service.ts';

type AssetQuery = { include?: object; select?: Record<string, unknown> };

/**
 * One loader per request and per selection (the fields asked of each ancestor): the ancestors of every asset resolved
 * in one tick cost two queries together, the lines (one recursive statement) and the rows (one findMany).
 */
function ancestorsLoader(ctx: Context, query: AssetQuery): DataLoader<number, Asset[]> {
  const key = `assets:ancestors:${JSON.stringify(query)}`;
  let loader = ctx.cache.get(key) as DataLoader<number, Asset[]> | undefined;
  if (!loader) {
    loader = new DataLoader<number, Asset[]>(async (ids) => {
      const lines = await ancestorIdsOf(ctx.prisma, ids);
      const wanted = [...new Set([...lines.values()].flat())];
      const q = query.select ? { ...query, select: { ...query.select, id: true } } : query;
      const rows = wanted.length
        ? ((await ctx.prisma.asset.findMany({ ...(q as object), where: { id: { in: wanted } } })) as Asset[])
        : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => (lines.get(id) ?? []).flatMap((a) => byId.get(a) ?? []));
    });
    ctx.cache.set(key, loader);
  }
  return loader;
}

export const AssetRef = builder.prismaObject('Asset', {
  description:
    'A node of the asset tree: a category (is_asset false) or an actual asset (a leaf, is_asset true). Any signed-in caller reads it; changes need permission to edit equipment',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The id the calculator and Matrix take as asset_value' }),
    name: t.exposeString('name', {
      description: 'What the node is called; search matches it (sibling names may repeat)',
    }),
    alias: t.exposeString('alias', { nullable: true, description: 'Comma-separated alternative names' }),
    parent: t.string({
      nullable: true,
      description: "The parent's name (null at the top of the tree)",
      select: { parent: { select: { name: true } } },
      resolve: (asset) => asset.parent?.name ?? null,
    }),
    parent_id: t.exposeInt('parent_id', {
      nullable: true,
      description: "The parent node's id; null at the top of the tree",
    }),
    is_asset: t.exposeBoolean('is_asset', { description: 'true: an actual asset (a leaf); false: a category' }),
    is_deleted: t.exposeBoolean('is_deleted', {
      description: 'Deleted assets, and everything beneath them, are out of search and pricing; restoreAsset undoes it',
    }),
    asset_rate_brackets: t.relation('asset_rate_brackets', {
      type: AssetRateBracketRef,
      description:
        "Financiers' mappings of this node to products or rate brackets (a financier sees only its own; brokers see all)",
      query: (_args, ctx) => {
        const book = ctx.caller ? bookOf(ctx.caller) : new Set<number>();
        return {
          where: book === null ? {} : { organisation_id: { in: [...book] } },
          orderBy: { id: 'asc' as const },
        };
      },
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When the node was created' }),
    updated_at: t.expose('updated_at', { type: 'DateTime', description: 'When the node last changed' }),
    parent_asset: t.relation('parent', {
      nullable: true,
      description: 'The parent node itself (null at the top of the tree)',
    }),
    children: t.relatedConnection('children', {
      cursor: 'id',
      description: 'The nodes directly beneath this one, by id; deleted ones only with includeDeleted',
      args: { includeDeleted: t.arg.boolean({ description: 'Also list deleted children (default false)' }) },
      query: (args) => ({
        where: args.includeDeleted ? {} : { is_deleted: false },
        orderBy: { id: 'asc' as const },
      }),
    }),
    ancestors: t.prismaField({
      type: ['Asset'],
      description: `The categories above this node, root first (at most ${MAX_ASSET_DEPTH})`,
      resolve: (query, asset, _args, ctx) => ancestorsLoader(ctx, query as AssetQuery).load(asset.id),
    }),
  }),
});
