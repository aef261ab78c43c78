/**
 * A root field's auth scopes, judged before its input is read. REST routes and MCP tools run one root field each;
 * a caller that field refuses (a `read` token on a write, a caller without the permission) gets its 403 before the
 * body is coerced, so input checking, however large the body, is never work done for a caller who may not call.
 *
 * Why read the field's scopes from the schema: the list of who may call what is written once, as each field's
 * `authScopes` (scope-auth). A second list on the route would drift. Pothos keeps every field's options on the
 * built field (`extensions.pothosOptions`, the place its own plugins read them from), so the scope map is read there,
 * once at start, and evaluated here the way scope-auth evaluates it (plain scopes in order, then `$any`, `$all`,
 * then the parameterised ones; `all` stops at the first failure, `any` at the first success). The refusal is built
 * by the same function scope-auth's refusals are built by (`scopeRefusal`), so its status and sentence cannot differ
 * from the answer the field would have given. A field whose scopes depend on its arguments (a function) or use a
 * form not handled here is not judged early: scope-auth still judges it when it runs, as before.
 * test/rest/credentials-before-body.test.ts proves the early answer is the one sent, on every route.
 */
import { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import type { GraphQLField } from 'graphql';
import type { ForbiddenError, UnauthenticatedError } from '../lib/errors.ts';
import { scopeRefusal, scopeValues } from './builder.ts';
import type { Context } from './context.ts';

type ScopeValues = ReturnType<typeof scopeValues>;
type ScopeMap = Record<string, unknown>;

/** Judges a caller against one field's scopes: the refusal scope-auth would answer, or null when it may call. */
export type AccessCheck = (ctx: Context) => UnauthenticatedError | ForbiddenError | null;

const KNOWN_KEYS = new Set(['$any', '$all', 'signedIn', 'write', 'session', 'admin', 'permission', 'organisationType']);

/** True when every key of the map (at any depth) is one this evaluator handles. */
function judgeable(map: unknown): map is ScopeMap {
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return false;
  for (const [key, value] of Object.entries(map)) {
    if (!KNOWN_KEYS.has(key)) return false;
    if ((key === '$any' || key === '$all') && !judgeable(value)) return false;
  }
  return true;
}

function evaluate(map: ScopeMap, scopes: ScopeValues, forAll: boolean): AuthFailure | null {
  const { $any, $all, ...plain } = map;
  const failures: AuthFailure[] = [];
  const failure: AuthFailure = forAll
    ? { kind: AuthScopeFailureType.AllAuthScopes, failures }
    : { kind: AuthScopeFailureType.AnyAuthScopes, failures };
  const parameterised: string[] = [];
  const scopeFailure = (scope: string): AuthFailure => ({
    kind: AuthScopeFailureType.AuthScope,
    scope,
    parameter: plain[scope],
    error: null,
  });
  for (const name of Object.keys(plain)) {
    const value = scopes[name as keyof ScopeValues];
    if (typeof value === 'function') {
      parameterised.push(name);
      continue;
    }
    if (value) {
      if (!forAll) return null;
      continue;
    }
    failures.push(scopeFailure(name));
    if (forAll) return failure;
  }
  for (const [nested, nestedAll] of [
    [$any, false],
    [$all, true],
  ] as const) {
    if (nested === undefined) continue;
    const result = evaluate(nested as ScopeMap, scopes, nestedAll);
    if (result === null) {
      if (!forAll) return null;
      continue;
    }
    failures.push(result);
    if (forAll) return failure;
  }
  for (const name of parameterised) {
    const test = scopes[name as keyof ScopeValues] as (parameter: never) => boolean;
    if (test(plain[name] as never)) {
      if (!forAll) return null;
      continue;
    }
    failures.push(scopeFailure(name));
    if (forAll) return failure;
  }
  return forAll && failures.length === 0 ? null : failure;
}

/**
 * The early check for a root field, or undefined when its scopes cannot be judged before its arguments are known
 * (no scopes: a public field; or scopes given as a function). scope-auth's default strategy, `any`, applies at the top.
 */
export function staticAccessCheck(field: GraphQLField<unknown, unknown>): AccessCheck | undefined {
  const options = field.extensions.pothosOptions as { authScopes?: unknown } | undefined;
  const map = options?.authScopes;
  if (!judgeable(map)) return undefined;
  return (ctx) => {
    const failure = evaluate(map, scopeValues(ctx), false);
    return failure ? scopeRefusal(ctx, failure) : null;
  };
}
