import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionConflictError } from './errors.ts';
import type { RateBracketFields } from './validate.ts';
import { RateBracketInput, RateCardChangeRef } from './rate-card.types.ts';
import { createRateBracket } from './service.ts';

builder.mutationField('createRateBracket', (t) =>
  t.field({
    type: RateCardChangeRef,
    description: "Adds a rate bracket to one of the caller's organisation's products",
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      input: t.arg({ description: 'The new rate bracket', type: RateBracketInput, required: true }),
      expectedVersion: t.arg.int({
        description:
          'The card version the caller read (rateCard.version); a stale one answers RateCardVersionConflictError',
      }),
    },
    errors: {
      types: [ValidationError, NotFoundError, ForbiddenError, RateCardVersionConflictError],
      directResult: true,
    },
    resolve: (_root, args, ctx) =>
      createRateBracket(ctx, callerOf(ctx), args.input as RateBracketFields, args.expectedVersion),
  }),
);
