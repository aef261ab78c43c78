/**
 * One rule per kind of name, and one rule for decimals, across the whole built schema (docs/graphql.md, "Naming and
 * decimals"): every field, argument and input field of every type is walked, so a new one that breaks a rule fails
 * here by its schema coordinate.
 */
import {
  getNamedType,
  type GraphQLField,
  type GraphQLInputField,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql-server/schema.ts';

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;

/** Relay's connection vocabulary, spelt as Relay clients expect it. */
const RELAY_FIELDS = new Set(['pageInfo', 'hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor']);

/** The contract's decimal strings (plain decimals, fixed scale), per output type. */
const DECIMAL_STRING_OUTPUTS: Record<string, string[]> = {
  CalculatorRow: ['base_min', 'base_max', 'rate_min', 'rate_max', 'e_min', 'e_max', 'repayment_min', 'repayment_max'],
  MatrixCalculatorRow: ['base_min', 'base_max', 'e_min', 'e_max', 'repayment_min', 'repayment_max'],
  PricedCardItem: ['base_min', 'base_max', 'rate_min', 'rate_max', 'e_min', 'e_max', 'repayment_min', 'repayment_max'],
  StructuringSuggestion: ['rate_min', 'e_min', 'repayment_min'],
  Approval: ['min_deposit_percentage', 'min_deposit_amount', 'min_asset_cost', 'max_asset_cost'],
  NotificationPreferences: ['scenario_change_threshold'],
};
/** Inputs the contract sends as decimal strings: `Decimal` (a plain decimal string, or a JSON number). */
const DECIMAL_STRING_INPUTS: Record<string, string[]> = {
  DealInput: ['cost'],
  ApprovalInput: ['min_deposit_percentage', 'min_deposit_amount', 'min_asset_cost', 'max_asset_cost'],
  UpdateNotificationPreferencesInput: ['scenario_change_threshold'],
};

interface Part {
  coordinate: string;
  name: string;
  /** The named type of its value. */
  typeName: string;
  parentName: string;
}

const types = Object.values(schema.getTypeMap()).filter((type) => !isIntrospectionType(type));
const rootNames = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name]);

const part = (parentName: string, field: GraphQLField<unknown, unknown> | GraphQLInputField): Part => ({
  coordinate: `${parentName}.${field.name}`,
  name: field.name,
  typeName: getNamedType(field.type).name,
  parentName,
});
const outputFields: Part[] = types.flatMap((type) =>
  isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()).map((f) => part(type.name, f)) : [],
);
const inputFields: Part[] = types.flatMap((type) =>
  isInputObjectType(type) ? Object.values(type.getFields()).map((f) => part(type.name, f)) : [],
);
const args: Part[] = types.flatMap((type) =>
  isObjectType(type) || isInterfaceType(type)
    ? Object.values(type.getFields()).flatMap((field) =>
        field.args.map((arg) => ({
          coordinate: `${type.name}.${field.name}(${arg.name}:)`,
          name: arg.name,
          typeName: getNamedType(arg.type).name,
          parentName: type.name,
        })),
      )
    : [],
);

const breaking = (parts: Part[], ok: (p: Part) => boolean) => parts.filter((p) => !ok(p)).map((p) => p.coordinate);

describe('Arguments are camelCase, on every field of every type', () => {
  it('every argument', () => {
    expect(args.length).toBeGreaterThan(100);
    expect(breaking(args, (p) => CAMEL_CASE.test(p.name))).toEqual([]);
  });
});

describe("Fields are the spec's snake_case; root fields (operations) camelCase; Relay's connection names as Relay spells them", () => {
  it('every field of every object and interface type', () => {
    expect(
      breaking(outputFields, (p) =>
        rootNames.has(p.parentName) ? CAMEL_CASE.test(p.name) : SNAKE_CASE.test(p.name) || RELAY_FIELDS.has(p.name),
      ),
    ).toEqual([]);
  });

  it('every field of every input type', () => {
    expect(breaking(inputFields, (p) => SNAKE_CASE.test(p.name))).toEqual([]);
  });
});

describe('Decimals are typed as the REST contract types them: numbers, except its decimal strings', () => {
  const listed = (table: Record<string, string[]>, p: Part) => table[p.parentName]?.includes(p.name) ?? false;
  /** Every name the schema uses for a decimal figure anywhere (a Float or a Decimal, input or output). */
  const decimalNames = new Set(
    [...outputFields, ...inputFields, ...args]
      .filter((p) => p.typeName === 'Float' || p.typeName === 'Decimal')
      .map((p) => p.name),
  );

  it('no output is a Decimal: an answer is a JSON number (Float) or one of the listed decimal strings', () => {
    expect(breaking(outputFields, (p) => p.typeName !== 'Decimal')).toEqual([]);
  });

  it('the listed decimal strings are Strings, and no other field named like a decimal figure is a String', () => {
    for (const [type, names] of Object.entries(DECIMAL_STRING_OUTPUTS))
      for (const name of names)
        expect(outputFields.find((p) => p.coordinate === `${type}.${name}`)?.typeName, `${type}.${name}`).toBe(
          'String',
        );
    expect(
      breaking(
        outputFields,
        (p) => !(p.typeName === 'String' && decimalNames.has(p.name)) || listed(DECIMAL_STRING_OUTPUTS, p),
      ),
    ).toEqual([]);
  });

  it('inputs are Float, except the listed decimal strings, which are Decimal (a string or a number)', () => {
    expect(breaking(args, (p) => p.typeName !== 'Decimal')).toEqual([]);
    expect(breaking(inputFields, (p) => (p.typeName === 'Decimal') === listed(DECIMAL_STRING_INPUTS, p))).toEqual([]);
  });
});
