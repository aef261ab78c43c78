/**
 * Token formats. Nothing here touches the database.
 * - Access: JWT, HS256 pinned (alg "none" and any other algorithm are refused), claims sub (user) and sid (session).
 * - Refresh: `rt_<id>.<secret>`; the database keeps sha256(secret). A successor's id and secret are HMACs of the
 *   parent's, so any process can hand the same successor back during the grace window without storing a secret.
 * - API token: `service_sk_<token_id>_<secret>`; token_id is public (safe to log), the database keeps sha256(secret).
 */
import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export interface AccessClaims {
  sub: string;
  sid: string;
}

/**
 * The signing key as a KeyObject, made once per secret. Given a string, jsonwebtoken first tries to read it as a PEM
 * public key on every call (a measurable cost per request: docs/performance.md); a KeyObject skips that.
 */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

export function signAccessToken(secret: string, claims: AccessClaims, issuedAt: Date, expiresAt: Date): string {
  return jwt.sign(
    {
      sid: claims.sid,
      typ: 'access',
      iat: Math.floor(issuedAt.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    },
    keyOf(secret),
    { algorithm: 'HS256', subject: claims.sub, noTimestamp: true },
  );
}

export function verifyAccessToken(secret: string, token: string, now: Date): AccessClaims | null {
  try {
    const payload = jwt.verify(token, keyOf(secret), {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(now.getTime() / 1000),
    });
    if (
      typeof payload !== 'object' ||
      payload.typ !== 'access' ||
      typeof payload.sub !== 'string' ||
      typeof payload.sid !== 'string'
    )
      return null;
    return { sub: payload.sub, sid: payload.sid };
  } catch {
    return null;
  }
}

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export interface RefreshTokenParts {
  id: string;
  secret: string;
}

export function newRefreshToken(): RefreshTokenParts {
  return { id: randomBytes(16).toString('hex'), secret: randomBytes(32).toString('base64url') };
}

export function formatRefreshToken(parts: RefreshTokenParts): string {
  return `rt_${parts.id}.${parts.secret}`;
}

export function parseRefreshToken(token: unknown): RefreshTokenParts | null {
  if (typeof token !== 'string') return null;
  const match = /^rt_([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { id: match[1], secret: match[2] } : null;
}

/** The one successor a refresh token can ever have, derived with the server key. */
export function successorOf(key: string, parent: RefreshTokenParts): RefreshTokenParts {
  const mac = (label: string) => createHmac('sha256', key).update(`${label}:${parent.id}:${parent.secret}`).digest();
  return {
    id: mac('refresh-successor-id').subarray(0, 16).toString('hex'),
    secret: mac('refresh-successor-secret').toString('base64url'),
  };
}

export const API_TOKEN_PREFIX = 'service_sk_';

export function newApiTokenSecret(): { tokenId: string; secret: string; token: string } {
  const tokenId = `tok_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;
  const secret = randomBytes(32).toString('base64url');
  return { tokenId, secret, token: `${API_TOKEN_PREFIX}${tokenId}_${secret}` };
}

export function parseApiToken(token: string): { tokenId: string; secret: string } | null {
  const match = /^service_sk_(tok_[A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { tokenId: match[1], secret: match[2] } : null;
}
