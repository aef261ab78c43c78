/**
 * Query cost: a request's size is known from its document before it runs (docs/graphql.md). Lists cost by the items
 * they can hold, fragments and aliases count wherever they are used, and an over-budget operation is a 400 that
 * runs nothing and meters nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import {
  Kind,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  parse,
  type OperationDefinitionNode,
} from 'graphql';
import { MAX_ALIASES, MAX_COST } from '../../src/graphql-server/limits.ts';
import {
  DECLARED_SIZES,
  analyseOperation,
  isSizedList,
  sizesOf,
  type CatalogueSizes,
} from '../../src/graphql-server/cost.ts';
import { DEFAULT_PAGE_SIZE } from '../../src/graphql/builder.ts';
import { schema } from '../../src/graphql-server/schema.ts';
import { loadSnapshot } from '../../src/modules/catalogue/snapshot.ts';
import { catalogueIndexBuilders } from '../../src/app-services.ts';
import { DEAL, messages, post, type GraphQLReply } from './http.ts';

let t: TestApp;
let free: string;
let freeUserId: number;
beforeAll(async () => {
  t = await startTestApp();
  free = (await t.login('free.broker@demo.test')).access;
  freeUserId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'free.broker@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});

/** Metered runs recorded for the Free user today (every metric). */
async function runsMetered(): Promise<number> {
  const rows = await t.database.prisma.dailyUsage.findMany({ where: { user_id: freeUserId } });
  return rows.reduce((sum, r) => sum + r.count, 0);
}

const calculate = (selection: string, fragments = '') => `
  query Q($input: DealInput!) { calculate(input: $input) { __typename ... on CalculatorResult { ${selection} } ... on Error { message } } }
  ${fragments}`;

const costOf = (reply: GraphQLReply): number => {
  const m = /Query cost (\d+) exceeds/.exec(messages(reply).join(' '));
  if (!m) throw new Error(`not a cost refusal: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
  return Number(m[1]);
};

function expectRefused(reply: GraphQLReply, pattern: RegExp): void {
  expect(reply.status).toBe(400);
  expect(reply.body.data ?? null).toBeNull();
  expect(messages(reply).join(' ')).toMatch(pattern);
}

describe('Amplification: a daily schedule multiplied by aliases and fragments is refused before it runs', () => {
  const rows = Array.from(
    { length: 8 },
    (_, k) => `s${k}: schedule { index opening payment interest principal balance }`,
  ).join(' ');
  const results = Array.from({ length: 7 }, (_, k) => `r${k}: results { ...Rows }`).join(' ');
  const attack = calculate(results, `fragment Rows on CalculatorRow { ${rows} }`);

  it('7 aliased results x a fragment of 8 aliased schedules: 400, a small answer, and no allowance consumed', async () => {
    const before = await runsMetered();
    const reply = await post(t, attack, { input: { ...DEAL, repayment_frequency: 'daily' } }, free);
    expectRefused(reply, /aliases/);
    expect(reply.bytes).toBeLessThan(2000);
    expect(await runsMetered()).toBe(before);
  });

  it('the same shape within the alias limit (one results, 8 schedule pages of 1,000) is refused by cost, unmetered', async () => {
    const pages = Array.from({ length: 8 }, (_, k) => `s${k}: schedule(first: 1000) { index payment }`).join(' ');
    const before = await runsMetered();
    const reply = await post(
      t,
      calculate('results { ...Rows }', `fragment Rows on CalculatorRow { ${pages} }`),
      { input: { ...DEAL, repayment_frequency: 'daily' } },
      free,
    );
    expectRefused(reply, new RegExp(`exceeds the budget of ${MAX_COST}`));
    expect(costOf(reply)).toBeGreaterThan(MAX_COST);
    expect(reply.bytes).toBeLessThan(2000);
    expect(await runsMetered()).toBe(before);
  });

  it('a schedule page beyond its maximum is refused, as a literal or a variable', async () => {
    const before = await runsMetered();
    const literal = await post(t, calculate('results { schedule(first: 1001) { index } }'), { input: DEAL }, free);
    expectRefused(literal, /schedule\(first:\) must be between 0 and 1000/);
    const variable = await post(
      t,
      `query Q($input: DealInput!, $n: Int) { calculate(input: $input) { ... on CalculatorResult { results { schedule(first: $n) { index } } } } }`,
      { input: DEAL, n: 5000 },
      free,
    );
    expectRefused(variable, /schedule\(first:\) must be between 0 and 1000/);
    expect(await runsMetered()).toBe(before);
  });
});

describe('Fragments: a fragment costs as much at every spread as its selection would inline', () => {
  const page = 'schedule(first: 120) { index opening payment interest principal balance }';
  const spreads = (n: number) => Array.from({ length: n }, (_, k) => `r${k}: results { ...Page }`).join(' ');
  const inline = (n: number) => Array.from({ length: n }, (_, k) => `r${k}: results { ${page} }`).join(' ');

  it('spread 8 times it counts 8 times: refused, at exactly the cost of the inline query', async () => {
    const spread = await post(
      t,
      calculate(spreads(8), `fragment Page on CalculatorRow { ${page} }`),
      { input: DEAL },
      free,
    );
    const inlined = await post(t, calculate(inline(8)), { input: DEAL }, free);
    expect(costOf(spread)).toBe(costOf(inlined));
    const nested = await post(
      t,
      calculate(spreads(8), `fragment Page on CalculatorRow { ...Inner } fragment Inner on CalculatorRow { ${page} }`),
      { input: DEAL },
      free,
    );
    expect(costOf(nested)).toBe(costOf(inlined));
    expect(spread.status).toBe(400);
  });

  it('spread once it runs (and a row of the answer holds the 60 instalments of the deal)', async () => {
    const reply = await post(
      t,
      calculate(spreads(1), `fragment Page on CalculatorRow { ${page} }`),
      { input: DEAL },
      free,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data.calculate.__typename).toBe('CalculatorResult');
    expect(reply.body.data.calculate.r0[0].schedule).toHaveLength(60);
  });
});

describe('Aliases: counted at every fragment spread', () => {
  it(`a fragment holding 5 aliases, spread in 7 aliased lists, is 42 aliases: over the limit of ${MAX_ALIASES}`, async () => {
    const fragment = `fragment Names on CalculatorRow { ${Array.from({ length: 5 }, (_, k) => `n${k}: rate_bracket_name`).join(' ')} }`;
    const before = await runsMetered();
    const reply = await post(
      t,
      calculate(Array.from({ length: 7 }, (_, k) => `r${k}: results { ...Names }`).join(' '), fragment),
      { input: DEAL },
      free,
    );
    expectRefused(reply, /42 aliases \(counted at every fragment spread\) exceed the limit of 30/);
    // The same document again (now from Yoga's validation cache), and with the legacy JSON media type: still a 400.
    const again = await post(
      t,
      calculate(Array.from({ length: 7 }, (_, k) => `r${k}: results { ...Names }`).join(' '), fragment),
      { input: DEAL },
      free,
      { accept: 'application/json' },
    );
    expectRefused(again, /42 aliases/);
    expect(await runsMetered()).toBe(before);
  });
});

describe('Distinct metered fields run together, each metered once; one metered field under two names is refused', () => {
  /** Daily runs per metric for a user. */
  async function usageOf(userId: number): Promise<{ calculator: number; matrix: number }> {
    const rows = await t.database.prisma.dailyUsage.findMany({ where: { user_id: userId } });
    const out = { calculator: 0, matrix: 0 };
    for (const r of rows) out[r.metric as 'calculator' | 'matrix'] += r.count;
    return out;
  }

  it('calculate and matrix in one request both answer, each using one run of its own allowance', async () => {
    const pro = (await t.login('broker.admin@demo.test')).access;
    const proId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
    const before = await usageOf(proId);
    const reply = await post(
      t,
      `query Dashboard($input: DealInput!) {
        calculate(input: $input) { __typename ... on CalculatorResult { priced_count results { rate_bracket_id } } }
        matrix(input: $input) { __typename ... on MatrixResult { destination_count results { organisation_id } } } }`,
      { input: DEAL },
      pro,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.calculate.__typename).toBe('CalculatorResult');
    expect(reply.body.data.calculate.results.length).toBeGreaterThan(0);
    expect(reply.body.data.matrix.__typename).toBe('MatrixResult');
    expect(reply.body.data.matrix.results.length).toBeGreaterThan(0);
    expect(await usageOf(proId)).toEqual({ calculator: before.calculator + 1, matrix: before.matrix + 1 });
  });

  it('one metered field written twice under one name (merged by GraphQL) runs, and is metered, once', async () => {
    const before = await runsMetered();
    const reply = await post(
      t,
      `query Q($input: DealInput!) { ...Run calculate(input: $input) { __typename } } fragment Run on Query { calculate(input: $input) { __typename } }`,
      { input: DEAL },
      free,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data.calculate.__typename).toBe('CalculatorResult');
    expect(await runsMetered()).toBe(before + 1);
  });

  it('calculate under two aliases, directly or through a fragment, is refused and meters nothing', async () => {
    const before = await runsMetered();
    const twice = await post(
      t,
      `query Q($input: DealInput!) { a: calculate(input: $input) { __typename } b: calculate(input: $input) { __typename } }`,
      { input: DEAL },
      free,
    );
    expectRefused(twice, /calculate is selected under more than one name/);
    expect(twice.body.errors[0].extensions.code).toBe('METERED_FIELD_LIMIT');
    const viaFragment = await post(
      t,
      `query Q($input: DealInput!) { ...Run a: calculate(input: $input) { __typename } } fragment Run on Query { calculate(input: $input) { __typename } }`,
      { input: DEAL },
      free,
    );
    expectRefused(viaFragment, /calculate is selected under more than one name/);
    expect(await runsMetered()).toBe(before);
  });
});

describe('A dashboard-sized query passes', () => {
  it('results with a few fields and their financier, plus one schedule page each, cost less than the budget and run', async () => {
    const before = await runsMetered();
    const reply = await post(
      t,
      calculate(`priced_count results {
      rate_bracket_id product_name rate_min repayment_min commission financier { name }
      schedule(first: 12) { index payment balance } }`),
      { input: DEAL },
      free,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    const rows = reply.body.data.calculate.results;
    expect(rows.length).toBeGreaterThan(3);
    for (const r of rows)
      expect(r.schedule.map((s: { index: number }) => s.index)).toEqual(Array.from({ length: 12 }, (_, k) => k + 1));
    expect(await runsMetered()).toBe(before + 1);
  });

  it('a full budget of schedule rows is a few MB, not hundreds: measured bytes per unit of cost', async () => {
    const reply = await post(
      t,
      calculate(
        'results { rate_bracket_id schedule(first: 600) { index opening payment interest principal balance } }',
      ),
      { input: { ...DEAL, repayment_frequency: 'daily' } },
      free,
    );
    expect(reply.status).toBe(200);
    const rows = reply.body.data.calculate.results;
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((r: { schedule: unknown[] }) => r.schedule.length === 600)).toBe(true);
    const cost = rows.length * (1 + 1 + 600 * (1 + 6)); // what these rows cost (the priced rows, not the catalogue's)
    expect((reply.bytes / cost) * MAX_COST).toBeLessThan(5 * 1024 * 1024);
  });

  it('a later page starts after its offset, and the last page ends at the final instalment', async () => {
    const reply = await post(
      t,
      calculate('results { instalments schedule(first: 12, offset: 54) { index } }'),
      { input: DEAL },
      free,
    );
    const row = reply.body.data.calculate.results[0];
    expect(row.schedule.map((s: { index: number }) => s.index)).toEqual([55, 56, 57, 58, 59, 60]);
    expect(row.instalments).toBe(60);
  });

  it('at the declared catalogue scale (12,000 rows) results with 10 fields are within budget without reading the catalogue', async () => {
    // Anonymous: costed at the declared scale; the refusal that follows is the typed UnauthenticatedError, not a cost.
    const reply = await post(
      t,
      calculate(
        'results { rate_bracket_id rate_bracket_name product_name organisation_name rate_min rate_max repayment_min repayment_max commission instalments }',
      ),
      { input: DEAL },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data.calculate.__typename).toBe('UnauthenticatedError');
  });
});

describe('List sizes: every list is priced by the most items it can really hold', () => {
  const priced = (document: string, sizes: CatalogueSizes): number => {
    const parsed = parse(document);
    const operation = parsed.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    )!;
    return analyseOperation(schema, operation, {}, sizes).cost;
  };

  it('every list field of the schema has a size of its own: a cost.ts table, its listSize extension, or its page', () => {
    const unsized: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        if (!isListType(getNullableType(field.type))) continue;
        if (field.name === 'edges' && type.name.endsWith('Connection')) continue; // priced by the page asked for
        if (!isSizedList(type.name, field)) unsized.push(`${type.name}.${field.name}`);
      }
    }
    expect(unsized).toEqual([]);
  });

  it("a card's brackets, each with its product's brackets, cost the largest card times the largest product", () => {
    const nested = `{ rateCard { ... on RateCard { rate_brackets { id product { rate_brackets { id } } } } } }`;
    const small = { ...DECLARED_SIZES, bracketsPerCard: 3, bracketsPerProduct: 2 };
    // rateCard (1) + rate_brackets: 3 x (1 + id + product (1 + 2 x (1 + id)))
    expect(priced(nested, small)).toBe(1 + 3 * (1 + 1 + (1 + 2 * 2)));
    const large = { ...DECLARED_SIZES, bracketsPerCard: 5_000, bracketsPerProduct: 5_000 };
    expect(priced(nested, large)).toBe(1 + 5_000 * (1 + 1 + (1 + 5_000 * 2)));
    expect(priced(nested, large)).toBeGreaterThan(MAX_COST);
  });

  it("a card's products, and an asset's mappings, are priced by the catalogue's largest", () => {
    const products = `{ rateCard { ... on RateCard { products { id rate_brackets { id } } } } }`;
    expect(priced(products, { ...DECLARED_SIZES, productsPerCard: 4, bracketsPerProduct: 10 })).toBe(
      1 + 4 * (1 + 1 + 10 * 2),
    );
    const mappings = `{ assets { ... on QueryAssetsConnection { edges { node { asset_rate_brackets { id } } } } } }`;
    const few = priced(mappings, { ...DECLARED_SIZES, mappingsPerAsset: 1 });
    const many = priced(mappings, { ...DECLARED_SIZES, mappingsPerAsset: 11 });
    expect(many - few).toBe(DEFAULT_PAGE_SIZE * 10 * 2); // each node's list: 10 more mappings of 2 values each
  });

  it('sizesOf measures the catalogue: the largest card, product and asset, from the snapshot the engines read', async () => {
    const prisma = t.database.prisma;
    const product = await prisma.product.create({ data: { organisation_id: 2, product_name: 'Sized' } });
    await prisma.rateBracket.createMany({
      data: Array.from({ length: 150 }, (_, i) => ({
        name: `S${i}`,
        organisation_id: 2,
        product_id: product.id,
        base_min: 5,
        base_max: 6,
      })),
    });
    const sizes = sizesOf(await loadSnapshot(prisma, catalogueIndexBuilders));
    const most = (rows: { _count: { _all: number } }[]) => Math.max(...rows.map((r) => r._count._all));
    const [productsPerCard, bracketsPerCard, bracketsPerProduct, mappingsPerAsset] = await Promise.all([
      prisma.product.groupBy({ by: ['organisation_id'], _count: { _all: true } }).then(most),
      prisma.rateBracket.groupBy({ by: ['organisation_id'], _count: { _all: true } }).then(most),
      prisma.rateBracket.groupBy({ by: ['product_id'], _count: { _all: true } }).then(most),
      prisma.assetRateBracket.groupBy({ by: ['asset_id'], _count: { _all: true } }).then(most),
    ]);
    expect(bracketsPerProduct).toBe(150);
    expect(sizes).toMatchObject({ productsPerCard, bracketsPerCard, bracketsPerProduct, mappingsPerAsset });
    expect(sizes.recordsPerCard).toBeGreaterThanOrEqual(bracketsPerCard + 1);
  });
});
