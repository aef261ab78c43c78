import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ValidationError } from '../../lib/errors.ts';
import { ApiTokenOriginEnum, ApiTokenScopeEnum } from '../../graphql/enums.ts';
import { CreatedApiTokenRef } from './auth.types.ts';
import { createApiToken } from './service.ts';

builder.mutationField('createApiToken', (t) =>
  t.field({
    type: CreatedApiTokenRef,
    description: 'Mint an API token; the secret is in this answer only. Session only: a leaked token cannot mint more',
    authScopes: { session: true },
    args: {
      name: t.arg.string({ required: true, description: 'A name to recognise it by' }),
      scope: t.arg({ type: ApiTokenScopeEnum, required: true, description: 'What it may do' }),
      expiresAt: t.arg({
        type: 'DateTime',
        description: 'When it stops working, in the future and at most 365 days away; absent or null: 90 days from now',
      }),
      origin: t.arg({
        type: ApiTokenOriginEnum,
        description: 'ui (default): the app and integrations; mcp: an AI assistant, accepted only at POST /mcp',
      }),
    },
    errors: { types: [ValidationError], directResult: true },
    resolve: (_root, args, ctx) =>
      createApiToken(ctx, callerOf(ctx), {
        name: args.name,
        scope: args.scope,
        expires_at: args.expiresAt,
        origin: args.origin,
      }),
  }),
);
