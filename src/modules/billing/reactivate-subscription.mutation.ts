import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError, NotConfiguredError, UpstreamUnavailableError } from '../../lib/errors.ts';
import { SubscriptionRef } from './billing.types.ts';
import { NotScheduledToCancelError } from './errors.ts';
import { reactivateSubscription } from './service.ts';

builder.mutationField('reactivateSubscription', (t) =>
  t.prismaField({
    type: SubscriptionRef,
    description:
      "Undoes a scheduled cancellation of the organisation's subscription. Broker admins, session only " +
      '(Authentication 7). NotFoundError: nothing to reactivate (none, or it has ended: subscribe again through ' +
      'createCheckoutSession); NotScheduledToCancelError: it is not scheduled to cancel; UpstreamUnavailableError: ' +
      'the payment processor could not be reached (the subscription is unchanged).',
    authScopes: { $all: { session: true, admin: true, organisationType: 'b' } },
    errors: {
      types: [NotFoundError, NotScheduledToCancelError, UpstreamUnavailableError, NotConfiguredError],
      directResult: true,
    },
    resolve: (_query, _root, _args, ctx) => reactivateSubscription(ctx, callerOf(ctx)),
  }),
);
