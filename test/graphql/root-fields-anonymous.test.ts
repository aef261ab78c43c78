/**
 * Every root field answers a caller without working credentials with a typed result (UnauthenticatedError on a
 * protected field), never a masked crash (INTERNAL_SERVER_ERROR): each field declares its auth scope and its typed
 * errors, and no resolver assumes a caller. Every Query and Mutation field of the schema is called, so a new field is
 * checked without touching this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  isLeafType,
  type GraphQLField,
  type GraphQLInputType,
} from 'graphql';
import { schema } from '../../src/graphql-server/schema.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { post } from './http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A well-typed value for an argument, so the request reaches the resolver (required input fields only). */
function valueFor(type: GraphQLInputType): unknown {
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) return [valueFor(inner.ofType)];
  if (isEnumType(inner)) return inner.getValues()[0].value;
  if (isInputObjectType(inner)) {
    return Object.fromEntries(
      Object.values(inner.getFields())
        .filter((f) => isNonNullType(f.type))
        .map((f) => [f.name, valueFor(f.type)]),
    );
  }
  if (isScalarType(inner)) {
    const scalars: Record<string, unknown> = {
      Int: 1,
      Float: 1.5,
      String: 'x',
      Boolean: true,
      ID: '1',
      DateTime: '2030-01-01T00:00:00Z',
      Decimal: 1,
      JSON: {},
    };
    if (!(inner.name in scalars)) throw new Error(`no sample value for scalar ${inner.name}`);
    return scalars[inner.name];
  }
  throw new Error(`no sample value for ${String(type)}`);
}

/** The document calling one root field with every argument as a variable, selecting its __typename. */
function call(
  operation: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
): { query: string; variables: Record<string, unknown> } {
  const defs = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return {
    query: `${operation}${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`,
    variables: Object.fromEntries(field.args.map((a) => [a.name, valueFor(a.type)])),
  };
}

const ROOT_FIELDS = (['query', 'mutation'] as const).flatMap((operation) => {
  const root = operation === 'query' ? schema.getQueryType() : schema.getMutationType();
  return Object.values(root?.getFields() ?? {}).map(
    (field) => [`${operation} ${field.name}`, operation, field] as const,
  );
});

const CREDENTIALS: [string, string | undefined][] = [
  ['no credentials', undefined],
  ['a malformed bearer token', 'not-a-token'],
  ['an unknown API token', `service_sk_tok_AAAAAAAAAAAA_${'A'.repeat(43)}`],
];

describe('Root fields without working credentials: a typed answer, never an internal error', () => {
  it('the schema has root fields to check', () => {
    expect(ROOT_FIELDS.length).toBeGreaterThan(20);
  });

  describe.each(CREDENTIALS)('%s', (_label, token) => {
    it.each(ROOT_FIELDS)('%s', async (_name, operation, field) => {
      const { query, variables } = call(operation, field);
      const reply = await post(t, query, variables, token);
      expect(reply.status, query).toBe(200);
      expect(reply.body.errors, JSON.stringify(reply.body.errors)).toBeUndefined();
      const typename = reply.body.data?.[field.name]?.__typename;
      expect(typename, query).toEqual(expect.any(String));
    });
  });

  it('a protected field answers UnauthenticatedError (seats, me, featureFlags)', async () => {
    for (const [name, query] of [
      ['seats', '{ seats { __typename } }'],
      ['me', '{ me { __typename } }'],
      ['featureFlags', '{ featureFlags { __typename } }'],
    ]) {
      const reply = await post(t, query);
      expect(reply.body.data?.[name]?.__typename, name).toBe('UnauthenticatedError');
    }
  });
});
