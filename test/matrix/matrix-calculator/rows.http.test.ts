/**
 * Spec (api-v1.md): POST /api/v1/matrix-calculator/ row order (confirmed before possible, doc level, e_min, financier
 * name) and "Matrix result shapes" (MatrixCalculatorRow: every field present, rates and repayments as strings).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  pro,
  DEAL,
  ROW_KEYS,
  useMatrixCalculatorApp,
  run,
  key,
  financierOrg,
  productOf,
  bracketOf,
  approvalOf,
  orderingCatalogue,
} from './fixtures.ts';

useMatrixCalculatorApp();

describe('POST /matrix-calculator/ row order: confirmed before possible, then doc level, then e_min ascending (numeric), then financier name', () => {
  let c: Awaited<ReturnType<typeof orderingCatalogue>>;
  beforeAll(async () => {
    c = await orderingCatalogue('Order');
  });

  it('exact order on a constructed catalogue', async () => {
    const res = await run(pro, { ...DEAL, preferred_financier: [c.zeta, c.alpha] });
    expect(res.body.results.map((r: any) => r.approval_id)).toEqual([
      c.alpha95,
      c.zeta95,
      c.alpha1025,
      c.fullDoc7,
      c.possible6,
    ]);
    expect(res.body.results.map((r: any) => r.e_min)).toEqual(['9.5000', '9.5000', '10.2500', '7.0000', '6.0000']);
    expect(res.body.results.map((r: any) => r.status)).toEqual([
      'confirmed',
      'confirmed',
      'confirmed',
      'confirmed',
      'possible',
    ]);
  });

  it('answering the missing criterion moves the possible row up among the confirmed', async () => {
    const res = await run(pro, { ...DEAL, credit_score: 700, preferred_financier: [c.zeta, c.alpha] });
    expect(res.body.results.map((r: any) => r.approval_id)).toEqual([
      c.possible6,
      c.alpha95,
      c.zeta95,
      c.alpha1025,
      c.fullDoc7,
    ]);
  });

  it('rows whose e_min reads the same (4 dp) fall through to financier name, not to floating-point noise', async () => {
    const zeta = await financierOrg('Near Tie Zeta Finance'); // created first: lower ids
    const alpha = await financierOrg('Near Tie Alpha Finance');
    const zetaRow = await approvalOf(zeta, { name: 'Zeta 7.00001' }, [
      await bracketOf(zeta, await productOf(zeta), 7.00001),
    ]);
    const alphaRow = await approvalOf(alpha, { name: 'Alpha 7.00004' }, [
      await bracketOf(alpha, await productOf(alpha), 7.00004),
    ]);
    const res = await run(pro, { ...DEAL, preferred_financier: [zeta, alpha] });
    expect(res.body.results.map((r: any) => r.e_min)).toEqual(['7.0000', '7.0000']);
    expect(res.body.results.map((r: any) => r.approval_id)).toEqual([alphaRow, zetaRow]);
  });

  it("on every financier (the demo catalogue plus this file's own), every adjacent pair is in (status, doc level, parsed e_min, financier name) order", async () => {
    const res = await run(pro, DEAL);
    const rows = res.body.results;
    expect(rows.length).toBeGreaterThan(5);
    for (let i = 1; i < rows.length; i++) {
      const [p, q] = [key(rows[i - 1]), key(rows[i])];
      const cmp =
        p[0] - q[0] ||
        p[1] - q[1] ||
        p[2] - q[2] ||
        rows[i - 1].organisation_name.localeCompare(rows[i].organisation_name, 'en');
      expect(cmp, `rows ${i - 1} and ${i}`).toBeLessThanOrEqual(0);
    }
  });
});

describe('Matrix result shapes: MatrixCalculatorRow (every field present, rates and repayments as strings)', () => {
  it('the 200 body is {results, priced_count, destination_count, degraded: null}; each row has exactly the spec fields with the right types', async () => {
    const res = await run(pro, DEAL);
    expect(Object.keys(res.body).sort()).toEqual(['degraded', 'destination_count', 'priced_count', 'results']);
    expect(res.body.degraded).toBeNull();
    expect(Number.isInteger(res.body.priced_count)).toBe(true);
    expect(res.body.destination_count).toBeGreaterThanOrEqual(res.body.results.length);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const row of res.body.results) {
      expect(Object.keys(row).sort()).toEqual(ROW_KEYS);
      for (const f of ['organisation_id', 'approval_id', 'product_id', 'rate_bracket_id', 'priced_bracket_count'])
        expect(Number.isInteger(row[f]), f).toBe(true);
      for (const f of ['organisation_name', 'approval_name', 'product_name', 'rate_bracket_name'])
        expect(typeof row[f], f).toBe('string');
      expect(['low_doc', 'lite_doc', 'full_doc']).toContain(row.doc_level);
      expect(['confirmed', 'possible']).toContain(row.status);
      expect(row.status === 'possible').toBe(row.missing_fields.length > 0);
      for (const f of ['deposit_percentage', 'deposit_amount', 'deposit_required'])
        expect(row[f] === null || typeof row[f] === 'number', f).toBe(true);
      expect(row.max_term === null || Number.isInteger(row.max_term)).toBe(true);
      // Rule 10: plain decimals, rates to 4 dp, money to cents
      for (const f of ['base_min', 'base_max', 'e_min', 'e_max']) expect(row[f], f).toMatch(/^-?\d+\.\d{4}$/);
      for (const f of ['repayment_min', 'repayment_max']) expect(row[f], f).toMatch(/^\d+\.\d{2}$/);
      expect(typeof row.balloon).toBe('number');
      expect(typeof row.commission).toBe('number');
      expect(row.masked).toBe(false);
      expect(row.priced_bracket_count).toBeGreaterThanOrEqual(1);
      expect(Number.parseFloat(row.e_min)).toBeLessThanOrEqual(Number.parseFloat(row.e_max));
    }
  });
});
