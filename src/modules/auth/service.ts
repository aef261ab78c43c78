/**
 * Sign-in, the refresh-token lifecycle (spec "Refresh token lifecycle") and API tokens.
 * Every write that must be exact under concurrency is one atomic statement in PostgreSQL: the refresh claim is
 * `UPDATE ... WHERE spent_at IS NULL`, the rate limit an upsert; nothing is decided on a value read earlier.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../lib/config.ts';
import type { ApiTokenOrigin, ApiTokenScope } from '../../lib/vocabulary.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { RateLimitedError, UnauthenticatedError, ValidationError, NotFoundError } from '../../lib/errors.ts';
import { say, type ClientKind } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import { queueAccountEvent } from '../notifications/index.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.ts';
import { beginSignIn, signInSucceeded } from './sign-in-throttle.ts';
import {
  formatRefreshToken,
  newApiTokenSecret,
  newRefreshToken,
  parseRefreshToken,
  sameDigest,
  sha256,
  signAccessToken,
  successorOf,
  type RefreshTokenParts,
} from './tokens.ts';

export interface AuthDeps {
  prisma: PrismaClient;
  config: Config;
  clock: Clock;
}
export interface TokenPair {
  access: string;
  refresh: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const isEmail = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= 254 && EMAIL.test(value);

function refreshExpiry(deps: AuthDeps, now: Date, signedInAt: Date): Date {
  const idle = now.getTime() + deps.config.refreshIdleTimeoutSeconds * 1000;
  const cap = signedInAt.getTime() + deps.config.refreshHardCapSeconds * 1000;
  return new Date(Math.min(idle, cap));
}

/** An access token never outlives the refresh token it came with. */
function accessFor(deps: AuthDeps, userId: number, sessionId: string, now: Date, refreshExpiresAt: Date): string {
  const exp = new Date(Math.min(now.getTime() + deps.config.accessTokenTtlSeconds * 1000, refreshExpiresAt.getTime()));
  return signAccessToken(deps.config.jwtSecret, { sub: String(userId), sid: sessionId }, now, exp);
}

/**
 * Wrong password, unknown email and inactive user answer the same, in the same time, and count alike against the
 * sign-in throttle (per email and per client address). During a lockout every attempt is refused, a right
 * password too, before any password is checked.
 */
export async function login(
  deps: AuthDeps,
  email: string,
  password: string,
  clientAddress: string | null,
): Promise<TokenPair> {
  const normalised = email.trim().toLowerCase();
  const attempt = await beginSignIn(deps.prisma, normalised, clientAddress, deps.clock.now());
  const user = await deps.prisma.user.findUnique({ where: { email: normalised } });
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok || !user.is_active)
    throw new UnauthenticatedError('Unable to sign in with the email and password provided.');
  await signInSucceeded(deps.prisma, attempt);
  const now = deps.clock.now();
  const sessionId = randomBytes(16).toString('hex');
  const token = newRefreshToken();
  const expiresAt = refreshExpiry(deps, now, now);
  await deps.prisma.session.create({
    data: {
      id: sessionId,
      user_id: user.id,
      signed_in_at: now,
      environment: deps.config.environment,
      refresh_tokens: {
        create: { id: token.id, secret_hash: sha256(token.secret), issued_at: now, expires_at: expiresAt },
      },
    },
  });
  return { access: accessFor(deps, user.id, sessionId, now, expiresAt), refresh: formatRefreshToken(token) };
}

interface RefreshRow {
  id: string;
  secret_hash: string;
  expires_at: Date;
  spent_at: Date | null;
  successor_id: string | null;
  session_id: string;
  signed_in_at: Date;
  session_revoked_at: Date | null;
  session_env: string;
  user_id: number;
  is_active: boolean;
  successor_spent_at: Date | null;
  successor_expires_at: Date | null;
}

async function readRefresh(prisma: PrismaClient, id: string): Promise<RefreshRow | undefined> {
  const rows = await prisma.$queryRawUnsafe<RefreshRow[]>(
    `
    SELECT r.id, r.secret_hash, r.expires_at, r.spent_at, r.successor_id, r.session_id,
           s.signed_in_at, s.revoked_at AS session_revoked_at, s.environment::text AS session_env,
           s.user_id, u.is_active,
           n.spent_at AS successor_spent_at, n.expires_at AS successor_expires_at
      FROM refresh_tokens r
      JOIN sessions s ON s.id = r.session_id
      JOIN users u ON u.id = s.user_id
      LEFT JOIN refresh_tokens n ON n.id = r.successor_id
     WHERE r.id = $1::text`,
    id,
  );
  return rows[0];
}

/** Per-user refresh budget, counted in the database so it holds across processes. */
async function countRefresh(deps: AuthDeps, userId: number, now: Date): Promise<void> {
  const windowStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const rows = await deps.prisma.$queryRawUnsafe<{ count: number }[]>(
    `
    INSERT INTO rate_counters (key, window_start, count) VALUES ($1, $2, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1
    RETURNING count`,
    `refresh:${userId}`,
    windowStart,
  );
  if (rows[0].count > deps.config.refreshRateLimitPerMinute) {
    throw new RateLimitedError(Math.ceil((windowStart.getTime() + 60_000 - now.getTime()) / 1000));
  }
}

/**
 * The sign-in behind a refresh token still counts: not logged out, its user active, and signed in to this
 * SERVICE_ENVIRONMENT (a `local` session is refused by a `qa` process sharing the database and JWT_SECRET).
 */
const usable = (deps: AuthDeps, row: RefreshRow): boolean =>
  !row.session_revoked_at && row.is_active && row.session_env === deps.config.environment;

export async function refresh(deps: AuthDeps, presented: unknown): Promise<TokenPair> {
  const refused = () => new UnauthenticatedError('The refresh token is invalid or has expired. Please sign in again.');
  const parts = parseRefreshToken(presented);
  if (!parts) throw refused();
  const row = await readRefresh(deps.prisma, parts.id);
  if (!row || !sameDigest(sha256(parts.secret), row.secret_hash)) throw refused();
  const now = deps.clock.now();
  await countRefresh(deps, row.user_id, now);
  if (!usable(deps, row)) throw refused();

  if (row.spent_at === null) {
    if (row.expires_at.getTime() <= now.getTime()) throw refused();
    const successor = successorOf(deps.config.jwtSecret, parts);
    const expiresAt = refreshExpiry(deps, now, row.signed_in_at);
    // The claim and the successor commit together: whoever sees the token spent can also see its successor.
    const won = await deps.prisma.$transaction(async (tx) => {
      const claimed = await tx.$executeRawUnsafe(
        `UPDATE refresh_tokens SET spent_at = $2, successor_id = $3 WHERE id = $1 AND spent_at IS NULL`,
        parts.id,
        now,
        successor.id,
      );
      if (claimed !== 1) return false;
      await tx.refreshToken.create({
        data: {
          id: successor.id,
          session_id: row.session_id,
          parent_id: parts.id,
          secret_hash: sha256(successor.secret),
          issued_at: now,
          expires_at: expiresAt,
        },
      });
      return true;
    });
    if (won)
      return {
        access: accessFor(deps, row.user_id, row.session_id, now, expiresAt),
        refresh: formatRefreshToken(successor),
      };
    // Lost a race to a concurrent refresh of the same token: answer like a replay inside the grace window.
    const after = await readRefresh(deps.prisma, parts.id);
    if (!after) throw refused();
    return replay(deps, parts, after, now, refused);
  }
  return replay(deps, parts, row, now, refused);
}

/** A spent token inside the grace window gets its successor back, once more; only the immediate parent has grace. */
function replay(deps: AuthDeps, parts: RefreshTokenParts, row: RefreshRow, now: Date, refused: () => Error): TokenPair {
  if (!usable(deps, row) || row.spent_at === null || !row.successor_id) throw refused();
  // A concurrent refresh on another process may have stamped spent_at a moment after this request read its clock:
  // a negative age is that race (or clock skew between processes), not a forgery, so it counts as inside the window.
  const age = now.getTime() - row.spent_at.getTime();
  if (age >= deps.config.refreshGraceSeconds * 1000) throw refused();
  // The successor has itself been refreshed: this token is a grandparent now, and gets no grace.
  if (row.successor_spent_at !== null || !row.successor_expires_at) throw refused();
  if (row.successor_expires_at.getTime() <= now.getTime()) throw refused();
  const successor = successorOf(deps.config.jwtSecret, parts);
  return {
    access: accessFor(deps, row.user_id, row.session_id, now, row.successor_expires_at),
    refresh: formatRefreshToken(successor),
  };
}

/** Logout revokes the whole sign-in: every refresh token of the chain and every access token of the session. */
export async function logout(deps: AuthDeps, presented: unknown): Promise<void> {
  const parts = parseRefreshToken(presented);
  if (!parts) return;
  const row = await deps.prisma.refreshToken.findUnique({ where: { id: parts.id } });
  if (!row || !sameDigest(sha256(parts.secret), row.secret_hash)) return;
  await deps.prisma.session.updateMany({
    where: { id: row.session_id, revoked_at: null },
    data: { revoked_at: deps.clock.now() },
  });
}

/**
 * Same answer for every well-formed address. The lookup always runs, so a known and an unknown address cost the
 * same; sending mail is outside this service (no mail transport is configured), so nothing else differs either.
 */
export async function resendVerification(deps: AuthDeps, email: unknown): Promise<void> {
  if (!isEmail(email)) throw ValidationError.of('email', 'Enter a valid email address.');
  await deps.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
}

export async function forgotPassword(deps: AuthDeps, email: unknown): Promise<void> {
  if (typeof email !== 'string' || email.length === 0) throw ValidationError.of('email', 'This field is required.');
  await deps.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
}

// ---------- API tokens ----------

/**
 * Every API token expires (docs/auth.md): a token left in a script or an integration's settings should not work
 * forever. Without `expires_at` it lasts the default; its creator may choose any instant up to the maximum.
 */
export const API_TOKEN_DEFAULT_LIFETIME_DAYS = 90;
export const API_TOKEN_MAX_LIFETIME_DAYS = 365;
const DAY_MS = 86_400_000;

export interface CreateApiTokenInput {
  name: string;
  scope: ApiTokenScope;
  /** Absent or null: API_TOKEN_DEFAULT_LIFETIME_DAYS from now; never beyond API_TOKEN_MAX_LIFETIME_DAYS. */
  expires_at?: Date | null;
  /** `mcp` mints a token for an AI assistant: accepted only at POST /mcp, and nowhere else (docs/mcp.md). */
  origin?: ApiTokenOrigin | null;
}

const API_TOKEN_METADATA = {
  id: true,
  name: true,
  token_id: true,
  last_four: true,
  scope: true,
  environment: true,
  origin: true,
  created_at: true,
  expires_at: true,
  last_used_at: true,
  revoked_at: true,
} as const;

export type ApiTokenMetadata = Awaited<ReturnType<typeof listApiTokens>>[number];

/**
 * The most live API tokens (neither revoked nor expired) one user holds. Ended tokens do not count, so revoking one
 * always frees a slot; they stay stored as the record of what could act for the user (connections and the audit
 * trail refer to them), and the most recent `API_TOKENS_ENDED_LISTED` of them are listed beside the live ones.
 */
export const API_TOKENS_MAX = 100;
export const API_TOKENS_ENDED_LISTED = 100;
/** What `apiTokens` and `GET /api-tokens` can list at most: every live token and the most recent ended ones. */
export const API_TOKENS_LISTED_MAX = API_TOKENS_MAX + API_TOKENS_ENDED_LISTED;

function liveTokens(now: Date) {
  return { revoked_at: null, expires_at: { gt: now } };
}

export async function createApiToken(deps: AuthDeps, caller: Caller, input: CreateApiTokenInput) {
  const name = input.name?.trim() ?? '';
  if (!name) throw ValidationError.of('name', 'This field is required.');
  if (name.length > 100) throw ValidationError.of('name', 'Ensure this field has no more than 100 characters.');
  const now = deps.clock.now();
  if (input.expires_at && input.expires_at.getTime() <= now.getTime())
    throw ValidationError.of('expires_at', 'Must be in the future.');
  if (input.expires_at && input.expires_at.getTime() > now.getTime() + API_TOKEN_MAX_LIFETIME_DAYS * DAY_MS)
    throw ValidationError.of('expires_at', `Must be at most ${API_TOKEN_MAX_LIFETIME_DAYS} days from now.`);
  const expiresAt = input.expires_at ?? new Date(now.getTime() + API_TOKEN_DEFAULT_LIFETIME_DAYS * DAY_MS);
  const secret = newApiTokenSecret();
  const token = await deps.prisma.$transaction(async (tx) => {
    // Serialises this user's creates, so concurrent ones cannot both take the last slot. NO KEY UPDATE: it does not
    // block the FOR KEY SHARE locks that rows referencing the user (a token, a scenario) take.
    await tx.$queryRawUnsafe('SELECT id FROM users WHERE id = $1::int FOR NO KEY UPDATE', caller.userId);
    const held = await tx.apiToken.count({ where: { user_id: caller.userId, ...liveTokens(now) } });
    if (held >= API_TOKENS_MAX)
      throw ValidationError.of(
        'name',
        `You hold ${API_TOKENS_MAX} live API tokens, the most one user may: revoke one you no longer use.`,
      );
    const created = await tx.apiToken.create({
      data: {
        user_id: caller.userId,
        name,
        token_id: secret.tokenId,
        secret_hash: sha256(secret.secret),
        last_four: secret.token.slice(-4),
        scope: input.scope,
        environment: deps.config.environment,
        origin: input.origin ?? 'ui',
        created_at: now,
        expires_at: expiresAt,
      },
      select: API_TOKEN_METADATA,
    });
    await queueAccountEvent(tx, caller.organisation?.id ?? null, caller.userId, {
      title: 'API token created',
      body: `An API token named "${name}" was created for ${caller.email}.`,
      data: { kind: 'api_token_created', user_id: caller.userId, token_id: created.token_id },
    });
    return created;
  });
  return { token, secret: secret.token };
}

/** Every live token and the most recent ended ones, oldest first. */
export async function listApiTokens(deps: AuthDeps, caller: Caller) {
  const now = deps.clock.now();
  const [live, ended] = await Promise.all([
    deps.prisma.apiToken.findMany({
      where: { user_id: caller.userId, ...liveTokens(now) },
      select: API_TOKEN_METADATA,
      orderBy: { id: 'asc' },
      take: API_TOKENS_MAX,
    }),
    deps.prisma.apiToken.findMany({
      where: { user_id: caller.userId, NOT: liveTokens(now) },
      select: API_TOKEN_METADATA,
      orderBy: { id: 'desc' },
      take: API_TOKENS_ENDED_LISTED,
    }),
  ]);
  return [...live, ...ended].sort((a, b) => a.id - b.id);
}

/** Idempotent: revoking twice keeps the first revocation time. Another user's token answers 404. */
export async function revokeApiToken(deps: AuthDeps & { client: ClientKind }, caller: Caller, id: number) {
  const token = await deps.prisma.apiToken.findFirst({ where: { id, user_id: caller.userId }, select: { id: true } });
  if (!token) throw new NotFoundError(say('not_found_api_token', deps.client));
  return deps.prisma.$transaction(async (tx) => {
    const revoked = await tx.apiToken.updateMany({
      where: { id, revoked_at: null },
      data: { revoked_at: deps.clock.now() },
    });
    const after = await tx.apiToken.findUniqueOrThrow({ where: { id }, select: API_TOKEN_METADATA });
    // Only the call that revoked it tells anyone; a repeated revoke changes nothing and queues nothing.
    if (revoked.count === 1)
      await queueAccountEvent(tx, caller.organisation?.id ?? null, caller.userId, {
        title: 'API token revoked',
        body: `The API token named "${after.name}" of ${caller.email} was revoked.`,
        data: { kind: 'api_token_revoked', user_id: caller.userId, token_id: after.token_id },
      });
    return after;
  });
}
