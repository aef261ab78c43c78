/**
 * `assets` (a page of one level of the tree: the roots, or the children of `parentId`) and `asset(id)`. Reads are
 * open to any signed-in caller, read API tokens included (spec Authentication 5).
 */
import { builder } from '../../graphql/builder.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import { AssetRef } from './asset.types.ts';

builder.queryField('assets', (t) =>
  t.prismaConnection({
    type: AssetRef,
    cursor: 'id',
    description:
      'One level of the asset tree, by id: the top-level nodes, or the children of parentId. Browse deeper with ' +
      '`children`; deleted nodes only with includeDeleted',
    authScopes: { signedIn: true },
    errors: { directResult: true },
    args: {
      parentId: t.arg.int({ description: 'List the children of this node (absent or null: the top of the tree)' }),
      includeDeleted: t.arg.boolean({ description: 'Also list deleted nodes (default false)' }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.asset.findMany({
        ...query,
        where: { parent_id: args.parentId ?? null, ...(args.includeDeleted ? {} : { is_deleted: false }) },
        orderBy: { id: 'asc' },
      }),
  }),
);

builder.queryField('asset', (t) =>
  t.prismaField({
    type: AssetRef,
    description: 'One node of the asset tree, deleted or not; any signed-in caller',
    authScopes: { signedIn: true },
    args: { id: t.arg.int({ required: true, description: 'The node id' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (query, _root, args, ctx) => {
      const asset = args.id >= 1 ? await ctx.prisma.asset.findUnique({ ...query, where: { id: args.id } }) : null;
      if (!asset) throw new NotFoundError(say('not_found_asset', ctx.client));
      return asset;
    },
  }),
);
