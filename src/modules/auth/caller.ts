/**
 * Who is calling: resolved once per request from the bearer token, in one database query.
 * Both surfaces build their context through this, so every rule below applies to GraphQL and REST alike.
 */
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Config } from '../../lib/config.ts';
import { rawQuery, type Db } from '../../lib/db.ts';
import type { ApiTokenOrigin, ApiTokenScope, OrganisationType, PlanName } from '../../lib/vocabulary.ts';
import type { Authentication, Caller } from '../../lib/caller.ts';
import { effectiveTerms, type PlanOverrides } from '../../lib/plans.ts';
import { API_TOKEN_PREFIX, parseApiToken, sameDigest, sha256, verifyAccessToken } from './tokens.ts';

interface CallerRow {
  id: number;
  email: string;
  is_admin: boolean;
  is_active: boolean;
  organisation_id: number | null;
  org_name: string | null;
  org_type: OrganisationType | null;
  org_plan: PlanName | null;
  org_overrides: PlanOverrides | null;
  org_bid: boolean | null;
  permissions: string[] | null;
  catalogue_version: bigint;
}

interface SessionCallerRow extends CallerRow {
  session_revoked_at: Date | null;
  session_user_id: number | null;
  session_env: string | null;
}

interface ApiTokenCallerRow extends CallerRow {
  token_pk: number;
  token_hash: string | null;
  token_scope: ApiTokenScope | null;
  token_env: string | null;
  token_origin: ApiTokenOrigin | null;
  token_expires_at: Date | null;
  token_revoked_at: Date | null;
  token_last_used_at: Date | null;
}

// One statement per request: the user, their organisation, their permissions, the session or API token, and the
// catalogue version as the request starts (so a warm run needs no separate version read). Two texts, one per
// credential, each reaching the user through an index: one text serving both (`WHERE u.id = COALESCE($1,
// t.user_id)`) gets a generic plan that scans every user once PostgreSQL caches it: a cost that grows with users.
// Permissions are the user row's `permission_codenames`, which the database keeps equal to what the user's groups
// grant (triggers: migration *_user_permission_codenames_triggers), so no request joins three tables for them.
const CALLER_COLUMNS = `u.id, u.email, u.is_admin, u.is_active, u.organisation_id,
       o.name AS org_name, o.type::text AS org_type, o.plan::text AS org_plan, o.plan_overrides AS org_overrides, o.is_bid_broker AS org_bid,
       u.permission_codenames AS permissions,
       (SELECT version FROM catalogue_state WHERE id = 1) AS catalogue_version`;

/** An access token's caller: $1 the user id (the token's `sub`), $2 the session id (its `sid`). */
const SESSION_CALLER_SQL = `
SELECT ${CALLER_COLUMNS},
       s.revoked_at AS session_revoked_at, s.user_id AS session_user_id, s.environment::text AS session_env
  FROM users u
  LEFT JOIN organisations o ON o.id = u.organisation_id
  LEFT JOIN sessions s ON s.id = $2::text
 WHERE u.id = $1::int`;

/** An API token's caller: $1 the token id (the public part of the token). */
const API_TOKEN_CALLER_SQL = `
SELECT ${CALLER_COLUMNS},
       t.id AS token_pk, t.secret_hash AS token_hash, t.scope::text AS token_scope, t.environment::text AS token_env,
       t.origin::text AS token_origin, t.expires_at AS token_expires_at, t.revoked_at AS token_revoked_at,
       t.last_used_at AS token_last_used_at
  FROM api_tokens t
  JOIN users u ON u.id = t.user_id
  LEFT JOIN organisations o ON o.id = u.organisation_id
 WHERE t.token_id = $1::text`;

/** The two texts, for the test that keeps their plans on indexes (test/auth/caller-statement-plan.test.ts). */
export const CALLER_STATEMENTS = { session: SESSION_CALLER_SQL, apiToken: API_TOKEN_CALLER_SQL } as const;

function toCaller(row: CallerRow & Partial<ApiTokenCallerRow>, via: Caller['via'], sessionId: string | null): Caller {
  return {
    userId: row.id,
    email: row.email,
    isAdmin: row.is_admin,
    organisation:
      row.organisation_id === null
        ? null
        : {
            id: row.organisation_id,
            name: row.org_name!,
            type: row.org_type!,
            plan: row.org_plan!,
            is_bid_broker: row.org_bid!,
            terms: effectiveTerms(row.org_plan!, row.org_overrides),
          },
    permissions: new Set(row.permissions ?? []),
    via,
    scope: via === 'api_token' ? (row.token_scope ?? null) : null,
    origin: via === 'api_token' ? (row.token_origin ?? null) : null,
    sessionId,
    apiTokenId: via === 'api_token' ? (row.token_pk ?? null) : null,
    assistant: null,
  };
}

/**
 * A user id as we sign it: the canonical decimal of a positive int4 ("42"), nothing else. Number() would also read
 * "1e20", "01", "1.0" or " 42", and a value beyond int4 fails in PostgreSQL as a 500 instead of a 401.
 */
function userIdOf(sub: unknown): number | null {
  if (typeof sub !== 'string' || !/^[1-9][0-9]{0,9}$/.test(sub)) return null;
  const id = Number(sub);
  return id <= 2_147_483_647 ? id : null;
}

export async function authenticate(
  prisma: PrismaClient,
  config: Config,
  now: Date,
  authorization: string | undefined | null,
): Promise<Authentication> {
  if (!authorization) return { kind: 'anonymous' };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return { kind: 'invalid' };
  const token = match[1];

  if (token.startsWith(API_TOKEN_PREFIX)) {
    const parts = parseApiToken(token);
    if (!parts) return { kind: 'invalid' };
    const rows = await rawQuery<ApiTokenCallerRow>(prisma, API_TOKEN_CALLER_SQL, parts.tokenId);
    const row = rows[0];
    if (!row?.token_hash) return { kind: 'invalid' };
    if (!sameDigest(sha256(parts.secret), row.token_hash)) return { kind: 'invalid' };
    // A token works only in the environment that issued it, and never after expiry or revocation.
    if (row.token_env !== config.environment || row.token_revoked_at || !row.is_active) return { kind: 'invalid' };
    if (row.token_expires_at && row.token_expires_at.getTime() <= now.getTime()) return { kind: 'invalid' };
    if (!row.token_last_used_at || now.getTime() - row.token_last_used_at.getTime() > 60_000) {
      // Metadata only, at most once a minute per token, and never worth failing the request over.
      prisma.apiToken.update({ where: { id: row.token_pk }, data: { last_used_at: now } }).catch(() => {});
    }
    return { kind: 'caller', caller: toCaller(row, 'api_token', null), catalogueVersion: row.catalogue_version };
  }

  const claims = verifyAccessToken(config.jwtSecret, token, now);
  const userId = claims ? userIdOf(claims.sub) : null;
  // Session ids are 32 hex digits; anything else (a NUL byte included) cannot name a session and never reaches SQL.
  if (!claims || userId === null || !/^[0-9a-f]{32}$/.test(claims.sid)) return { kind: 'invalid' };
  const rows = await rawQuery<SessionCallerRow>(prisma, SESSION_CALLER_SQL, userId, claims.sid);
  const row = rows[0];
  // Logout revokes the session, which ends its access tokens at once; so does deactivating the user. Like an API
  // token, a session works only in the environment that signed it in.
  if (!row?.is_active || row.session_user_id !== userId || row.session_revoked_at) return { kind: 'invalid' };
  if (row.session_env !== config.environment) return { kind: 'invalid' };
  return { kind: 'caller', caller: toCaller(row, 'session', claims.sid), catalogueVersion: row.catalogue_version };
}

/** A user's caller by id alone (no session, no token): what system work done as the user sees. */
const USER_CALLER_SQL = `
SELECT ${CALLER_COLUMNS}
  FROM users u
  LEFT JOIN organisations o ON o.id = u.organisation_id
 WHERE u.id = ANY($1::int[])`;

/**
 * The callers of these users as their own requests would build them (plan, entitlements, permissions), for work the
 * system does on a user's behalf (re-pricing their saved scenarios). Deactivated and missing users are left out.
 */
export async function callersOfUsers(db: Db, userIds: readonly number[]): Promise<Map<number, Caller>> {
  const rows = await rawQuery<CallerRow>(db, USER_CALLER_SQL, [...userIds]);
  return new Map(rows.filter((row) => row.is_active).map((row) => [row.id, toCaller(row, 'session', null)]));
}
