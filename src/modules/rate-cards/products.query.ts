import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { readableCardOrganisation } from './service.ts';

builder.queryField('products', (t) =>
  t.prismaConnection({
    type: 'Product',
    cursor: 'id',
    description:
      "A financier's products (default: the caller's own), oldest first. Brokers read every financier's; a financier only its own (another's answers NotFoundError)",
    authScopes: { signedIn: true },
    args: { organisationId: t.arg.int({ description: "The financier (default: the caller's own organisation)" }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (query, _root, args, ctx) => {
      const organisationId = await readableCardOrganisation(ctx, callerOf(ctx), args.organisationId);
      return ctx.prisma.product.findMany({
        ...query,
        where: { organisation_id: organisationId },
        orderBy: { id: 'asc' },
      });
    },
  }),
);
