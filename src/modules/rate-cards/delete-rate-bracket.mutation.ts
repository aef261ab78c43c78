import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionConflictError } from './errors.ts';
import { RateCardChangeRef } from './rate-card.types.ts';
import { deleteRateBracket } from './service.ts';

builder.mutationField('deleteRateBracket', (t) =>
  t.field({
    type: RateCardChangeRef,
    description: 'Deletes a rate bracket and its asset mappings',
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      id: t.arg.int({ required: true, description: "One of the caller's own rate brackets" }),
      expectedVersion: t.arg.int({
        description:
          'The card version the caller read (rateCard.version); a stale one answers RateCardVersionConflictError',
      }),
    },
    errors: {
      types: [ValidationError, NotFoundError, ForbiddenError, RateCardVersionConflictError],
      directResult: true,
    },
    resolve: (_root, args, ctx) => deleteRateBracket(ctx, callerOf(ctx), args.id, args.expectedVersion),
  }),
);
