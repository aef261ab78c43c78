import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { RateCardFollowingRef } from './rate-card.types.ts';
import { followRateCard, unfollowRateCard } from './service.ts';

builder.mutationField('followRateCard', (t) =>
  t.field({
    type: RateCardFollowingRef,
    description: "Be told (notification category rate_card) when this financier's rate card changes; idempotent",
    authScopes: { write: true },
    args: {
      organisationId: t.arg.int({
        required: true,
        description: 'The financier whose card to follow (one the caller may read)',
      }),
    },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (_root, args, ctx) => ({
      organisation_id: args.organisationId,
      following: await followRateCard(ctx, callerOf(ctx), args.organisationId),
    }),
  }),
);

builder.mutationField('unfollowRateCard', (t) =>
  t.field({
    type: RateCardFollowingRef,
    description: 'Stop following a rate card; idempotent',
    authScopes: { write: true },
    args: { organisationId: t.arg.int({ required: true, description: 'The financier whose card to stop following' }) },
    errors: { directResult: true },
    resolve: async (_root, args, ctx) => {
      await unfollowRateCard(ctx, callerOf(ctx), args.organisationId);
      return { organisation_id: args.organisationId, following: false };
    },
  }),
);
