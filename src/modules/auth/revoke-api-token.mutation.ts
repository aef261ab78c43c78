import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { ApiTokenRef } from './auth.types.ts';
import { revokeApiToken } from './service.ts';

builder.mutationField('revokeApiToken', (t) =>
  t.field({
    type: ApiTokenRef,
    description: "Revoke one of the caller's API tokens (idempotent)",
    authScopes: { write: true },
    args: { id: t.arg.int({ required: true, description: "The token's id" }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_root, args, ctx) => revokeApiToken(ctx, callerOf(ctx), args.id),
  }),
);
