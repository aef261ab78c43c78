/**
 * Compiled execution (docs/graphql.md, "Compiled execution"): REST documents are compiled once at start, /graphql's
 * engine runs on their second execution; graphql-js runs whatever graphql-jit cannot compile, every request that
 * leaves a variable out and every request whose variables graphql-jit (or, on /graphql, graphql-js) refuses, so an
 * answer never depends on which executor produced it.
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
import { compileRoute } from '../../src/rest/bridge.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { schema } from '../../src/graphql-server/schema.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { CompileAllowance, graphqlExecutions, plainLeavesOnly } from '../../src/graphql/compiled-execution.ts';
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

describe('/graphql: an engine run (calculate, matrix, matrixCalculator) runs compiled from its second execution', () => {
  let names = 0;
  /** The document under a name no earlier test used, so its first execution here is its first anywhere. */
  const fresh = (document: string) => document.replace(/^query \w+/, `query Fresh${++names}`);
  /** Three executions: the answers, and how many ran compiled. */
  const thrice = async (document: string, variables: Record<string, unknown>, token = pro) => {
    const before = graphqlExecutions.compiled;
    const answers = [];
    const statements = [];
    for (let k = 0; k < 3; k++) {
      const q0 = t.database.queryCount();
      const reply = await post(t, document, variables, token);
      statements.push(t.database.queryCount() - q0);
      answers.push({ status: reply.status, body: reply.body });
    }
    return { answers, statements, compiled: graphqlExecutions.compiled - before };
  };
  const expectAlike = (answers: unknown[]) => {
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  };

  it('a priced Matrix Calculator run: graphql-js first, compiled twice, three equal answers', async () => {
    const { answers, compiled } = await thrice(fresh(MATRIX_CALCULATOR), { input: DEAL });
    expect(compiled).toBe(2);
    const first = answers[0] as { status: number; body: any };
    expect(first.status).toBe(200);
    expect(first.body.data.matrixCalculator.__typename).toBe('MatrixCalculatorResult');
    expect(first.body.data.matrixCalculator.results.length).toBeGreaterThan(0);
    expectAlike(answers);
  });

  it('calculate (with a schedule page on every row) and matrix: the same', async () => {
    const calculate = await thrice(
      fresh(`query C($input: DealInput!) { calculate(input: $input) { __typename
        ... on CalculatorResult { priced_count results { organisation_id rate_bracket_id rate_min e_min repayment_min balloon
          commission amount_financed instalments repayment_frequency advance financier { name } schedule(first: 3) { index } } }
        ... on Error { message } } }`),
      { input: DEAL },
    );
    expect(calculate.compiled).toBe(2);
    expect((calculate.answers[0] as any).body.data.calculate.results.length).toBeGreaterThan(0);
    expectAlike(calculate.answers);
    const matrix = await thrice(
      fresh(`query X($input: DealInput!) { matrix(input: $input) { __typename
        ... on MatrixResult { results { organisation_id organisation_name financier { name }
          approvals { approval_id doc_level status missing_fields deposit_required rate_bracket_ids } } }
        ... on Error { message } } }`),
      { input: { cost: '50000', asset_value: 11 } },
    );
    expect(matrix.compiled).toBe(2);
    expect((matrix.answers[0] as any).body.data.matrix.results.length).toBeGreaterThan(0);
    expectAlike(matrix.answers);
  });

  it("a row's dataloaded fields (financier, product, rate bracket, approval and its brackets): the same statements", async () => {
    const { answers, statements, compiled } = await thrice(
      fresh(`query L($input: DealInput!) { matrixCalculator(input: $input) { __typename ... on MatrixCalculatorResult {
        results { financier { name } product { product_name } rate_bracket { id name }
          approval { name financier { name } rate_bracket_ids rate_brackets { id name } } } } } }`),
      { input: DEAL },
    );
    expect(compiled).toBe(2);
    expect(new Set(statements).size).toBe(1);
    expectAlike(answers);
  });

  it('an aliased root field, fragments, and @include / @skip by variable: the same', async () => {
    const { answers, compiled } = await thrice(
      fresh(`query A($input: DealInput!, $withFigures: Boolean!, $noNames: Boolean!) {
        run: matrixCalculator(input: $input) { kind: __typename ...Rows }
      }
      fragment Rows on MatrixCalculatorResult {
        count: priced_count
        results { id: rate_bracket_id ... on MatrixCalculatorRow @include(if: $withFigures) { e_min repayment_min }
          organisation_name @skip(if: $noNames) }
      }`),
      { input: DEAL, withFigures: true, noNames: true },
    );
    expect(compiled).toBe(2);
    const first = answers[0] as { status: number; body: any };
    expect(first.body.data.run.kind).toBe('MatrixCalculatorResult');
    expect(first.body.data.run.results[0]).toHaveProperty('e_min');
    expect(first.body.data.run.results[0]).not.toHaveProperty('organisation_name');
    expectAlike(answers);
  });

  it('typed errors: a ValidationError and an EntitlementRequiredError, union members with their fields', async () => {
    const invalid = await thrice(fresh(MATRIX_CALCULATOR), { input: { ...DEAL, term: 0 } });
    expect(invalid.compiled).toBe(2);
    expect((invalid.answers[0] as any).body.data.matrixCalculator.__typename).toBe('ValidationError');
    expectAlike(invalid.answers);
    const paywalled = await thrice(fresh(MATRIX_CALCULATOR), { input: DEAL }, free);
    expect(paywalled.compiled).toBe(2);
    expect((paywalled.answers[0] as any).body.data.matrixCalculator.__typename).toBe('EntitlementRequiredError');
    expectAlike(paywalled.answers);
  });

  it('an engine that throws: the masked error, alike on both executors', async () => {
    const engines = t.app.deps.services.engines as unknown as Record<string, unknown>;
    const originals = ['priceDeal', 'priceMarket', 'evaluateApprovals'].map((name) => [name, engines[name]] as const);
    for (const [name] of originals)
      engines[name] = () => {
        throw new Error('boom');
      };
    try {
      const { answers, compiled } = await thrice(fresh(MATRIX_CALCULATOR), { input: DEAL });
      expect(compiled).toBe(2);
      const first = answers[0] as { status: number; body: any };
      expect(first.body.data).toBeNull();
      expect(first.body.errors[0].message).toBe('Unexpected error.');
      expect(JSON.stringify(first.body)).not.toContain('boom');
      expectAlike(answers);
    } finally {
      for (const [name, original] of originals) engines[name] = original;
    }
  });

  it("variables graphql-js refuses: graphql-js's 400 and its exact message, every time, never compiled", async () => {
    const { answers, compiled } = await thrice(fresh(MATRIX_CALCULATOR), { input: { ...DEAL, term: 'sixty' } });
    expect(compiled).toBe(0);
    const first = answers[0] as { status: number; body: any };
    expect(first.status).toBe(400);
    expect(first.body.errors[0].message).toBe(
      'Variable "$input" got invalid value "sixty" at "input.term"; Int cannot represent non-integer value: "sixty"',
    );
    expectAlike(answers);
  });

  it("a 2,000-deep list in the variables: graphql-js's 400, every time, never compiled", async () => {
    const deep = JSON.parse(`${'['.repeat(2000)}1${']'.repeat(2000)}`);
    const { answers, compiled } = await thrice(fresh(MATRIX_CALCULATOR), { input: { ...DEAL, cost: deep } });
    expect(compiled).toBe(0);
    expect((answers[0] as { status: number }).status).toBe(400);
    expectAlike(answers);
  });

  it('a declared variable left out runs on graphql-js (graphql-jit would pass null); sent, it runs compiled', async () => {
    const document = fresh(`query S($input: DealInput!, $first: Int) { calculate(input: $input) {
      ... on CalculatorResult { results { rate_bracket_id schedule(first: $first) { index } } } } }`);
    const omitted = await thrice(document, { input: DEAL });
    expect(omitted.compiled).toBe(0);
    expectAlike(omitted.answers);
    const sent = await thrice(document, { input: DEAL, first: 2 });
    expect(sent.compiled).toBe(3);
    expectAlike(sent.answers);
  });

  it("a field the Prisma plugin loads (a rate bracket's product) keeps the whole operation on graphql-js", async () => {
    const { answers, compiled } = await thrice(
      fresh(`query P($input: DealInput!) { matrixCalculator(input: $input) { ... on MatrixCalculatorResult {
        results { rate_bracket { id product { id product_name } } } } } }`),
      { input: DEAL },
    );
    expect(compiled).toBe(0);
    expectAlike(answers);
  });

  it('a document of two operations: the engine operation named runs compiled, the other never', async () => {
    // Not renamed by fresh(): both names are the operations asked for (no other test sends this text).
    const document = `query Two { me { __typename } }
      query Run($input: DealInput!) { calculate(input: $input) { __typename ... on CalculatorResult { priced_count } } }`;
    const named = async (operationName: string, variables: Record<string, unknown>) => {
      const before = graphqlExecutions.compiled;
      const answers = [];
      for (let k = 0; k < 3; k++) {
        const res = await fetch(`${t.baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${pro}` },
          body: JSON.stringify({ query: document, variables, operationName }),
        });
        answers.push({ status: res.status, body: await res.json() });
      }
      return { answers, compiled: graphqlExecutions.compiled - before };
    };
    const run = await named('Run', { input: DEAL });
    expect(run.compiled).toBe(2);
    expect(run.answers[0].body.data.calculate.__typename).toBe('CalculatorResult');
    expectAlike(run.answers);
    const other = await named('Two', {});
    expect(other.compiled).toBe(0);
    expect(other.answers[0].body.data.me.__typename).toBe('User');
    expectAlike(other.answers);
  });

  it('another root field beside an engine run keeps the operation on graphql-js; so does an operation without one', async () => {
    const beside = await thrice(
      fresh(`query B($input: DealInput!) { me { __typename } calculate(input: $input) { __typename } }`),
      { input: DEAL },
    );
    expect(beside.compiled).toBe(0);
    expectAlike(beside.answers);
    const other = await thrice(fresh('query O { me { __typename } }'), {});
    expect(other.compiled).toBe(0);
  });
});

describe('What compiled execution may cost (CompileAllowance): bounded memory, bounded compilations', () => {
  const operation = (name: string) => parse(`query ${name} { me { __typename } }`).definitions[0] as never;
  const compiledSeen = () => ({ executions: 2, compiled: { leavesAsResolved: true, run: async () => null } });

  it('at most perMinute compilations start in any minute', () => {
    let now = 0;
    const allowance = new CompileAllowance(10, 3, () => now);
    expect([allowance.mayCompile(), allowance.mayCompile(), allowance.mayCompile()]).toEqual([true, true, true]);
    now = 59_999;
    expect(allowance.mayCompile()).toBe(false);
    now = 60_001;
    expect(allowance.mayCompile()).toBe(true);
    expect(allowance.mayCompile()).toBe(true);
    expect(allowance.mayCompile()).toBe(true);
    expect(allowance.mayCompile()).toBe(false);
  });

  it('at most capacity operations stay compiled; the least recently run loses its compiled form first', () => {
    const allowance = new CompileAllowance(2, 30, () => 0);
    const [a, b, c] = [operation('A'), operation('B'), operation('C')];
    const [seenA, seenB, seenC] = [compiledSeen(), compiledSeen(), compiledSeen()];
    allowance.ran(a, seenA);
    allowance.ran(b, seenB);
    allowance.ran(a, seenA); // A ran again: B is now the least recently run
    allowance.ran(c, seenC);
    expect(allowance.size).toBe(2);
    expect(seenB.compiled).toBeUndefined();
    expect(seenA.compiled).toBeDefined();
    expect(seenC.compiled).toBeDefined();
  });
});
