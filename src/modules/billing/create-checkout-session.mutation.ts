import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotConfiguredError, UpstreamUnavailableError, ValidationError } from '../../lib/errors.ts';
import { PurchasablePlanEnum } from '../../graphql/enums.ts';
import { CheckoutSessionRef } from './billing.types.ts';
import { AlreadySubscribedError } from './errors.ts';
import { createCheckoutSession } from './service.ts';

builder.mutationField('createCheckoutSession', (t) =>
  t.field({
    type: CheckoutSessionRef,
    description:
      "Starts a checkout at the payment processor for the caller's organisation: the way (back) to a subscription. " +
      'Broker admins, session only. AlreadySubscribedError when the organisation has a subscription that has not ended.',
    authScopes: { $all: { session: true, admin: true, organisationType: 'b' } },
    args: {
      plan: t.arg({ type: PurchasablePlanEnum, required: true, description: 'The plan to buy' }),
      seats: t.arg.int({ description: "Seats to buy (default 1; at most the plan's user limit)" }),
    },
    errors: {
      types: [ValidationError, AlreadySubscribedError, UpstreamUnavailableError, NotConfiguredError],
      directResult: true,
    },
    resolve: (_root, args, ctx) => createCheckoutSession(ctx, callerOf(ctx), args),
  }),
);
