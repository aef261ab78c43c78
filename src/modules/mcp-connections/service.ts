/**
 * AI-assistant connections (spec "AI-assistant connection"): one per `mcp` API token (token_id is unique), recorded
 * by the assistant's MCP handshake and revoked by revoking its token. Every write that must hold under concurrency is
 * one statement: the handshake's upsert, and the revocation's `WHERE revoked_at IS NULL` (the first time is kept).
 */
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { say, type ClientKind } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import { queueAccountEvent } from '../notifications/index.ts';

export interface McpDeps {
  prisma: PrismaClient;
  clock: Clock;
}

/** The longest `client_name` kept (code points); a longer `clientInfo.name` is cut, never refused. */
export const CLIENT_NAME_MAX_LENGTH = 100;
/** What a connection is called when its assistant never said (a tool call before any handshake) or said nothing usable. */
const UNNAMED_CLIENT = 'unknown';

/**
 * `clientInfo.name` as we store and show it: control characters (C0, C1, DEL), unpaired surrogates (PostgreSQL cannot
 * store them), bidirectional overrides and zero-width characters (they disguise a name in a list) removed; runs of
 * whitespace collapsed; at most CLIENT_NAME_MAX_LENGTH code points, never a split pair.
 */
export function cleanClientName(name: unknown): string {
  if (typeof name !== 'string') return UNNAMED_CLIENT;
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const bounded = Array.from(cleaned).slice(0, CLIENT_NAME_MAX_LENGTH).join('').trim();
  return bounded || UNNAMED_CLIENT;
}

export interface ConnectionRecord {
  id: number;
  client_name: string;
  revoked_at: Date | null;
}

/**
 * The connection of the caller's `mcp` token. The handshake (`clientName` given) creates it or renames it, in one
 * statement, so two handshakes racing on one token leave one row. Any other call reads it, and creates it (unnamed)
 * only when the assistant skipped the handshake: every assistant that reaches a tool is listed and revocable.
 */
export async function recordConnection(
  deps: McpDeps,
  caller: Caller,
  clientName: string | null,
): Promise<ConnectionRecord> {
  const tokenId = caller.apiTokenId;
  if (tokenId === null) throw new Error('recordConnection() needs an API-token caller');
  if (clientName === null) {
    const found = await deps.prisma.mcpConnection.findUnique({
      where: { token_id: tokenId },
      select: { id: true, client_name: true, revoked_at: true },
    });
    if (found) return found;
  }
  const rows = await deps.prisma.$queryRawUnsafe<ConnectionRecord[]>(
    `INSERT INTO mcp_connections (user_id, client_name, token_id, created_at)
     VALUES ($1::int, $2::text, $3::int, $4)
     ON CONFLICT (token_id) DO UPDATE
        SET client_name = CASE WHEN $5::boolean THEN EXCLUDED.client_name ELSE mcp_connections.client_name END
     RETURNING id, client_name, revoked_at`,
    caller.userId,
    clientName ?? UNNAMED_CLIENT,
    tokenId,
    deps.clock.now(),
    clientName !== null,
  );
  return rows[0];
}

/** A connection with what it shows from its token (revocation, last use, scope). */
const WITH_TOKEN = { token: { select: { revoked_at: true, last_used_at: true, scope: true } } } as const;

/**
 * Revokes the connection's token (the assistant's next call is refused: its token no longer authenticates) and marks
 * the connection revoked, in one transaction. Idempotent: a second call changes nothing, and neither the token's nor
 * the connection's first revocation time is ever overwritten. Another user's connection is NotFound, like a missing one.
 *
 * The call that revokes the token queues the account event a token revocation queues (`api_token_revoked`, to the
 * same recipients), in the same transaction; a repeat, or a token already revoked by DELETE /api-tokens/{id} (which
 * queued its own), queues nothing.
 */
export async function revokeConnection(deps: McpDeps & { client: ClientKind }, caller: Caller, id: number) {
  const owned = await deps.prisma.mcpConnection.findFirst({
    where: { id, user_id: caller.userId },
    select: { id: true, token_id: true, client_name: true, token: { select: { name: true, token_id: true } } },
  });
  if (!owned) throw new NotFoundError(say('not_found_mcp_connection', deps.client));
  const now = deps.clock.now();
  await deps.prisma.$transaction(async (tx) => {
    const revoked = await tx.apiToken.updateMany({
      where: { id: owned.token_id, revoked_at: null },
      data: { revoked_at: now },
    });
    // A token revoked earlier (DELETE /api-tokens/{id}) lends the connection its time: the first revocation is the one kept.
    await tx.$executeRawUnsafe(
      `UPDATE mcp_connections c SET revoked_at = COALESCE(t.revoked_at, $2)
         FROM api_tokens t
        WHERE c.id = $1::int AND t.id = c.token_id AND c.revoked_at IS NULL`,
      owned.id,
      now,
    );
    if (revoked.count === 1)
      await queueAccountEvent(tx, caller.organisation?.id ?? null, caller.userId, {
        title: 'AI assistant disconnected',
        body: `The AI assistant "${owned.client_name}" of ${caller.email} was disconnected; its API token named "${owned.token.name}" was revoked.`,
        data: {
          kind: 'api_token_revoked',
          user_id: caller.userId,
          token_id: owned.token.token_id,
          connection_id: owned.id,
        },
      });
  });
  return deps.prisma.mcpConnection.findUniqueOrThrow({ where: { id: owned.id }, include: WITH_TOKEN });
}
