/**
 * Spec (api-v1.md): Limits, the Free-tier paywall on POST /api/v1/matrix-calculator/ (the cheapest three rows stay
 * visible; further rows have figures nulled and masked true), for a Free organisation on a Matrix trial.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  t,
  pro,
  free,
  trial,
  DEAL,
  ROW_KEYS,
  FIGURES,
  useMatrixCalculatorApp,
  run,
  financierOrg,
  productOf,
  bracketOf,
  approvalOf,
  orderingCatalogue,
} from './fixtures.ts';

useMatrixCalculatorApp();

describe('Limits: Free-tier paywall (the cheapest three rows stay visible; further rows have figures nulled and masked true)', () => {
  let c: Awaited<ReturnType<typeof orderingCatalogue>>;
  beforeAll(async () => {
    c = await orderingCatalogue('Paywall');
  });

  it('a Free organisation on a Matrix trial: the three lowest e_min rows keep their figures, wherever they sit; ties go to the earlier row', async () => {
    const body = { ...DEAL, preferred_financier: [c.zeta, c.alpha] };
    const res = await t.rest('POST', '/api/v1/matrix-calculator/', { token: trial, body });
    expect(res.status).toBe(200);
    const proRes = await run(pro, body);
    // Rows in order: alpha95, zeta95 (tie with alpha95 on 9.5, later), alpha1025, fullDoc7, possible6.
    // Lowest three e_min: 6 (possible6), 7 (fullDoc7), 9.5 (alpha95, the earlier of the tie).
    expect(res.body.results.map((r: any) => [r.approval_id, r.masked])).toEqual([
      [c.alpha95, false],
      [c.zeta95, true],
      [c.alpha1025, true],
      [c.fullDoc7, false],
      [c.possible6, false],
    ]);
    res.body.results.forEach((row: any, i: number) => {
      expect(Object.keys(row).sort()).toEqual(ROW_KEYS); // masked figures are present as null, not dropped
      if (row.masked) {
        for (const f of FIGURES) expect(row[f], f).toBeNull();
        // who and what stay
        const { masked: _m, ...identity } = proRes.body.results[i];
        for (const f of FIGURES) delete identity[f];
        expect(row).toMatchObject(identity);
      } else {
        expect(row).toEqual(proRes.body.results[i]);
      }
    });
  });

  it('a tie at the edge of the three is decided by row order as the rows read (e_min to 4 dp), not by hidden decimals', async () => {
    const zeta = await financierOrg('Edge Tie Zeta Finance');
    const alpha = await financierOrg('Edge Tie Alpha Finance');
    const ap = await productOf(alpha);
    const five = await approvalOf(alpha, { name: 'Edge 5' }, [await bracketOf(alpha, ap, 5)]);
    const six = await approvalOf(alpha, { name: 'Edge 6' }, [await bracketOf(alpha, ap, 6)]);
    const zetaRow = await approvalOf(zeta, { name: 'Edge Zeta 7.00001' }, [
      await bracketOf(zeta, await productOf(zeta), 7.00001),
    ]);
    const alphaRow = await approvalOf(alpha, { name: 'Edge Alpha 7.00004' }, [await bracketOf(alpha, ap, 7.00004)]);
    const res = await t.rest('POST', '/api/v1/matrix-calculator/', {
      token: trial,
      body: { ...DEAL, preferred_financier: [zeta, alpha] },
    });
    // Both 7% rows read "7.0000": the earlier row (Alpha, by financier name) keeps its figures.
    expect(res.body.results.map((r: any) => [r.approval_id, r.masked])).toEqual([
      [five, false],
      [six, false],
      [alphaRow, false],
      [zetaRow, true],
    ]);
  });

  it('no figure of a masked row appears anywhere in the raw JSON', async () => {
    const body = { ...DEAL, preferred_financier: [c.zeta, c.alpha] };
    const raw = await (
      await fetch(`${t.baseUrl}/api/v1/matrix-calculator/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${trial}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).text();
    expect(raw).not.toContain('10.2500'); // alpha1025's base/e
    expect(raw).not.toContain('12.2500'); // its base_max
    // zeta95 is masked, alpha95 (same figures) is not: 9.5 appears once as base_min and once as e_min
    expect(raw.split('"9.5000"').length - 1).toBe(2);
    const nulls =
      raw.match(/"(base_min|base_max|e_min|e_max|repayment_min|repayment_max|balloon|commission)":null/g) ?? [];
    expect(nulls).toHaveLength(2 * FIGURES.length);
  });

  it("on every financier (the demo catalogue plus this file's own, with ties at the edge): exactly the three lowest-e_min rows are visible, their figures as a Pro broker sees them", async () => {
    const trialRes = await t.rest('POST', '/api/v1/matrix-calculator/', { token: trial, body: DEAL });
    const proRes = await run(pro, DEAL);
    expect(proRes.body.results.length).toBeGreaterThan(3);
    expect(trialRes.body.results.map((r: any) => r.approval_id)).toEqual(
      proRes.body.results.map((r: any) => r.approval_id),
    );
    const cheapest = proRes.body.results
      .map((r: any, i: number) => ({ i, e: Number.parseFloat(r.e_min) }))
      .sort((x: any, y: any) => x.e - y.e || x.i - y.i)
      .slice(0, 3)
      .map((x: any) => x.i)
      .sort((x: number, y: number) => x - y);
    const visible = trialRes.body.results.map((r: any, i: number) => (r.masked ? -1 : i)).filter((i: number) => i >= 0);
    expect(visible).toEqual(cheapest);
    trialRes.body.results.forEach((row: any, i: number) => {
      if (row.masked) for (const f of FIGURES) expect(row[f]).toBeNull();
      else expect(row).toEqual(proRes.body.results[i]);
    });
  });

  it('a Pro broker sees no masked rows', async () => {
    const res = await run(pro, DEAL);
    expect(res.body.results.length).toBeGreaterThan(3);
    expect(res.body.results.every((r: any) => r.masked === false && r.e_min !== null)).toBe(true);
  });

  it('the Free organisation without the trial is refused, not masked', async () => {
    expect((await run(free, DEAL)).status).toBe(403);
  });
});
