import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { McpConnectionRef } from './mcp.types.ts';
import { revokeConnection } from './service.ts';

builder.mutationField('revokeMcpConnection', (t) =>
  t.field({
    type: McpConnectionRef,
    description:
      "Disconnect one of the caller's AI assistants: revokes its token, so its next call is refused. Idempotent (the " +
      "first revocation time is kept). Session only; another user's connection is not found",
    authScopes: { session: true },
    args: { id: t.arg.int({ required: true, description: "The connection's id" }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_root, args, ctx) => revokeConnection(ctx, callerOf(ctx), args.id),
  }),
);
