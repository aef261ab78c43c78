/**
 * A tool's input schema, read from its GraphQL operation: each variable (or, for an operation whose one variable is
 * `input`, each field of that input type) becomes a zod property with the GraphQL description. One source: the
 * schema an assistant is shown is the schema the operation coerces with, so the two cannot drift. A tool may require
 * more than GraphQL's non-null (the deal tools: what their surface's rules require); the SDK refuses a call missing
 * one before anything runs, naming the field.
 *
 * Every object is strict: an argument (or input field) the schema does not declare is refused by the SDK's validation,
 * naming it, before anything runs, never dropped. A misspelt argument would otherwise run the tool without it (an
 * unfiltered list, a patch that changes nothing), and the assistant would never learn why.
 */
import {
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  typeFromAST,
} from 'graphql';
import { z } from 'zod';

/** Deepest input-object nesting turned into a schema (our inputs are one or two levels; a cycle would never end). */
const MAX_DEPTH = 6;

/** A required argument left out reads as the REST bridge's 400 does; any other mismatch keeps zod's own message. */
const REQUIRED: { error: (issue: { input?: unknown }) => string | undefined } = {
  error: (issue) => (issue.input === undefined ? 'This field is required.' : undefined),
};
type Params = typeof REQUIRED | undefined;

function scalarSchema(name: string, params: Params): z.ZodType {
  switch (name) {
    case 'Int':
      return z.number(params).int();
    case 'Float':
      return z.number(params);
    case 'Boolean':
      return z.boolean(params);
    case 'String':
    case 'ID':
      return z.string(params);
    case 'Decimal':
      return z
        .union([z.number(), z.string()], params)
        .describe('A number, or a plain decimal string such as "1250.50"');
    case 'DateTime':
      return z.string(params).describe('ISO 8601 timestamp');
    default:
      return z.unknown();
  }
}

/**
 * The zod schema of a GraphQL input type; nullable types are optional and accept null, as GraphQL does, unless
 * `required` (the tool requires what GraphQL leaves nullable): then, like a non-null type, it must be given.
 */
function zodOf(type: GraphQLInputType, depth = 0, required = false): z.ZodType {
  if (isNonNullType(type) || required) return requiredZodOf(type, depth);
  return schemaOf(type, depth, undefined).nullish();
}

function requiredZodOf(type: GraphQLInputType, depth: number): z.ZodType {
  return schemaOf(isNonNullType(type) ? type.ofType : type, depth, REQUIRED);
}

function schemaOf(type: GraphQLInputType, depth: number, params: Params): z.ZodType {
  if (isNonNullType(type)) return schemaOf(type.ofType, depth, params);
  if (isListType(type)) return z.array(zodOf(type.ofType, depth), params);
  if (isEnumType(type)) {
    const values = type.getValues().map((v) => v.name);
    return z.enum(values as [string, ...string[]], params);
  }
  if (isInputObjectType(type)) {
    if (depth >= MAX_DEPTH) throw new Error(`input type ${type.name} nests deeper than ${MAX_DEPTH}`);
    return z.strictObject(shapeOf(type, depth + 1), params);
  }
  if (isScalarType(type)) return scalarSchema(type.name, params);
  return z.unknown();
}

type InputObject = Extract<GraphQLInputType, { getFields: unknown }>;

function shapeOf(
  type: InputObject,
  depth: number,
  required: ReadonlySet<string> = new Set(),
): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of Object.values(type.getFields())) {
    const schema = zodOf(field.type, depth, required.has(field.name));
    shape[field.name] = field.description ? schema.describe(field.description) : schema;
  }
  return shape;
}

export interface ToolArguments {
  /** The tool's input schema (a strict object: undeclared arguments are refused). */
  schema: z.ZodObject;
  /** The operation's variables from the tool's (validated) arguments. */
  variables: (args: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * The arguments of a tool running `operation`: the fields of its `input` variable when that is its only variable (the
 * deal tools take the deal's fields directly), else one argument per variable, named as the variable. `required`
 * names arguments the tool requires besides GraphQL's non-null ones; a name that is not an argument stops the boot.
 */
export function toolArguments(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  descriptions: Readonly<Record<string, string>> = {},
  required: readonly string[] = [],
): ToolArguments {
  const variables = (operation.variableDefinitions ?? []).map((def) => ({
    name: def.variable.name.value,
    type: typeFromAST(schema, def.type as never) as GraphQLInputType,
  }));
  const mustGive = new Set(required);
  const unknown = (names: string[]) => required.filter((name) => !names.includes(name));
  if (variables.length === 1 && variables[0].name === 'input') {
    const inner = isNonNullType(variables[0].type) ? variables[0].type.ofType : variables[0].type;
    if (isInputObjectType(inner)) {
      const strays = unknown(Object.keys(inner.getFields()));
      if (strays.length) throw new Error(`required ${strays.join(', ')}: not fields of ${inner.name}`);
      return { schema: z.strictObject(shapeOf(inner, 1, mustGive)), variables: (args) => ({ input: args }) };
    }
  }
  const strays = unknown(variables.map((v) => v.name));
  if (strays.length) throw new Error(`required ${strays.join(', ')}: not variables of the operation`);
  const shape: Record<string, z.ZodType> = {};
  for (const v of variables) {
    const argument = zodOf(v.type, 0, mustGive.has(v.name));
    shape[v.name] = descriptions[v.name] ? argument.describe(descriptions[v.name]) : argument;
  }
  return { schema: z.strictObject(shape), variables: (args) => args };
}
