/**
 * What to fuzz, derived from the code rather than copied: every entry of the REST route table (its path parameters,
 * and the body and query fields its `variables` mapping reads, typed by the operation's GraphQL variables), and the
 * GraphQL schema's root fields. A new route or root field is fuzzed without touching this directory.
 */
import { isInputObjectType, getNullableType, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { compileRoute } from '../../src/rest/bridge.ts';
import { routes } from '../../src/rest/routes/index.ts';

export interface RestTarget {
  /** "POST /api/v1/calculator": how reports name it. */
  name: string;
  method: string;
  /** Express path under the app root, with `:param` placeholders. */
  path: string;
  params: string[];
  /** Body fields the route reads, with the GraphQL type each one feeds (null: read but not a variable of its own). */
  body: Map<string, GraphQLInputType | null>;
  query: Map<string, GraphQLInputType | null>;
  public: boolean;
}

/** Records every property a route's `variables` mapping reads from a request. */
function recorder(seen: Set<string>): Record<string, unknown> {
  return new Proxy(
    {},
    {
      get: (_t, key) => {
        if (typeof key === 'string') seen.add(key);
        return undefined;
      },
      has: (_t, key) => {
        if (typeof key === 'string') seen.add(key);
        return false;
      },
    },
  );
}

export function restTargets(schema: GraphQLSchema): RestTarget[] {
  return routes.map((route) => {
    const compiled = compileRoute(schema, route);
    const typeOf = new Map(compiled.variableTypes.map((v) => [v.name, v.type]));
    const seenBody = new Set<string>();
    const seenQuery = new Set<string>();
    const bodyProxy = recorder(seenBody);
    const req = {
      body: bodyProxy,
      query: recorder(seenQuery),
      params: recorder(new Set()),
      get: () => undefined,
      header: () => undefined,
      headers: {},
    };
    const variables = route.variables ? route.variables(req as never) : {};
    const body = new Map<string, GraphQLInputType | null>();
    const query = new Map<string, GraphQLInputType | null>();
    for (const [name, value] of Object.entries(variables)) {
      // `input: body(req)`: the whole body is the input object, so its fields are the body's fields.
      const type = typeOf.get(name);
      const inner = type && getNullableType(type);
      if (value === bodyProxy && inner && isInputObjectType(inner)) {
        for (const [field, f] of Object.entries(inner.getFields())) body.set(field, f.type);
      }
    }
    for (const key of seenBody) if (!body.has(key)) body.set(key, typeOf.get(key) ?? null);
    for (const key of seenQuery) query.set(key, typeOf.get(key) ?? null);
    const path = `/api/v1${route.path}`;
    return {
      name: `${route.method.toUpperCase()} ${path}`,
      method: route.method.toUpperCase(),
      path,
      params: [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]),
      body,
      query,
      public: route.public === true,
    };
  });
}
