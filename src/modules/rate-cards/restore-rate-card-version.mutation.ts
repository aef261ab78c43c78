import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionConflictError } from './errors.ts';
import { RateCardChangeRef } from './rate-card.types.ts';
import { restoreRateCardVersion } from './service.ts';

builder.mutationField('restoreRateCardVersion', (t) =>
  t.field({
    type: RateCardChangeRef,
    description: 'Makes the card equal a restore point, recorded as a new restore point naming it',
    authScopes: { $all: { write: true, permission: 'restore_rate_card_version', organisationType: 'f' } },
    args: {
      id: t.arg.int({ required: true, description: "A restore point of the caller's organisation, either series" }),
      expectedVersion: t.arg.int({
        description:
          'The card version the caller read (rateCard.version); a stale one answers RateCardVersionConflictError',
      }),
    },
    errors: {
      types: [ValidationError, NotFoundError, ForbiddenError, RateCardVersionConflictError],
      directResult: true,
    },
    resolve: (_root, args, ctx) => restoreRateCardVersion(ctx, callerOf(ctx), args.id, args.expectedVersion),
  }),
);
