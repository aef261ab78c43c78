/**
 * Spec (api-v1.md): POST /api/v1/matrix-calculator/ Rule 4, the rate bracket is the join key (pricing-conventions
 * Rule 13 Cheapest; priced_bracket_count; destination_count). The financier, products, brackets (mapped to asset 11)
 * and approvals are the test's own, and runs name it in `preferred_financier`, so the expected rows are exact.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  t,
  pro,
  DEAL,
  useMatrixCalculatorApp,
  run,
  prisma,
  financierOrg,
  productOf,
  bracketOf,
  approvalOf,
} from './fixtures.ts';

useMatrixCalculatorApp();

describe('POST /matrix-calculator/ Rule 4: the rate bracket is the join key (Rule 13 Cheapest; priced_bracket_count; destination_count)', () => {
  let org: number;
  const b: Record<string, number> = {};
  const a: Record<string, number> = {};
  beforeAll(async () => {
    org = await financierOrg('Join Rule Finance');
    const plain = await productOf(org);
    const monthlyFee = await productOf(org, { monthly_fee: 10 });
    const docFee = await productOf(org, { documentation_fee: 2000 });
    b.fee6 = await bracketOf(org, monthlyFee, 6); // created first: the lowest id of the 6% pair
    b.at8 = await bracketOf(org, plain, 8);
    b.at6 = await bracketOf(org, plain, 6);
    b.short5 = await bracketOf(org, plain, 5, { max_term: 24 }); // cheapest of all, but filtered out by term 60
    b.docFee59 = await bracketOf(org, docFee, 5.9); // lower base, but the financed doc fee lifts e above 6
    b.unlinked7 = await bracketOf(org, plain, 7); // priced, linked by no approval
    b.twinA = await bracketOf(org, plain, 9);
    b.twinB = await bracketOf(org, plain, 9);
    a.cheapest = await approvalOf(org, { name: 'Four brackets' }, [b.at8, b.at6, b.short5, b.docFee59]);
    a.allFiltered = await approvalOf(org, { name: 'Only the short bracket' }, [b.short5]);
    a.repaymentTie = await approvalOf(org, { name: 'Same e, different repayment' }, [b.fee6, b.at6]);
    a.idTie = await approvalOf(org, { name: 'Identical twins' }, [b.twinB, b.twinA]);
  });
  const deal = () => ({ ...DEAL, preferred_financier: [org] });
  const rowOf = (body: any, approvalId: number) => body.results.find((r: any) => r.approval_id === approvalId);

  it("each row carries its approval's cheapest priced bracket by e_min (not by base rate), with priced_bracket_count counting survivors only", async () => {
    const res = await run(pro, deal());
    expect(res.status).toBe(200);
    const row = rowOf(res.body, a.cheapest);
    expect(row).toMatchObject({ rate_bracket_id: b.at6, base_min: '6.0000', e_min: '6.0000', priced_bracket_count: 3 });
    // the doc-fee bracket has the lower base rate but the higher effective rate
    const calc = await t.rest('POST', '/api/v1/calculator', { token: pro, body: deal() });
    const docFee = calc.body.results.find((r: any) => r.rate_bracket_id === b.docFee59);
    expect(Number.parseFloat(docFee.base_min)).toBeLessThan(6);
    expect(Number.parseFloat(docFee.e_min)).toBeGreaterThan(6);
  });

  it('an approval whose brackets were all filtered out by pricing is omitted from results but counted in destination_count', async () => {
    const res = await run(pro, deal());
    expect(res.body.results.map((r: any) => r.approval_id).sort((x: number, y: number) => x - y)).toEqual(
      [a.cheapest, a.repaymentTie, a.idTie].sort((x, y) => x - y),
    );
    expect(res.body.destination_count).toBe(4);
    expect(res.body.destination_count).toBeGreaterThan(res.body.results.length);
  });

  it('... and it still appears in the standalone Matrix', async () => {
    const matrix = await t.rest('POST', '/api/v1/matrix/', { token: pro, body: deal() });
    expect(matrix.body.results[0].approvals.map((x: any) => x.approval_id)).toContain(a.allFiltered);
    expect(matrix.body.destination_count).toBe(4);
  });

  it('priced_count counts every rate card that survived pricing, linked or not', async () => {
    const res = await run(pro, deal());
    // fee6, at8, at6, docFee59, unlinked7, twinA, twinB; short5 is out on term
    expect(res.body.priced_count).toBe(7);
    const shortTerm = await run(pro, { ...deal(), term: 24 });
    expect(shortTerm.body.priced_count).toBe(8);
    expect(rowOf(shortTerm.body, a.cheapest)).toMatchObject({ rate_bracket_id: b.short5, priced_bracket_count: 4 });
    expect(rowOf(shortTerm.body, a.allFiltered)).toMatchObject({ rate_bracket_id: b.short5, priced_bracket_count: 1 });
  });

  it("a row carries the approval's figures and the bracket's product", async () => {
    const res = await run(pro, deal());
    const product = await prisma().rateBracket.findUniqueOrThrow({ where: { id: b.at6 }, include: { product: true } });
    expect(rowOf(res.body, a.cheapest)).toMatchObject({
      organisation_id: org,
      organisation_name: 'Join Rule Finance',
      approval_name: 'Four brackets',
      doc_level: 'low_doc',
      status: 'confirmed',
      missing_fields: [],
      product_id: product.product_id,
      product_name: product.product.product_name,
      rate_bracket_name: product.name,
      masked: false,
    });
  });
});
