import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { RateCardVersionRef } from './rate-card.types.ts';
import { pinRateCardVersion } from './service.ts';

builder.mutationField('pinRateCardVersion', (t) =>
  t.prismaField({
    type: RateCardVersionRef,
    description: 'Pins (or unpins) a restore point: pinned ones are kept beyond retention',
    authScopes: { $all: { write: true, permission: 'restore_rate_card_version' } },
    args: {
      id: t.arg.int({ required: true, description: "A restore point of the caller's organisation" }),
      pinned: t.arg.boolean({
        required: true,
        description: 'true: keep it beyond retention; false: prune it normally',
      }),
    },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_query, _root, args, ctx) => pinRateCardVersion(ctx, callerOf(ctx), args.id, args.pinned),
  }),
);
