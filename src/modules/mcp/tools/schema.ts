/**
 * A tool's input schema, read from its GraphQL operation: each variable (or, for an operation whose one variable is
 * `input`, each field of that input type) becomes a zod property with the GraphQL description. One source: the
 * schema an assistant is shown is the schema the operation coerces with, so the two cannot drift.
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

function scalarSchema(name: string): z.ZodType {
  switch (name) {
    case 'Int':
      return z.number().int();
    case 'Float':
      return z.number();
    case 'Boolean':
      return z.boolean();
    case 'String':
    case 'ID':
      return z.string();
    case 'Decimal':
      return z.union([z.number(), z.string()]).describe('A number, or a plain decimal string such as "1250.50"');
    case 'DateTime':
      return z.string().describe('ISO 8601 timestamp');
    default:
      return z.unknown();
  }
}

/** The zod schema of a GraphQL input type; nullable types are optional and accept null, as GraphQL does. */
export function zodOf(type: GraphQLInputType, depth = 0): z.ZodType {
  if (isNonNullType(type)) return requiredZodOf(type.ofType, depth);
  return requiredZodOf(type, depth).nullish();
}

function requiredZodOf(type: GraphQLInputType, depth: number): z.ZodType {
  if (isNonNullType(type)) return requiredZodOf(type.ofType, depth);
  if (isListType(type)) return z.array(zodOf(type.ofType, depth));
  if (isEnumType(type)) {
    const values = type.getValues().map((v) => v.name);
    return z.enum(values as [string, ...string[]]);
  }
  if (isInputObjectType(type)) {
    if (depth >= MAX_DEPTH) throw new Error(`input type ${type.name} nests deeper than ${MAX_DEPTH}`);
    return z.object(shapeOf(type, depth + 1));
  }
  if (isScalarType(type)) return scalarSchema(type.name);
  return z.unknown();
}

type InputObject = Extract<GraphQLInputType, { getFields: unknown }>;

function shapeOf(type: InputObject, depth: number): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of Object.values(type.getFields())) {
    const schema = zodOf(field.type, depth);
    shape[field.name] = field.description ? schema.describe(field.description) : schema;
  }
  return shape;
}

export interface ToolArguments {
  /** The tool's input schema (an object). */
  schema: z.ZodObject;
  /** The operation's variables from the tool's (validated) arguments. */
  variables: (args: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * The arguments of a tool running `operation`: the fields of its `input` variable when that is its only variable (the
 * deal tools take the deal's fields directly), else one argument per variable, named as the variable.
 */
export function toolArguments(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  descriptions: Readonly<Record<string, string>> = {},
): ToolArguments {
  const variables = (operation.variableDefinitions ?? []).map((def) => ({
    name: def.variable.name.value,
    type: typeFromAST(schema, def.type as never) as GraphQLInputType,
  }));
  if (variables.length === 1 && variables[0].name === 'input') {
    const inner = isNonNullType(variables[0].type) ? variables[0].type.ofType : variables[0].type;
    if (isInputObjectType(inner))
      return { schema: z.object(shapeOf(inner, 1)), variables: (args) => ({ input: args }) };
  }
  const shape: Record<string, z.ZodType> = {};
  for (const v of variables) {
    const argument = zodOf(v.type);
    shape[v.name] = descriptions[v.name] ? argument.describe(descriptions[v.name]) : argument;
  }
  return { schema: z.object(shape), variables: (args) => args };
}
