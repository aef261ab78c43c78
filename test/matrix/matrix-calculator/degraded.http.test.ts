/**
 * Spec (api-v1.md): POST /api/v1/matrix-calculator/ Rule 7: one engine fails, the other answers; degraded names the
 * missing half; both failing is a 500.
 */
import { describe, expect, it } from 'vitest';
import {
  t,
  pro,
  trial,
  DEAL,
  FIGURES,
  useMatrixCalculatorApp,
  run,
  financierOrg,
  productOf,
  bracketOf,
  approvalOf,
} from './fixtures.ts';

useMatrixCalculatorApp();

describe('POST /matrix-calculator/ Rule 7: one engine fails, the other answers; degraded names the missing half', () => {
  const engines = () => t.app.deps.services.engines;
  /** The rate engine has two entries (the rows, and the market the join reads): a failing engine fails both. */
  const ENTRIES = { rates: ['priceDeal', 'priceMarket'], approvals: ['evaluateApprovals'] } as const;
  async function withFailing<T>(half: keyof typeof ENTRIES, fn: () => Promise<T>): Promise<T> {
    const originals = ENTRIES[half].map((entry) => [entry, engines()[entry]] as const);
    for (const [entry] of originals)
      (engines() as any)[entry] = () => {
        throw new Error('boom');
      };
    try {
      return await fn();
    } finally {
      for (const [entry, original] of originals) (engines() as any)[entry] = original;
    }
  }

  it("rate engine throws: 200, degraded rates, financiers present (the Matrix's groups), no priced key, results empty", async () => {
    const res = await withFailing('rates', () => run(pro, DEAL));
    expect(res.status).toBe(200);
    expect(res.body.degraded).toBe('rates');
    expect(res.body.results).toEqual([]);
    expect(res.body.priced_count).toBe(0);
    expect('priced' in res.body).toBe(false);
    expect(Array.isArray(res.body.financiers)).toBe(true);
    expect(res.body.financiers.length).toBeGreaterThan(0);
    // the surviving half, unjoined: the same groups the standalone Matrix gives for this deal (deposit 0 is the default here)
    const matrix = await t.rest('POST', '/api/v1/matrix/', { token: pro, body: { ...DEAL, deposit: 0 } });
    expect(res.body.financiers).toEqual(matrix.body.results);
    expect(res.body.destination_count).toBe(matrix.body.destination_count);
  });

  it('approvals engine throws: 200, degraded approvals, priced present (the unjoined cards, cheapest first), no financiers key, results empty', async () => {
    const res = await withFailing('approvals', () => run(pro, DEAL));
    expect(res.status).toBe(200);
    expect(res.body.degraded).toBe('approvals');
    expect(res.body.results).toEqual([]);
    expect('financiers' in res.body).toBe(false);
    expect(res.body.priced.length).toBeGreaterThan(0);
    expect(res.body.priced_count).toBe(res.body.priced.length);
    const calculator = await t.rest('POST', '/api/v1/calculator', { token: pro, body: DEAL });
    expect(res.body.priced.map((p: any) => p.rate_bracket_id)).toEqual(
      calculator.body.results.map((r: any) => r.rate_bracket_id),
    );
    for (const p of res.body.priced) {
      expect(p.masked).toBe(false);
      expect(p.e_min).toMatch(/^\d+\.\d{4}$/);
    }
  });

  it('the paywall holds on a degraded run: beyond the cheapest three, priced cards are masked with figures null', async () => {
    const res = await withFailing('approvals', () =>
      t.rest('POST', '/api/v1/matrix-calculator/', { token: trial, body: DEAL }),
    );
    expect(res.body.degraded).toBe('approvals');
    expect(res.body.priced.length).toBeGreaterThan(3);
    expect(res.body.priced.map((p: any) => p.masked)).toEqual(res.body.priced.map((_: unknown, i: number) => i >= 3));
    for (const p of res.body.priced.slice(3)) for (const f of FIGURES) expect(p[f], f).toBeNull();
  });

  it('a deal no financier matches: empty results, degraded null, and neither key', async () => {
    const org = await financierOrg('No Match Finance');
    await approvalOf(org, { home_owner: true }, [await bracketOf(org, await productOf(org), 8)]);
    const res = await run(pro, { ...DEAL, home_owner: false, preferred_financier: [org] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [], priced_count: 1, destination_count: 0, degraded: null });
  });

  it('both engines failing is a 500, not an empty answer', async () => {
    const res = await withFailing('rates', () => withFailing('approvals', () => run(pro, DEAL)));
    expect(res.status).toBe(500);
    expect('results' in (res.body ?? {})).toBe(false);
  });

  it('the engines are restored: a normal run is not degraded', async () => {
    const res = await run(pro, DEAL);
    expect(res.body.degraded).toBeNull();
    expect(res.body.results.length).toBeGreaterThan(0);
  });
});
