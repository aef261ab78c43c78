/**
 * Analysts explore the schema in GraphiQL: every type, field, argument, input field and enum value says what it is.
 * The walk reads the printed schema (what schema.graphql and GraphiQL show), rebuilt from src/schema.ts; built-in
 * scalars and introspection types are GraphQL's own and are skipped.
 */
import {
  buildSchema,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/graphql-server/schema.ts';

type Kind = 'type' | 'field' | 'argument' | 'input field' | 'enum value';

interface Part {
  /** The schema coordinate: `Type`, `Type.field`, `Type.field(arg:)`, `Input.field`, `Enum.VALUE`. */
  coordinate: string;
  kind: Kind;
  name: string;
  description: string | null | undefined;
}

/** Everything in `schema` that should carry a description. */
function partsOf(schema: GraphQLSchema): Part[] {
  const parts: Part[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    parts.push({ coordinate: type.name, kind: 'type', name: type.name, description: type.description });
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        const coordinate = `${type.name}.${field.name}`;
        parts.push({ coordinate, kind: 'field', name: field.name, description: field.description });
        for (const arg of field.args)
          parts.push({
            coordinate: `${coordinate}(${arg.name}:)`,
            kind: 'argument',
            name: arg.name,
            description: arg.description,
          });
      }
    }
    if (isInputObjectType(type))
      for (const field of Object.values(type.getFields()))
        parts.push({
          coordinate: `${type.name}.${field.name}`,
          kind: 'input field',
          name: field.name,
          description: field.description,
        });
    if (isEnumType(type))
      for (const value of type.getValues())
        parts.push({
          coordinate: `${type.name}.${value.name}`,
          kind: 'enum value',
          name: value.name,
          description: value.description,
        });
  }
  return parts;
}

const undescribed = (parts: Part[]) => parts.filter((p) => !p.description?.trim()).map((p) => p.coordinate);

/** "Product name" restates `product_name`; so does "ID" for `id`. */
const normalised = (text: string) =>
  text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Why a description is a placeholder, or null when it is not. */
function placeholder(part: Part): string | null {
  const description = part.description?.trim();
  if (!description) return null; // reported as missing
  if (normalised(description) === normalised(part.name)) return 'repeats the name';
  if (part.kind === 'type' && description.split(/\s+/).length < 3) return 'fewer than 3 words';
  return null;
}

const placeholders = (parts: Part[]) =>
  parts.flatMap((p) => {
    const why = placeholder(p);
    return why ? [`${p.coordinate}: ${why} ("${p.description}")`] : [];
  });

const parts = partsOf(buildSchema(printedSchema()));

function report(title: string, coordinates: string[]): string {
  return `${coordinates.length} ${title}:\n  ${coordinates.join('\n  ')}`;
}

describe('Every type, field, argument, input field and enum value has a description', () => {
  it('the schema has none without one', () => {
    const missing = undescribed(parts);
    expect(missing.length, report('without a description', missing)).toBe(0);
  });

  it('the walk reaches every kind: types, fields, arguments, input fields and enum values', () => {
    const coordinates = new Set(parts.map((p) => p.coordinate));
    for (const coordinate of [
      'CalculatorRow',
      'CalculatorRow.e_min',
      'CalculatorRow.schedule(band:)',
      'Query.matrixCalculator(input:)',
      'RecalculateInput.pv',
      'RateCardImportFormat.csv',
      'Error.code',
    ])
      expect(coordinates, coordinate).toContain(coordinate);
    expect(coordinates.has('String'), 'built-in scalars are skipped').toBe(false);
    expect(coordinates.has('__Type'), 'introspection types are skipped').toBe(false);
  });

  it('a schema with gaps is reported coordinate by coordinate', () => {
    const gappy = buildSchema(`
      "A described query root" type Query { "described" ok(first: Int): Thing, gap(id: ID): Int }
      type Thing { id: ID }
      input Filter { "described" name: String, kind: Kind }
      "Kinds of thing to find" enum Kind { "the first kind" A, B }
    `);
    expect(undescribed(partsOf(gappy)).sort()).toEqual(
      [
        'Filter',
        'Filter.kind',
        'Kind.B',
        'Query.gap',
        'Query.gap(id:)',
        'Query.ok(first:)',
        'Thing',
        'Thing.id',
      ].sort(),
    );
  });
});

describe('Descriptions are not placeholders', () => {
  it('no description repeats its name, and every type is described in at least 3 words', () => {
    const found = placeholders(parts);
    expect(found.length, report('placeholder descriptions', found)).toBe(0);
  });

  it('a description that repeats its name, or a type described in two words, is reported', () => {
    const lazy = buildSchema(`
      "The root" type Query { "Product name" product_name: String, "ID" id: ID, "The product's own name" name: String }
    `);
    expect(placeholders(partsOf(lazy))).toEqual([
      'Query: fewer than 3 words ("The root")',
      'Query.product_name: repeats the name ("Product name")',
      'Query.id: repeats the name ("ID")',
    ]);
  });
});
