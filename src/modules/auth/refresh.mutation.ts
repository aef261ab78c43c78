import { builder } from '../../graphql/builder.ts';
import { RateLimitedError } from '../../lib/errors.ts';
import { TokenPairRef } from './auth.types.ts';
import { refresh } from './service.ts';

builder.mutationField('refresh', (t) =>
  t.field({
    type: TokenPairRef,
    description:
      'Spend a refresh token for a successor pair; repeats inside the 30-second grace window get the same successor',
    // Optional here on purpose: a missing token is one more unusable token, answered 401 like the rest.
    args: {
      refresh: t.arg.string({
        description: 'The refresh token to spend; a missing one answers UnauthenticatedError like any unusable token',
      }),
    },
    errors: { types: [RateLimitedError], directResult: true },
    resolve: (_root, args, ctx) => refresh(ctx, args.refresh),
  }),
);
