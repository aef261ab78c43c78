/**
 * `approval` on Matrix and Matrix Calculator result rows is batched through a dataloader: asking for it (with its
 * rate-bracket ids and financier) on every row costs the same few queries on the demo catalogue and on ten times it
 * (the seed kit's copyCatalogue), never one per row. Same method as test/matrix/query-count.http.test.ts.
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
const APPROVAL = 'approval { id name doc_level max_asset_cost asset_ids rate_bracket_ids financier { id name } }';
const CALCULATOR = (withApproval: boolean) => gql`
  query Calc($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename ... on MatrixCalculatorResult { results { approval_id ${withApproval ? APPROVAL : ''} } }
    }
  }`;
const MATRIX = (withApproval: boolean) => gql`
  query Matrix($input: DealInput!) {
    matrix(input: $input) {
      __typename ... on MatrixResult { results { approvals { approval_id ${withApproval ? APPROVAL : ''} } } }
    }
  }`;

beforeAll(async () => {
  t = await startTestApp();
  await seedKit(t.database.prisma).planOverrides(8, { calculator_allowance: null, matrix_allowance: null });
  pro = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

interface Measured {
  queries: number;
  rows: any[];
}

async function measure(document: string, field: 'matrix' | 'matrixCalculator'): Promise<Measured> {
  const client = t.graphql(pro);
  // Warm: the snapshot is loaded. After the long catalogue copy the server may have just closed the idle keep-alive
  // socket this request went out on (fetch failed): that request never reached the app, so it is sent again.
  await client.request(document, { input: DEAL }).catch((e) => {
    if (!(e instanceof TypeError)) throw e;
    return client.request(document, { input: DEAL });
  });
  const before = t.database.queryCount();
  const data: any = await client.request(document, { input: DEAL });
  const queries = t.database.queryCount() - before;
  const result = data[field];
  const rows = field === 'matrix' ? result.results.flatMap((g: any) => g.approvals) : (result.results as any[]);
  return { queries, rows };
}

describe('approval on result rows: a constant number of queries, whatever the number of rows', () => {
  const demo: Record<string, Measured> = {};
  const big: Record<string, Measured> = {};

  beforeAll(async () => {
    demo.calc = await measure(CALCULATOR(false), 'matrixCalculator');
    demo.calcApproval = await measure(CALCULATOR(true), 'matrixCalculator');
    demo.matrix = await measure(MATRIX(false), 'matrix');
    demo.matrixApproval = await measure(MATRIX(true), 'matrix');
    await seedKit(t.database.prisma).copyCatalogue(9);
    big.calc = await measure(CALCULATOR(false), 'matrixCalculator');
    big.calcApproval = await measure(CALCULATOR(true), 'matrixCalculator');
    big.matrix = await measure(MATRIX(false), 'matrix');
    big.matrixApproval = await measure(MATRIX(true), 'matrix');
  }, 300_000);

  it('the 10x catalogue really has ten times the rows, each with its own approval', () => {
    expect(demo.calcApproval.rows.length).toBeGreaterThan(0);
    expect(big.calcApproval.rows.length).toBe(10 * demo.calcApproval.rows.length);
    expect(big.matrixApproval.rows.length).toBe(10 * demo.matrixApproval.rows.length);
    for (const row of [...big.calcApproval.rows, ...big.matrixApproval.rows]) {
      expect(row.approval.id).toBe(row.approval_id);
      expect(row.approval.financier.id).toBeTypeOf('number');
    }
  });

  it('Matrix Calculator: approval on every row adds at most 3 queries (approvals, their brackets, financiers), the same at 10x', () => {
    const added = demo.calcApproval.queries - demo.calc.queries;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(3);
    expect(big.calc.queries).toBe(demo.calc.queries);
    expect(big.calcApproval.queries).toBe(demo.calcApproval.queries);
  });

  it('Matrix: approval on every approval result adds at most 3 queries, the same at 10x', () => {
    const added = demo.matrixApproval.queries - demo.matrix.queries;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(3);
    expect(big.matrix.queries).toBe(demo.matrix.queries);
    expect(big.matrixApproval.queries).toBe(demo.matrixApproval.queries);
  });
});
