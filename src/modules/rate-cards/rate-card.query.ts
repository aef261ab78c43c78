import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { RateCardRef } from './rate-card.types.ts';
import { readableCardOrganisation } from './service.ts';
import { cardVersionOf } from './versions.ts';

builder.queryField('rateCard', (t) =>
  t.field({
    type: RateCardRef,
    description:
      "A financier's rate card (default: the caller's own) with its version. Brokers read every financier's; a financier only its own",
    authScopes: { signedIn: true },
    args: { organisationId: t.arg.int({ description: "The financier (default: the caller's own organisation)" }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (_root, args, ctx) => {
      const organisationId = await readableCardOrganisation(ctx, callerOf(ctx), args.organisationId);
      const where = { organisation_id: organisationId };
      const [products, rate_brackets, version] = await Promise.all([
        ctx.prisma.product.findMany({ where, orderBy: { id: 'asc' } }),
        ctx.prisma.rateBracket.findMany({ where, orderBy: { id: 'asc' } }),
        cardVersionOf(ctx.prisma, organisationId),
      ]);
      return { organisation_id: organisationId, version, products, rate_brackets };
    },
  }),
);
