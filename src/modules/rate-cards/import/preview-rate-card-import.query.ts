import { builder } from '../../../graphql/builder.ts';
import { callerOf } from '../../../graphql/context.ts';
import { ForbiddenError, ValidationError } from '../../../lib/errors.ts';
import { RateCardImportFormatEnum, RateCardImportPreviewRef } from './import.types.ts';
import { previewRateCardImport } from './service.ts';

builder.queryField('previewRateCardImport', (t) =>
  t.field({
    type: RateCardImportPreviewRef,
    description:
      "What importing a rate-card file over the caller's financier's card would change, with warnings; writes nothing (POST /rate-cards/import/preview). A bad file answers ValidationError listing every problem by location",
    authScopes: { $all: { write: true, permission: 'change_rate_card', organisationType: 'f' } },
    args: {
      format: t.arg({ type: RateCardImportFormatEnum, required: true, description: 'How content is written' }),
      content: t.arg.string({ required: true, description: 'The whole file, as text' }),
    },
    errors: { types: [ValidationError, ForbiddenError], directResult: true },
    resolve: (_root, args, ctx) => previewRateCardImport(ctx, callerOf(ctx), args.format, args.content),
  }),
);
