/**
 * Who is calling, as every floor sees it: the kit's request context, the authorization rules (policy.ts), the
 * modules and the surfaces. The auth module resolves it from the bearer token (modules/auth/caller.ts).
 */
import type { ApiTokenOrigin, ApiTokenScope, OrganisationType, PlanName } from './vocabulary.ts';
import { PLAN_TERMS, type PlanTerms } from './plans.ts';

export interface CallerOrganisation {
  id: number;
  name: string;
  type: OrganisationType;
  plan: PlanName;
  is_bid_broker: boolean;
  terms: PlanTerms;
}

export interface Caller {
  userId: number;
  email: string;
  isAdmin: boolean;
  organisation: CallerOrganisation | null;
  permissions: ReadonlySet<string>;
  via: 'session' | 'api_token';
  /** API tokens only: `read` allows reads and the five computation endpoints; `read_write` also mutations. */
  scope: ApiTokenScope | null;
  origin: ApiTokenOrigin | null;
  sessionId: string | null;
  apiTokenId: number | null;
  /**
   * Set only by the AI-assistant endpoint (POST /mcp) for an `mcp` token: the connection the call came through.
   * Policy accepts an `mcp` token only when this is set; a change may record it (version origin and connection).
   * Optional so callers built by hand (tests) need not name it.
   */
  assistant?: { connectionId: number; clientName: string } | null;
}

/** Outcome of reading the Authorization header: no header, a usable caller, or credentials that do not work. */
export type Authentication =
  | { kind: 'anonymous' }
  | { kind: 'caller'; caller: Caller; catalogueVersion: bigint }
  | { kind: 'invalid' };

/** The plan terms the caller's organisation works under; a caller without one has the free plan's. */
export function termsOf(caller: Caller): PlanTerms {
  return caller.organisation?.terms ?? PLAN_TERMS.free;
}
