import { builder } from '../../../graphql/builder.ts';
import { callerOf } from '../../../graphql/context.ts';
import { ForbiddenError, ValidationError } from '../../../lib/errors.ts';
import { RateCardVersionConflictError } from '../index.ts';
import { applyRateCardImport } from './apply.ts';
import { RateCardImportFormatEnum, RateCardImportResultRef } from './import.types.ts';

builder.mutationField('applyRateCardImport', (t) =>
  t.field({
    type: RateCardImportResultRef,
    description:
      "Replace the caller's financier's whole rate card with a file's, all or nothing, recorded as a version \"Imported from file\" (POST /rate-cards/import)",
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      format: t.arg({ type: RateCardImportFormatEnum, required: true, description: 'How content is written' }),
      content: t.arg.string({ required: true, description: 'The whole file, as text' }),
      expectedVersion: t.arg.int({
        required: true,
        description: "The preview's expected_version; a card changed since answers RateCardVersionConflictError",
      }),
    },
    errors: { types: [ValidationError, ForbiddenError, RateCardVersionConflictError], directResult: true },
    resolve: (_root, args, ctx) =>
      applyRateCardImport(ctx, callerOf(ctx), args.format, args.content, args.expectedVersion),
  }),
);
