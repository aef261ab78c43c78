import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionConflictError } from './errors.ts';
import type { ProductFields } from './validate.ts';
import { ProductInput, RateCardChangeRef } from './rate-card.types.ts';
import { createProduct } from './service.ts';

builder.mutationField('createProduct', (t) =>
  t.field({
    type: RateCardChangeRef,
    description: "Adds a product to the caller's organisation's rate card (records a restore point)",
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      input: t.arg({ description: 'The new product', type: ProductInput, required: true }),
      expectedVersion: t.arg.int({
        description:
          'The card version the caller read (rateCard.version); a stale one answers RateCardVersionConflictError',
      }),
    },
    errors: {
      types: [ValidationError, NotFoundError, ForbiddenError, RateCardVersionConflictError],
      directResult: true,
    },
    resolve: (_root, args, ctx) => createProduct(ctx, callerOf(ctx), args.input as ProductFields, args.expectedVersion),
  }),
);
