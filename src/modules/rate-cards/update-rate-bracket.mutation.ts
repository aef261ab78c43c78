import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionConflictError } from './errors.ts';
import type { RateBracketFields } from './validate.ts';
import { RateBracketPatchInput, RateCardChangeRef } from './rate-card.types.ts';
import { updateRateBracket } from './service.ts';

builder.mutationField('updateRateBracket', (t) =>
  t.field({
    type: RateCardChangeRef,
    description:
      "Changes a rate bracket (absent fields kept, null clears); another organisation's answers NotFoundError",
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      id: t.arg.int({ required: true, description: "One of the caller's own rate brackets" }),
      input: t.arg({
        description: 'The fields to change: absent kept, null clears',
        type: RateBracketPatchInput,
        required: true,
      }),
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
      updateRateBracket(ctx, callerOf(ctx), args.id, args.input as RateBracketFields, args.expectedVersion),
  }),
);
