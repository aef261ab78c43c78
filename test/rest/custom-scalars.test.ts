/**
 * Every custom scalar an input can carry runs through a REST route exactly as through GraphQL: the bridge hands
 * `execute` the raw JSON, so each scalar's parseValue runs once. Money accepts plain decimals only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isInputObjectType, isScalarType, isSpecifiedScalarType, type GraphQLInputType } from 'graphql';
import { schema } from '../../src/graphql-server/schema.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const DEAL = { asset_value: 11, term: 48, advance_arrears: 'arrears', repayment_frequency: 'monthly' };
const future = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

/** A REST request that carries each custom input scalar, with a valid value: it must not answer 500. */
const THROUGH_REST: Record<string, () => Promise<{ status: number; body: any }>> = {
  DateTime: () =>
    t.rest('POST', '/api/v1/api-tokens', { token, body: { name: 'scalar', scope: 'read', expires_at: future() } }),
  Decimal: () => t.rest('POST', '/api/v1/calculator/', { token, body: { ...DEAL, cost: '50000.50' } }),
  JSON: () => t.rest('PATCH', '/api/v1/notifications/preferences', { token, body: { categories: { account: true } } }),
};

/** Custom scalars reachable from any argument or input field of the schema. */
function customInputScalars(): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (type: GraphQLInputType) => {
    const named = getNamedType(type);
    if (seen.has(named.name)) return;
    seen.add(named.name);
    if (isScalarType(named) && !isSpecifiedScalarType(named)) found.add(named.name);
    if (isInputObjectType(named)) for (const f of Object.values(named.getFields())) visit(f.type);
  };
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) for (const arg of field.args) visit(arg.type);
  }
  return [...found].sort();
}

describe('Every custom input scalar runs through a REST route (parsed once, never a 500)', () => {
  it('the table names every custom scalar an input can carry (add the next one here)', () => {
    expect(Object.keys(THROUGH_REST).sort()).toEqual(customInputScalars());
  });

  it.each(Object.keys(THROUGH_REST))('%s', async (scalar) => {
    const res = await THROUGH_REST[scalar]();
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });
});

describe('POST /api-tokens expires_at: an ISO 8601 instant in the future', () => {
  it('a future expires_at is stored and echoed', async () => {
    const expires = future();
    const res = await t.rest('POST', '/api/v1/api-tokens', {
      token,
      body: { name: 'expiring', scope: 'read', expires_at: expires },
    });
    expect(res.status).toBe(201);
    expect(res.body.expires_at).toBe(expires);
  });

  it('a past expires_at is 400 naming the field', async () => {
    const res = await t.rest('POST', '/api/v1/api-tokens', {
      token,
      body: { name: 'past', scope: 'read', expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['expires_at']);
  });

  it.each([['not a date'], ['1'], ['2024'], [12345], [true], [{}], ['March 7, 2030']])(
    '%j is 400 naming the field',
    async (expires_at) => {
      const res = await t.rest('POST', '/api/v1/api-tokens', {
        token,
        body: { name: 'bad', scope: 'read', expires_at },
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['expires_at']);
    },
  );
});

describe('Money: a JSON number or a plain decimal string, nothing else', () => {
  const cost = (value: unknown) => t.rest('POST', '/api/v1/calculator/', { token, body: { ...DEAL, cost: value } });

  it.each([[50000], [50000.5], ['50000'], ['50000.50'], ['0050000'], [5e4]])('accepts %j', async (value) => {
    const res = await cost(value);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it.each([
    ['0x10'],
    ['0b101'],
    ['0o17'],
    ['1e4'],
    ['1E4'],
    [' 50000'],
    ['50000 '],
    ['\t50000'],
    ['+50000'],
    ['50,000'],
    ['50000.'],
    ['.5'],
    [''],
    [' '],
    ['Infinity'],
    ['-Infinity'],
    ['NaN'],
    ['1_000'],
    ['٥٠٠٠٠'],
    ['9'.repeat(400)],
    [true],
    [null],
    [[]],
    [{}],
    [[50000]],
  ])('refuses %j with 400 naming cost', async (value) => {
    const res = await cost(value);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['cost']);
  });

  it('GraphQL literals follow the same spelling rules', async () => {
    const query = (literal: string) =>
      t
        .graphql(token)
        .rawRequest<any>(`query { calculate(input: {cost: ${literal}, asset_value: 11, term: 48}) { __typename } }`)
        .then(
          () => 'ok',
          () => 'refused',
        );
    expect(await query('"0x10"')).toBe('refused');
    expect(await query('"1e4"')).toBe('refused');
    expect(await query('"50000.50"')).toBe('ok');
    expect(await query('50000')).toBe('ok');
  });
});
