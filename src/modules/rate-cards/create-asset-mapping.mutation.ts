import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionConflictError } from './errors.ts';
import { AssetMappingInput, RateCardChangeRef } from './rate-card.types.ts';
import { createAssetMapping } from './service.ts';

builder.mutationField('createAssetMapping', (t) =>
  t.field({
    type: RateCardChangeRef,
    description: 'Maps an asset to a product or one of its brackets (an asset_mapping restore point)',
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      input: t.arg({ description: 'The mapping to add', type: AssetMappingInput, required: true }),
      expectedVersion: t.arg.int({
        description:
          'The card version the caller read (rateCard.version); a stale one answers RateCardVersionConflictError',
      }),
    },
    errors: {
      types: [ValidationError, NotFoundError, ForbiddenError, RateCardVersionConflictError],
      directResult: true,
    },
    resolve: (_root, args, ctx) => createAssetMapping(ctx, callerOf(ctx), args.input, args.expectedVersion),
  }),
);
