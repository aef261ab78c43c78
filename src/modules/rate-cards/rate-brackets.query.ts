import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { readableCardOrganisation } from './service.ts';

builder.queryField('rateBrackets', (t) =>
  t.prismaConnection({
    type: 'RateBracket',
    cursor: 'id',
    description:
      "A financier's rate brackets (default: the caller's own), of one product when given, oldest first. Readable like products",
    authScopes: { signedIn: true },
    args: {
      organisationId: t.arg.int({ description: "The financier (default: the caller's own organisation)" }),
      productId: t.arg.int({ description: 'Only the brackets of this product' }),
    },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (query, _root, args, ctx) => {
      const organisationId = await readableCardOrganisation(ctx, callerOf(ctx), args.organisationId);
      return ctx.prisma.rateBracket.findMany({
        ...query,
        where: { organisation_id: organisationId, ...(args.productId != null ? { product_id: args.productId } : {}) },
        orderBy: { id: 'asc' },
      });
    },
  }),
);
