/**
 * Whether a route's root field refuses a caller by its auth scopes alone (a `read` token on a write, a broker on a
 * financier's route): the refusal REST answers before the body is read (src/graphql/static-access.ts). Tests that
 * check what a body does pick a caller the route admits, or expect that 403.
 */
import { buildContext } from '../src/graphql/context.ts';
import { compileRoute } from '../src/rest/bridge.ts';
import type { RouteDefinition } from '../src/rest/define-route.ts';
import { schema } from '../src/graphql-server/schema.ts';
import type { TestApp } from './app.ts';

export async function scopeRefusal(t: TestApp, route: RouteDefinition, token: string): Promise<string | null> {
  const ctx = await buildContext(t.app.deps, { authorization: `Bearer ${token}` });
  return compileRoute(schema, route).access?.(ctx)?.message ?? null;
}
