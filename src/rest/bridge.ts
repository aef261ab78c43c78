/**
 * Runs a route's GraphQL operation in-process. Documents are parsed and validated against the schema once, at
 * start: a drifted document stops the boot, not a request. Variables are coerced with GraphQL's own input rules,
 * and every coercion failure becomes the spec's general error body, naming the field.
 *
 * Each document is also compiled once, at start, by graphql-jit into a function that executes exactly that
 * selection (src/graphql/compiled-execution.ts): a large result list costs a fraction of graphql-js's generic walk.
 * A document graphql-jit cannot compile runs through graphql-js `execute`, as before.
 */
import {
  type GraphQLError,
  type GraphQLSchema,
  Kind,
  coerceInputValue,
  execute,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  parse,
  typeFromAST,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputType,
  type OperationDefinitionNode,
} from 'graphql';
import { compileOperation } from '../graphql/compiled-execution.ts';
import type { Context } from '../graphql/context.ts';
import { type AccessCheck, staticAccessCheck } from '../graphql/static-access.ts';
import type { FieldError } from '../lib/errors.ts';
import type { RestReply, Result, RouteDefinition } from './define-route.ts';
import { withFragments } from './fragments.ts';

/** Executes the route's operation: graphql-jit's compiled function, or graphql-js `execute` when it could not compile. */
type Executor = (ctx: Context, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;

export interface CompiledRoute extends RouteDefinition {
  /** The root field's auth scopes, judged before the input is read (undefined: judged only when it runs). */
  access: AccessCheck | undefined;
  compiled: DocumentNode;
  execute: Executor;
  /** 'jit' or 'graphql-js': which executor runs this route (tests and logs read it). */
  executor: 'jit' | 'graphql-js';
  /** True when graphql-jit writes this route's leaves as its resolvers return them (`plainLeavesOnly`). */
  leavesAsResolved: boolean;
  operation: OperationDefinitionNode;
  rootField: string;
  variableTypes: { name: string; type: GraphQLInputType }[];
}

export function compileRoute(schema: GraphQLSchema, route: RouteDefinition): CompiledRoute {
  const compiled = parse(withFragments(route.document));
  const problems = validate(schema, compiled);
  if (problems.length)
    throw new Error(`REST ${route.method.toUpperCase()} ${route.path}: ${problems.map((p) => p.message).join('; ')}`);
  const operation = compiled.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const roots = operation.selectionSet.selections;
  if (roots.length !== 1 || roots[0].kind !== Kind.FIELD)
    throw new Error(`REST ${route.path}: the operation must select exactly one root field`);
  const rootField = roots[0].alias?.value ?? roots[0].name.value;
  const rootType = schema.getRootType(operation.operation);
  const fieldDefinition = rootType?.getFields()[roots[0].name.value];
  const access = fieldDefinition ? staticAccessCheck(fieldDefinition) : undefined;
  const variableTypes = (operation.variableDefinitions ?? []).map((def) => ({
    name: def.variable.name.value,
    type: typeFromAST(schema, def.type as never) as GraphQLInputType,
  }));
  const slow: Executor = (ctx, variables) =>
    execute({ schema, document: compiled, variableValues: variables, contextValue: ctx });
  const jit = compileOperation(schema, compiled, operation);
  const executor: Pick<CompiledRoute, 'execute' | 'executor' | 'leavesAsResolved'> = jit
    ? {
        executor: 'jit',
        leavesAsResolved: jit.leavesAsResolved,
        execute: async (ctx, variables) => (await jit.run(ctx, variables)) ?? slow(ctx, variables),
      }
    : { executor: 'graphql-js', leavesAsResolved: false, execute: slow };
  return { ...route, access, compiled, operation, rootField, variableTypes, ...executor };
}

/**
 * Most items one list of a REST or MCP input may hold. Every list the API takes is capped far lower by its own rule
 * (an approval's lists at 100 to 500 items, `preferred_financier` at 200): this bound only keeps a list that could
 * never pass from being walked item by item (coerced, then coerced again by the executor) before it is refused.
 */
const MAX_LIST_ITEMS = 1_000;

/** A path to a place in the input, built only where a problem is found (no allocation per list item). */
interface PathLink {
  key: string | number;
  parent: PathLink | undefined;
}

function pathOf(link: PathLink | undefined): (string | number)[] {
  const path: (string | number)[] = [];
  for (let l = link; l; l = l.parent) path.push(l.key);
  return path.reverse();
}

/**
 * Lenient reader: keys an input type does not define are dropped, never stored (mass assignment stays impossible).
 * A list longer than MAX_LIST_ITEMS is left as it is and its path added to `tooLong` (refused before coercion). Lists
 * of leaves (numbers, strings, enums) are returned as they are: there is nothing in them to prune.
 */
function pruneUnknown(
  value: unknown,
  type: GraphQLInputType,
  path: PathLink | undefined,
  tooLong: (string | number)[][],
): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return value;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return value;
    if (value.length > MAX_LIST_ITEMS) {
      tooLong.push(pathOf(path));
      return value;
    }
    const item: GraphQLInputType = inner.ofType;
    if (isLeafType(getNamedType(item)) && !isListType(isNonNullType(item) ? item.ofType : item)) return value;
    return value.map((v, i) => pruneUnknown(v, item, { key: i, parent: path }, tooLong));
  }
  if (isInputObjectType(inner) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = inner.getFields();
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value))
      if (Object.hasOwn(fields, key)) out[key] = pruneUnknown(v, fields[key].type, { key, parent: path }, tooLong);
    return out;
  }
  return value;
}

/** The type at `path` inside `type` (through lists and input objects). */
function typeAt(type: GraphQLInputType, path: readonly (string | number)[]): GraphQLInputType {
  let walk = type;
  for (const p of path) {
    const t = isNonNullType(walk) ? walk.ofType : walk;
    if (isListType(t)) walk = t.ofType;
    else if (isInputObjectType(t) && Object.hasOwn(t.getFields(), p)) walk = t.getFields()[p as string].type;
  }
  return walk;
}

function describeType(type: GraphQLInputType): string {
  const named = getNamedType(type);
  if (named.name === 'Int') return 'A valid integer is required.';
  if (named.name === 'Float' || named.name === 'Decimal') return 'A valid number is required.';
  if (named.name === 'Boolean') return 'Must be a valid boolean.';
  if (named.name === 'String') return 'Not a valid string.';
  // An enum may carry the sentence REST has always answered for a value outside it (PurchasablePlan).
  if (isEnumType(named) && typeof named.extensions.restInvalidValue === 'string')
    return named.extensions.restInvalidValue;
  if (isEnumType(named))
    return `Must be one of: ${named
      .getValues()
      .map((v) => v.name)
      .join(', ')}.`;
  if (isInputObjectType(named)) return 'Must be a JSON object.';
  return 'Invalid value.';
}

/**
 * One coercion failure as a field error. GraphQL reports a missing required input field against the enclosing
 * object ('Field "cost" of required type "Decimal!" was not provided.'), so the field's name is taken from the
 * message and appended: clients get `cost`, not `input`.
 */
function fieldError(
  variable: string,
  type: GraphQLInputType,
  path: readonly (string | number)[],
  error: GraphQLError,
): FieldError {
  const missing = /^Field "([^"]+)" of required type "[^"]+" was not provided\.$/.exec(error.message);
  const fullPath = missing ? [...path, missing[1]] : [...path];
  // `input.cost` reads as `cost`: clients know their body's fields, not our variable names.
  const parts = (variable === 'input' ? fullPath : [variable, ...fullPath]).map(String);
  const field = parts.length ? parts.join('.') : variable;
  const required = missing !== null || /^Expected non-nullable type "[^"]+" not to be null\.$/.test(error.message);
  return { field, messages: [required ? 'This field is required.' : describeType(typeAt(type, path))] };
}

/**
 * Most field errors one 400 names (graphql-js stops coercing variables at 50): enough to fix a request, and the
 * answer stays small whatever the body holds. Coercion stops at the cap instead of walking the rest of the input.
 */
export const MAX_REPORTED_ERRORS = 20;

/** Thrown from coerceInputValue's error callback to stop it once the cap is reached. */
const ENOUGH = Symbol('enough errors');

/**
 * Checks the route's variables with GraphQL's own input rules and returns them pruned but still raw (JSON).
 * `execute` coerces variables itself, so handing it already-coerced values would run every custom scalar's
 * parseValue twice (a Date given to DateTime's parseValue); coercion here only finds the fields to name in a 400.
 * Linear in the input, and bounded: a list past MAX_LIST_ITEMS is refused before any item is looked at; errors are
 * merged by field through a map, and coercion stops once MAX_REPORTED_ERRORS are collected.
 */
export function coerceVariables(
  route: CompiledRoute,
  raw: Record<string, unknown>,
): { values: Record<string, unknown> } | { errors: FieldError[] } {
  const byField = new Map<string, FieldError>();
  let reported = 0;
  const values: Record<string, unknown> = {};
  const pruned: { name: string; type: GraphQLInputType; input: unknown }[] = [];
  for (const { name, type } of route.variableTypes) {
    const tooLong: (string | number)[][] = [];
    const input = pruneUnknown(raw[name], type, undefined, tooLong);
    for (const path of tooLong.slice(0, MAX_REPORTED_ERRORS - byField.size)) {
      const field = (name === 'input' ? path : [name, ...path]).map(String).join('.') || name;
      byField.set(field, { field, messages: [`Ensure this list has no more than ${MAX_LIST_ITEMS} items.`] });
    }
    pruned.push({ name, type, input });
  }
  // A list past the bound is refused as it is: its items are never walked.
  if (byField.size) return { errors: [...byField.values()] };
  try {
    for (const { name, type, input } of pruned) {
      if (input === undefined && !isNonNullType(type)) continue;
      values[name] = input === undefined ? null : input;
      coerceInputValue(values[name], type, (path, _invalid, error) => {
        const found = fieldError(name, type, path, error);
        const existing = byField.get(found.field);
        if (existing) existing.messages.push(...found.messages);
        else byField.set(found.field, found);
        reported += 1;
        if (reported >= MAX_REPORTED_ERRORS) throw ENOUGH;
      });
    }
  } catch (error) {
    if (error !== ENOUGH) throw error;
  }
  return byField.size ? { errors: [...byField.values()] } : { values };
}

/**
 * The refusal the route's root field would answer this caller (a 403 for a `read` token on a write ...), as its
 * typed result, judged before the input is read; null when the caller may call it or only running it can tell.
 * The fields are those ErrorFields selects for these two types.
 */
export function refusedEarly(route: CompiledRoute, ctx: Context): Result | null {
  const refusal = route.access?.(ctx);
  if (!refusal) return null;
  const typename = refusal.code === 'unauthenticated' ? 'UnauthenticatedError' : 'ForbiddenError';
  return { __typename: typename, message: refusal.message, code: refusal.code };
}

/** Executes and returns the root field's typed result, or null when GraphQL reported errors (a bug on this path). */
export async function run(
  route: CompiledRoute,
  ctx: Context,
  variables: Record<string, unknown>,
): Promise<{ result: Result } | { bug: readonly GraphQLError[] }> {
  const out = await route.execute(ctx, variables);
  if (out.errors?.length || !out.data) return { bug: out.errors ?? [] };
  return { result: out.data[route.rootField] as Result };
}

export function fieldErrorBody(errors: FieldError[], message = 'Invalid request.'): Record<string, unknown> {
  return { error: message, errors: Object.fromEntries(errors.map((e) => [e.field, e.messages])) };
}

/** The shared error types, mapped once for every route. */
export function sharedReply(result: Result): RestReply | undefined {
  switch (result.__typename) {
    case 'UnauthenticatedError':
      return [401, { error: result.message }];
    case 'ForbiddenError':
      return [403, { error: result.message }];
    case 'NotFoundError':
      return [404, { error: result.message }];
    case 'ValidationError':
      return [400, fieldErrorBody(result.errors, result.message)];
    case 'RateLimitedError':
      return [429, { error: result.message }, { 'Retry-After': String(result.retry_after) }];
    case 'UpstreamUnavailableError':
      return [502, { error: result.message }];
    case 'NotConfiguredError':
      return [503, { error: result.message }];
    // Plan and allowance refusals: the spec's typed 403 and 429 bodies, the same on every metered endpoint.
    case 'CapHitError':
      return [
        429,
        {
          error: 'cap_hit',
          detail: result.detail,
          message: result.message,
          limit: result.limit,
          used: result.used,
          metric: result.metric,
        },
      ];
    case 'EntitlementRequiredError':
      return [
        403,
        {
          error: 'entitlement_required',
          detail: result.detail,
          message: result.message,
          entitlement: result.entitlement,
        },
      ];
    case 'FeatureDisabledError':
      return [403, { error: 'feature_disabled', detail: result.detail }];
    default:
      return undefined;
  }
}
