import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { McpConnectionRef } from './mcp.types.ts';

builder.queryField('mcpConnections', (t) =>
  t.prismaConnection({
    type: McpConnectionRef,
    cursor: 'id',
    description: "The caller's AI-assistant connections, newest first (capped pages)",
    authScopes: { signedIn: true },
    errors: { dataField: { description: 'The page of connections' } },
    resolve: (query, _root, _args, ctx) =>
      ctx.prisma.mcpConnection.findMany({
        ...query,
        where: { user_id: callerOf(ctx).userId },
        orderBy: { id: 'desc' },
      }),
  }),
);
