/**
 * Authorization rules, in one place (spec Authentication 5, 7, 10). GraphQL's scope-auth scopes call these, and the
 * REST bridge answers with whatever they decide, so the two surfaces cannot drift apart.
 */
import { ForbiddenError, UnauthenticatedError } from './errors.ts';
import { say, type ClientKind } from './wording.ts';
import type { Authentication, Caller } from './caller.ts';
import { isOperatorPermission, type PermissionCodename } from './permissions.ts';

/**
 * What an operation needs from the caller's credentials:
 * - `any`: any signed-in caller, including a `read` API token (every read, and the five computation endpoints).
 * - `write`: a session, or an API token with `read_write` (changes data another request reads back).
 * - `session`: a session only; every API token is refused (reports, notification settings, devices, MCP
 *   disconnect, billing reactivate).
 */
export type Access = 'any' | 'write' | 'session';

/** Why the caller's credentials do not allow `access`, worded for the client (X-Service-Client), or null. */
export function accessFailure(
  auth: Authentication,
  access: Access,
  client: ClientKind = 'web',
): UnauthenticatedError | ForbiddenError | null {
  if (auth.kind !== 'caller') return new UnauthenticatedError();
  const caller = auth.caller;
  if (access === 'session' && caller.via !== 'session')
    return new ForbiddenError(say('forbidden_session_only', client));
  if (access === 'write' && caller.via === 'api_token' && caller.scope !== 'read_write') {
    return new ForbiddenError(say('forbidden_read_scope', client));
  }
  // An MCP token is accepted only at POST /mcp (which sets `assistant` on the caller it builds).
  if (caller.via === 'api_token' && caller.origin === 'mcp' && !caller.assistant)
    return new ForbiddenError(say('forbidden_mcp_token', client));
  return null;
}

/**
 * Held through a group, or by being an organisation admin: admins hold every permission within their organisation
 * except the operator's (`change_equipment`), which only a group the operator put the user in grants.
 */
export function hasPermission(caller: Caller, codename: PermissionCodename): boolean {
  return caller.permissions.has(codename) || (caller.isAdmin && !isOperatorPermission(codename));
}

/** A caller reaches an organisation's private objects only when it is their own. */
export function ownsOrganisation(caller: Caller, organisationId: number | null | undefined): boolean {
  return organisationId !== null && organisationId !== undefined && caller.organisation?.id === organisationId;
}

/**
 * The financiers whose cards and approvals a caller sees: a broker sees every financier; a financier (lender) only
 * its own organisation. null = every financier.
 */
export function bookOf(caller: Caller): Set<number> | null {
  return caller.organisation?.type === 'f' ? new Set([caller.organisation.id]) : null;
}

/** The financiers a run may look at: the caller's book, narrowed by the deal's preferred financiers. null = all. */
export function financiersInScope(caller: Caller, preferredFinanciers: readonly number[] | null): Set<number> | null {
  const book = bookOf(caller);
  const preferred = preferredFinanciers?.length ? new Set(preferredFinanciers) : null;
  if (!book) return preferred;
  if (!preferred) return book;
  return new Set([...book].filter((id) => preferred.has(id)));
}
