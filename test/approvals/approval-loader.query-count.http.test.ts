/**
 * `approval` on Matrix and Matrix Calculator result rows is batched through dataloaders: asking for it, with its
 * rate-bracket ids, its rate brackets and its financier, on every row costs the same statements on the demo catalogue
 * and on 24 times it (the seed kit's copyCatalogue), where both surfaces return 300 rows or more, never one per row.
 * Same method as test/matrix/query-count.http.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from 'graphql-request';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let pro: string;
// The demo deal with the most rows (a ute: 17 Matrix approval results, 13 Matrix Calculator rows).
const DEAL = {
  cost: '20000',
  asset_value: 12,
  term: 36,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
} as const;
const SCALE = 24;
const APPROVAL =
  'approval { id name doc_level max_asset_cost asset_ids rate_bracket_ids rate_brackets { id name product_id } financier { id name } }';
const CALCULATOR = (withApproval: boolean) => gql`
  query Calc($input: DealInput!) {
    matrixCalculator(input: $input) {
      __typename ... on MatrixCalculatorResult { results { approval_id ${withApproval ? APPROVAL : ''} } }
    }
  }`;
const MATRIX = (withApproval: boolean) => gql`
  query Matrix($input: DealInput!) {
    matrix(input: $input) {
      __typename ... on MatrixResult { results { approvals { approval_id rate_bracket_ids ${withApproval ? APPROVAL : ''} } } }
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

/** 1x to 24x: copyCatalogue copies every financier there is, so one copy doubles (2x, 4x, 8x), then two more. */
async function growTo24x(): Promise<void> {
  const kit = seedKit(t.database.prisma);
  for (let doubling = 0; doubling < 3; doubling++) await kit.copyCatalogue(1);
  await kit.copyCatalogue(2);
}

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
    await growTo24x();
    big.calc = await measure(CALCULATOR(false), 'matrixCalculator');
    big.calcApproval = await measure(CALCULATOR(true), 'matrixCalculator');
    big.matrix = await measure(MATRIX(false), 'matrix');
    big.matrixApproval = await measure(MATRIX(true), 'matrix');
  }, 120_000);

  it('the 24x catalogue really has 24 times the rows, at least 300 on each surface, each with its own approval', () => {
    expect(big.calcApproval.rows.length).toBe(SCALE * demo.calcApproval.rows.length);
    expect(big.matrixApproval.rows.length).toBe(SCALE * demo.matrixApproval.rows.length);
    expect(big.calcApproval.rows.length).toBeGreaterThanOrEqual(300);
    expect(big.matrixApproval.rows.length).toBeGreaterThanOrEqual(300);
    for (const row of [...big.calcApproval.rows, ...big.matrixApproval.rows]) {
      expect(row.approval.id).toBe(row.approval_id);
      expect(row.approval.financier.id).toBeTypeOf('number');
      expect(row.approval.rate_brackets.map((b: any) => b.id)).toEqual(row.approval.rate_bracket_ids);
    }
    // The Matrix row's own rate_bracket_ids (from the snapshot) are the approval's links (from the database).
    for (const row of big.matrixApproval.rows) expect(row.approval.rate_bracket_ids).toEqual(row.rate_bracket_ids);
  });

  it('Matrix Calculator: approval on every row adds 5 queries (approvals, bracket ids, brackets: links and rows, financiers), the same at 24x', () => {
    expect(demo.calcApproval.queries - demo.calc.queries).toBe(5);
    expect(big.calc.queries).toBe(demo.calc.queries);
    expect(big.calcApproval.queries).toBe(demo.calcApproval.queries);
  });

  it('Matrix: approval on every approval result adds the same 5 queries, the same at 24x', () => {
    expect(demo.matrixApproval.queries - demo.matrix.queries).toBe(5);
    expect(big.matrix.queries).toBe(demo.matrix.queries);
    expect(big.matrixApproval.queries).toBe(demo.matrixApproval.queries);
  });
});
