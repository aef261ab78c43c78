/**
 * Compiled execution (docs/architecture.md, Gateway): REST documents are compiled once at start; graphql-js runs
 * whatever graphql-jit cannot compile, every request that leaves a variable out and every request whose variables
 * graphql-jit refuses, so an answer never depends on which executor produced it. /graphql runs graphql-js.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from 'graphql';
import { compileRoute, plainLeavesOnly } from '../../src/rest/bridge.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { schema } from '../../src/schema.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { post } from './http.ts';

let t: TestApp;
let pro: string;
let free: string;
beforeAll(async () => {
  t = await startTestApp();
  pro = (await t.login('broker.admin@demo.test')).access;
  free = (await t.login('free.broker@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const DEAL = { cost: '50000', asset_value: 11, term: 60, advance_arrears: 'arrears', repayment_frequency: 'monthly' };
const MATRIX_CALCULATOR = `query M($input: DealInput!) {
  matrixCalculator(input: $input) {
    __typename
    ... on MatrixCalculatorResult { priced_count results { organisation_id approval_id rate_bracket_id e_min repayment_min masked financier { __typename } } }
    ... on Error { message code }
    ... on ValidationError { errors { field messages } }
    ... on EntitlementRequiredError { detail entitlement }
  }
}`;

describe('REST: every route document is compiled once at start by graphql-jit', () => {
  it('each route of the table runs on a compiled executor', () => {
    const executors = routes.map((r) => `${r.method} ${r.path}: ${compileRoute(schema, r).executor}`);
    expect(executors.filter((e) => !e.endsWith(': jit'))).toEqual([]);
    expect(executors.length).toBeGreaterThan(30);
  });
});

describe('REST: a document whose leaves are all plain values has them written as resolved (plainLeavesOnly)', () => {
  const Plain = new GraphQLEnumType({ name: 'Plain', values: { confirmed: { value: 'confirmed' } } });
  const Renamed = new GraphQLEnumType({ name: 'Renamed', values: { none: { value: '' } } });
  const tiny = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        count: { type: GraphQLInt },
        rate: { type: GraphQLFloat },
        name: { type: GraphQLString },
        id: { type: GraphQLID },
        status: { type: Plain },
        source: { type: Renamed },
      },
    }),
  });
  const plain = (query: string) => plainLeavesOnly(tiny, parse(query));

  it('Int, Float, String and an enum whose values are their own names: plain', () => {
    expect(plain('{ count rate name status }')).toBe(true);
  });

  it('ID is not (its serialize turns a number into a string), nor an enum with a value renamed inside', () => {
    expect(plain('{ count id }')).toBe(false);
    expect(plain('{ name source }')).toBe(false);
    expect(plain('query { ...F } fragment F on Query { source }')).toBe(false);
  });

  it('every route but the notification preferences (TimezoneSource) has its leaves written as resolved', () => {
    const serialised = routes
      .map((r) => compileRoute(schema, r))
      .filter((r) => !r.leavesAsResolved)
      .map((r) => `${r.method} ${r.path}`);
    expect(serialised).toEqual(['get /notifications/preferences', 'patch /notifications/preferences']);
  });
});

describe('GraphQL over HTTP: every execution of a document answers alike (/graphql runs graphql-js; see Gateway)', () => {
  const thrice = async (variables: Record<string, unknown>, token: string) => {
    const answers = [];
    for (let k = 0; k < 3; k++) answers.push(await post(t, MATRIX_CALCULATOR, variables, token));
    return answers.map((a) => ({ status: a.status, body: a.body }));
  };

  it('a priced run (a list of rows with a dataloaded financier)', async () => {
    const [first, ...later] = await thrice({ input: DEAL }, pro);
    expect(first.status).toBe(200);
    expect(first.body.data.matrixCalculator.__typename).toBe('MatrixCalculatorResult');
    expect(first.body.data.matrixCalculator.results.length).toBeGreaterThan(0);
    for (const answer of later) expect(answer).toEqual(first);
  });

  it('typed errors: a ValidationError and an EntitlementRequiredError, union members with their fields', async () => {
    const [invalid, ...invalidLater] = await thrice({ input: { ...DEAL, term: 0 } }, pro);
    expect(invalid.body.data.matrixCalculator.__typename).toBe('ValidationError');
    for (const answer of invalidLater) expect(answer).toEqual(invalid);
    const [paywalled, ...paywalledLater] = await thrice({ input: DEAL }, free);
    expect(paywalled.body.data.matrixCalculator.__typename).toBe('EntitlementRequiredError');
    for (const answer of paywalledLater) expect(answer).toEqual(paywalled);
  });

  it("variables graphql-jit refuses: graphql-js's 400 and its exact message, every time", async () => {
    const [first, ...later] = await thrice({ input: { ...DEAL, term: 'sixty' } }, pro);
    expect(first.status).toBe(400);
    expect(first.body.errors[0].message).toBe(
      'Variable "$input" got invalid value "sixty" at "input.term"; Int cannot represent non-integer value: "sixty"',
    );
    for (const answer of later) expect(answer).toEqual(first);
  });
});
