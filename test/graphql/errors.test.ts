/**
 * What errors tell a caller: in prod, nothing about fields the caller did not name (no "Did you mean ...?", no
 * introspection); in every environment, nothing about an unexpected failure (masked), which is logged instead.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { loggedEvents } from '../../testkit/log-recorder.ts';
import { DEAL, messages, post } from './http.ts';

let local: TestApp;
let prod: TestApp;
let localToken: string;
let prodToken: string;
beforeAll(async () => {
  local = await startTestApp();
  prod = await startTestApp({ config: { environment: 'prod', graphqlExplorer: false } });
  localToken = (await local.login('broker.admin@demo.test')).access;
  prodToken = (await prod.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await local?.close();
  await prod?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const misspelt = {
  field: '{ mee { __typename } }',
  literal: 'query { calculate(input: { cots: 1 }) { __typename } }',
  variable: [
    'query Q($input: DealInput!) { calculate(input: $input) { __typename } }',
    { input: { ...DEAL, cots: 1, repayment_frequency: 'monthy' } },
  ],
} as const;

describe('Field suggestions: absent in prod', () => {
  it('an unknown field, an unknown input field in the document and in the variables name nothing else', async () => {
    for (const reply of [
      await post(prod, misspelt.field, {}, prodToken),
      await post(prod, misspelt.literal, {}, prodToken),
      await post(prod, misspelt.variable[0], misspelt.variable[1], prodToken),
    ]) {
      expect(reply.status).toBe(400);
      expect(messages(reply).length).toBeGreaterThan(0);
      expect(JSON.stringify(reply.body)).not.toMatch(/Did you mean/);
    }
    expect(messages(await post(prod, misspelt.field, {}, prodToken))).toEqual([
      'Cannot query field "mee" on type "Query".',
    ]);
  });

  it('introspection is refused', async () => {
    const reply = await post(prod, '{ __schema { types { name } } }', {}, prodToken);
    expect(reply.status).toBe(400);
    expect(messages(reply).join(' ')).toMatch(/introspection/i);
  });
});

describe('Introspection: allowed outside prod, within every limit', () => {
  it("GraphiQL's full introspection query answers the schema", async () => {
    const reply = await post(
      local,
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
      {},
      localToken,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.__schema.types.map((t: { name: string }) => t.name)).toContain('CalculatorRow');
  });
});

describe('Field suggestions: present outside prod', () => {
  it('the same mistakes are answered with a suggestion', async () => {
    expect(messages(await post(local, misspelt.field, {}, localToken))).toEqual([
      'Cannot query field "mee" on type "Query". Did you mean "me"?',
    ]);
    expect(messages(await post(local, misspelt.literal, {}, localToken)).join(' ')).toMatch(/Did you mean "cost"\?/);
    expect(messages(await post(local, misspelt.variable[0], misspelt.variable[1], localToken)).join(' ')).toMatch(
      /Did you mean/,
    );
  });
});

describe('Unexpected errors: masked in every environment, logged like REST', () => {
  it('a resolver failing on a broken database answers a masked error with no stack or internal message, and logs them', async () => {
    await local.database.prisma.$executeRawUnsafe('ALTER TABLE scenarios RENAME TO scenarios_gone');
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'development'; // Yoga would otherwise add the original error in development
    try {
      const reply = await post(
        local,
        'query S($kind: ScenarioKind) { scenarios(kind: $kind) { __typename } }',
        { kind: 'saved' },
        localToken,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.errors).toEqual([
        {
          message: 'Unexpected error.',
          locations: expect.any(Array),
          path: ['scenarios'],
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        },
      ]);
      expect(JSON.stringify(reply.body)).not.toMatch(/scenarios_gone|does not exist|stack|at .*\.ts/);
    } finally {
      process.env.NODE_ENV = nodeEnv;
      await local.database.prisma.$executeRawUnsafe('ALTER TABLE scenarios_gone RENAME TO scenarios');
    }
    const logged = loggedEvents('graphql.unexpected_error');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 'error',
      path: ['scenarios'],
      message: expect.stringMatching(/scenarios/),
    });
    expect(logged[0].stack).toMatch(/\n\s+at /);
    expect(JSON.stringify(logged[0])).not.toContain(localToken);
  });

  it('a refused or invalid request is not logged as unexpected', async () => {
    await post(local, misspelt.field, {}, localToken);
    await post(local, '{ me { __typename } }', {}, 'not-a-token');
    expect(loggedEvents('graphql.unexpected_error')).toEqual([]);
  });
});
