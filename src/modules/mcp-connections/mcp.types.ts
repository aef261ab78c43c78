import { builder } from '../../graphql/builder.ts';
import { ApiTokenScopeEnum } from '../../graphql/enums.ts';

export const McpConnectionRef = builder.prismaObject('McpConnection', {
  description:
    "An AI assistant connected with one of the caller's mcp API tokens (one connection per token), named by the " +
    "assistant's MCP handshake",
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The connection's id (revokeMcpConnection takes it)" }),
    client_name: t.exposeString('client_name', {
      description: "The name the assistant gave in its handshake (clientInfo.name), cleaned; 'unknown' if none",
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'Its first handshake (or first call)' }),
    revoked_at: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it was disconnected (or its token revoked); the first time, never overwritten',
      select: { token: { select: { revoked_at: true } } },
      resolve: (c) => c.revoked_at ?? c.token.revoked_at,
    }),
    last_used_at: t.field({
      type: 'DateTime',
      nullable: true,
      description: "Its token's last use, to the minute",
      select: { token: { select: { last_used_at: true } } },
      resolve: (c) => c.token.last_used_at,
    }),
    scope: t.field({
      type: ApiTokenScopeEnum,
      description: "Its token's scope: read (search, compute, list) or read_write (also rate-card edits)",
      select: { token: { select: { scope: true } } },
      resolve: (c) => c.token.scope,
    }),
  }),
});
