import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionConflictError } from './errors.ts';
import type { ProductFields } from './validate.ts';
import { ProductPatchInput, RateCardChangeRef } from './rate-card.types.ts';
import { updateProduct } from './service.ts';

builder.mutationField('updateProduct', (t) =>
  t.field({
    type: RateCardChangeRef,
    description:
      "Changes a product of the caller's organisation (absent fields kept, null clears); another organisation's answers NotFoundError",
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      id: t.arg.int({ required: true, description: "One of the caller's own products" }),
      input: t.arg({
        description: 'The fields to change: absent kept, null clears',
        type: ProductPatchInput,
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
      updateProduct(ctx, callerOf(ctx), args.id, args.input as ProductFields, args.expectedVersion),
  }),
);
