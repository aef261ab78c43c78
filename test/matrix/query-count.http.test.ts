/**
 * The catalogue is loaded in a constant number of database queries per request, whatever its size
 * (src/modules/catalogue/snapshot.ts; docs/architecture.md). A warm POST /api/v1/matrix-calculator/ (and GraphQL
 * matrixCalculator) costs two statements: the caller with the catalogue version, and the metering (which also records
 * the recent scenario). The bound is three.
 * A cold run (after a catalogue write bumps the version) reloads every table once: also a constant.
 *
 * Method: measure on the demo catalogue, then add nine copies of it (the seed kit's copyCatalogue: financiers, products,
 * brackets, mappings, approvals, links, in bulk) to make it ten times the size, and measure again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from 'graphql-request';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let pro: string;
const DEAL = {
  cost: '50000',
  asset_value: 11,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
} as const;
const QUERY = gql`
  query Count($input: DealInput!) {
    matrixCalculator(input: $input) { __typename ... on MatrixCalculatorResult { results { approval_id e_min } priced_count destination_count } }
  }`;

beforeAll(async () => {
  t = await startTestApp();
  // Unlimited runs, so metering never refuses a measured request.
  await seedKit(t.database.prisma).planOverrides(8, { calculator_allowance: null, matrix_allowance: null });
  pro = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

interface Measured {
  queries: number;
  rows: number;
  priced: number;
  destinations: number;
}

async function restRun(): Promise<Measured> {
  const before = t.database.queryCount();
  const res = await t.rest('POST', '/api/v1/matrix-calculator/', { token: pro, body: DEAL });
  const queries = t.database.queryCount() - before;
  expect(res.status).toBe(200);
  return {
    queries,
    rows: res.body.results.length,
    priced: res.body.priced_count,
    destinations: res.body.destination_count,
  };
}

async function graphqlRun(): Promise<Measured> {
  const client = t.graphql(pro);
  const before = t.database.queryCount();
  const data: any = await client.request(QUERY, { input: DEAL });
  const queries = t.database.queryCount() - before;
  expect(data.matrixCalculator.__typename).toBe('MatrixCalculatorResult');
  const r = data.matrixCalculator;
  return { queries, rows: r.results.length, priced: r.priced_count, destinations: r.destination_count };
}

/** Bumps the catalogue version without changing what the engines read (the row trigger fires on any UPDATE of a row). */
async function bumpCatalogue(): Promise<void> {
  await t.database.prisma.$executeRawUnsafe('UPDATE organisations SET name = name WHERE id = 1');
}

describe('Catalogue snapshot: a constant number of database queries per request, whatever the catalogue size', () => {
  const demo: Record<string, Measured> = {};
  const big: Record<string, Measured> = {};

  beforeAll(async () => {
    // Demo catalogue: a cold run after a version bump, then warm runs.
    await restRun();
    await bumpCatalogue();
    demo.restCold = await restRun();
    demo.rest = await restRun();
    demo.graphql = await graphqlRun();
    await bumpCatalogue();
    demo.graphqlCold = await graphqlRun();
    demo.graphqlWarm = await graphqlRun();

    await seedKit(t.database.prisma).copyCatalogue(9);
    big.restCold = await restRun(); // the version moved: this run reloads the snapshot
    big.rest = await restRun();
    big.graphql = await graphqlRun();
    await bumpCatalogue();
    big.graphqlCold = await graphqlRun();
    big.graphqlWarm = await graphqlRun();
  }, 300_000);

  it('the catalogue really is ten times the size, and the runs read all of it', async () => {
    const prisma = t.database.prisma;
    expect(await prisma.approval.count()).toBe(300);
    expect(await prisma.rateBracket.count()).toBe(400);
    expect(big.rest.rows).toBe(10 * demo.rest.rows);
    expect(big.rest.priced).toBe(10 * demo.rest.priced);
    expect(big.rest.destinations).toBe(10 * demo.rest.destinations);
    expect(big.graphql.rows).toBe(big.rest.rows);
  });

  it('REST: a warm POST /matrix-calculator/ costs the same number of queries on the 10x catalogue, at most 3 (auth, allowance, catalogue version)', () => {
    expect(demo.rest.queries).toBe(2);
    expect(big.rest.queries).toBe(demo.rest.queries);
  });

  it('GraphQL: a warm matrixCalculator costs the same number of queries on the 10x catalogue, at most 3', () => {
    expect(demo.graphql.queries).toBe(2);
    expect(demo.graphqlWarm.queries).toBe(demo.graphql.queries);
    expect(big.graphql.queries).toBe(demo.graphql.queries);
    expect(big.graphqlWarm.queries).toBe(demo.graphql.queries);
  });

  it('a cold run (snapshot reload after a catalogue write) is also a constant number of queries, more than a warm one', () => {
    expect(demo.restCold.queries).toBeGreaterThan(demo.rest.queries);
    expect(big.restCold.queries).toBe(demo.restCold.queries);
    expect(big.graphqlCold.queries).toBe(demo.graphqlCold.queries);
  });
});
