import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { SubscriptionEnvelopeRef } from './billing.types.ts';

/** Abandoned checkouts are not subscriptions: a Free organisation reads null. */
const ABANDONED = ['incomplete', 'incomplete_expired'] as const;

builder.queryField('subscription', (t) =>
  t.field({
    type: SubscriptionEnvelopeRef,
    description: "The caller's organisation's subscription, or null",
    authScopes: { signedIn: true },
    errors: { directResult: true },
    resolve: async (_root, _args, ctx) => {
      const organisationId = callerOf(ctx).organisation?.id;
      if (!organisationId) return { subscription: null };
      const subscription = await ctx.prisma.subscription.findFirst({
        where: { organisation_id: organisationId, status: { notIn: [...ABANDONED] } },
      });
      return { subscription };
    },
  }),
);
