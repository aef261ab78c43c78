import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { RateCardVersionDiffRef } from './rate-card.types.ts';
import { rateCardVersionDiff } from './service.ts';

builder.queryField('rateCardVersionDiff', (t) =>
  t.field({
    type: RateCardVersionDiffRef,
    description:
      'What restoring a rate-card version would change, compared with the card today. A version of the asset-mapping series, of another organisation, or none: the same NotFoundError',
    authScopes: { $all: { signedIn: true, permission: 'view_rate_card_version' } },
    args: { id: t.arg.int({ required: true, description: "A rate-card restore point of the caller's organisation" }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_root, args, ctx) => rateCardVersionDiff(ctx, callerOf(ctx), args.id),
  }),
);
