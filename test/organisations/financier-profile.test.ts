/**
 * Result rows show other organisations as a public FinancierProfile ({id, name}); the full Organisation record (ABN,
 * flags, timestamps) is reachable only for the caller's own organisation (docs/api-decisions.md "Tenancy").
 */
import { isListType, isNonNullType, isObjectType, isUnionType, type GraphQLOutputType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql-server/schema.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

/** The object types a field can return: through lists, non-null and result unions (`… | NotFoundError`). */
const returned = (type: GraphQLOutputType): string[] => {
  let inner: GraphQLOutputType = type;
  while (isNonNullType(inner) || isListType(inner)) inner = inner.ofType;
  return isUnionType(inner) ? inner.getTypes().map((t) => t.name) : [inner.name];
};

/** Every field of the schema that can return `typeName`, as `Parent.field`. */
function fieldsOfType(typeName: string): string[] {
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields()))
      if (returned(field.type).includes(typeName)) found.push(`${type.name}.${field.name}`);
  }
  return found.sort();
}

describe("the full Organisation type is only for the caller's own organisation", () => {
  it("only organisation(id) (own only, else NotFoundError) and User.organisation (the user's own) return an Organisation", () => {
    // A new field returning Organisation must prove it is the caller's own, then join this list. organisationView's
    // data is the full Organisation only for the caller's own (organisation-view.test.ts), else a FinancierProfile.
    expect(fieldsOfType('Organisation')).toEqual([
      'Query.organisation',
      'QueryOrganisationViewSuccess.data',
      'User.organisation',
    ]);
  });

  it('rows and groups carry financier as FinancierProfile, whose fields are exactly id and name', () => {
    expect(fieldsOfType('FinancierProfile')).toEqual([
      'Approval.financier',
      'CalculatorRow.financier',
      'MatrixCalculatorRow.financier',
      'MatrixFinancierGroup.financier',
      'QueryOrganisationViewSuccess.data',
    ]);
    const profile = schema.getType('FinancierProfile');
    expect(isObjectType(profile) && Object.keys(profile.getFields()).sort()).toEqual(['id', 'name']);
  });
});

describe("over HTTP, a row's financier names the financier and nothing else", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.login('broker.admin@demo.test')).access;
  });
  afterAll(async () => {
    await t?.close();
  });

  const INPUT =
    '{ cost: "55000", cost_gst: true, asset_value: 11, term: 60, advance_arrears: arrears, repayment_frequency: monthly }';

  it("asking a row's financier for abn, is_bid_broker or timestamps is a validation error, not data", async () => {
    for (const field of ['abn', 'is_bid_broker', 'created_at', 'updated_at', 'type']) {
      const res = await fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          query: `{ calculate(input: ${INPUT}) { ... on CalculatorResult { results { financier { id ${field} } } } } }`,
        }),
      });
      const out = (await res.json()) as { data?: unknown; errors?: { message: string }[] };
      expect(out.data, field).toBeUndefined();
      expect(out.errors?.[0].message, field).toMatch(
        new RegExp(`Cannot query field "${field}" on type "FinancierProfile"`),
      );
    }
  });

  it('a financier seen on a row as {id, name} is still NotFoundError through organisation(id)', async () => {
    const data = await t
      .graphql(token)
      .request<any>(`{ calculate(input: ${INPUT}) { ... on CalculatorResult { results { financier { id name } } } } }`);
    const financier = data.calculate.results[0].financier;
    expect(Object.keys(financier).sort()).toEqual(['id', 'name']);
    const org = await t.graphql(token).request<any>(`{ organisation(id: ${financier.id}) { __typename } }`);
    expect(org.organisation.__typename).toBe('NotFoundError');
  });
});
