import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError, ValidationError } from '../../lib/errors.ts';
import { RateCardVersionRef } from './rate-card.types.ts';
import { labelRateCardVersion } from './service.ts';

builder.mutationField('labelRateCardVersion', (t) =>
  t.prismaField({
    type: RateCardVersionRef,
    description: 'Names a restore point ("before the March review"); an empty label clears it',
    authScopes: { $all: { write: true, permission: 'restore_rate_card_version' } },
    args: {
      id: t.arg.int({ required: true, description: "A restore point of the caller's organisation" }),
      label: t.arg.string({ required: true, description: 'At most 200 characters, stored trimmed; empty clears it' }),
    },
    errors: { types: [NotFoundError, ValidationError], directResult: true },
    resolve: (_query, _root, args, ctx) => labelRateCardVersion(ctx, callerOf(ctx), args.id, args.label),
  }),
);
