/** Result rows' `financier` field is batched through a dataloader: one query for every row of a response. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const INPUT =
  '{ cost: "55000", cost_gst: true, asset_value: 11, term: 60, advance_arrears: arrears, repayment_frequency: monthly }';

async function counted<T>(query: string): Promise<{ data: T; queries: number }> {
  const before = t.database.queryCount();
  const data = await t.graphql(token).request<T>(query);
  return { data, queries: t.database.queryCount() - before };
}

describe('financier on Matrix Calculator rows, Matrix groups and Calculator rows', () => {
  it("adds exactly one query however many rows ask for it, and names each row's own financier", async () => {
    await counted(`{ matrixCalculator(input: ${INPUT}) { __typename } }`); // warm the snapshot
    const plain = await counted<any>(
      `{ matrixCalculator(input: ${INPUT}) { ... on MatrixCalculatorResult { results { organisation_id } } } }`,
    );
    const withFinancier = await counted<any>(`{ matrixCalculator(input: ${INPUT}) {
      ... on MatrixCalculatorResult { results { organisation_id organisation_name financier { id name } } } } }`);
    const rows = withFinancier.data.matrixCalculator.results;
    expect(rows.length).toBeGreaterThan(3);
    expect(new Set(rows.map((r: any) => r.organisation_id)).size).toBeGreaterThan(1);
    for (const row of rows) expect(row.financier).toEqual({ id: row.organisation_id, name: row.organisation_name });
    expect(withFinancier.queries).toBe(plain.queries + 1);
  });

  it('works on Matrix groups and Calculator rows too', async () => {
    const { data } = await counted<any>(`{
      matrix(input: { cost: "55000", asset_value: 11 }) { ... on MatrixResult { results { organisation_id financier { id } } } } }`);
    const groups = data.matrix.results;
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.map((g: any) => g.financier.id)).toEqual(groups.map((g: any) => g.organisation_id));
    const calc = await counted<any>(
      `{ calculate(input: ${INPUT}) { ... on CalculatorResult { results { organisation_id financier { id } } } } }`,
    );
    const rows = calc.data.calculate.results;
    expect(new Set(rows.map((r: any) => r.organisation_id)).size).toBeGreaterThan(1);
    expect(rows.map((r: any) => r.financier.id)).toEqual(rows.map((r: any) => r.organisation_id));
  });
});
