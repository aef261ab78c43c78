/**
 * A REST endpoint is a table entry: its method and path, the GraphQL operation it runs in-process, how the request
 * maps to variables, and how the typed result maps to the spec's status and body. No business logic lives here.
 */
import type { Request } from 'express';
import type { Context } from '../graphql/context.ts';

type Status = 200 | 201 | 204 | 400 | 401 | 403 | 404 | 409 | 429 | 500 | 502 | 503;
export type RestReply =
  | [status: Status, body?: unknown]
  | [status: Status, body: unknown, headers: Record<string, string>];

/** The typed result of the operation's single root field, with `__typename` always selected. */
export type Result = { __typename: string; [field: string]: any };

export interface RouteDefinition {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express path below /api/v1. */
  path: string;
  /** One operation with exactly one root field; may spread the named fragments of fragments.ts (appended by the bridge). */
  document: string;
  variables?: (req: Request) => Record<string, unknown>;
  /** Needs no bearer token (sign-in, refresh, resend-verification ...). */
  public?: boolean;
  /**
   * Maps the root field's result to status and body. Shared errors (UnauthenticatedError, ForbiddenError,
   * ValidationError, NotFoundError, RateLimitedError, UpstreamUnavailableError, NotConfiguredError) are mapped
   * by the bridge when respond() does not claim them first.
   */
  respond: (result: Result, ctx: Context) => RestReply | undefined;
}

export function defineRoute(route: RouteDefinition): RouteDefinition {
  return route;
}

/**
 * The recent scenario a metered run was saved as, in a response header: the Matrix bodies are the spec's and carry
 * no id, yet a REST client needs one to promote the run (docs/api-decisions.md). The calculator sends it too.
 */
const SCENARIO_ID_HEADER = 'X-Scenario-Id';
export const scenarioHeader = (scenarioId: number): Record<string, string> => ({
  [SCENARIO_ID_HEADER]: String(scenarioId),
});

/** Integer path parameter; anything else becomes NaN, which the Int variable rejects as a 400/404. */
export function intParam(value: unknown): number | string {
  const s = String(value);
  return /^-?\d{1,9}$/.test(s) ? Number(s) : s;
}

/** The JSON body as an object (an absent or non-object body reads as empty, then fails required-field checks). */
export function body(req: Request): Record<string, any> {
  const b = req.body;
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? b : {};
}
