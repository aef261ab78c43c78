import fc from 'fast-check';
import type { RepaymentFrequency } from '../../src/lib/vocabulary.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import { describe, expect, it } from 'vitest';
import { buildPricingIndex, priceDeal } from '../../src/modules/pricing/engine.ts';
import { effectiveAnnualRate, pmt, ratePerInstalment, solveRate } from '../../src/modules/pricing/finance.ts';
import { makeAsset, makeBracket, makeDeal, makeProduct, makeRelation } from './fixtures.ts';

const SEED = 7_331;

// n >= 2: a single advance instalment is paid at time 0, so with no balloon it is the whole amount at any rate
// (Rule 8 has no answer for it and the engine does not price it); those cases are in finance.test.ts.
const loan = fc.record({
  n: fc.integer({ min: 2, max: 360 }),
  P: fc.double({ min: 1_000, max: 1_000_000, noNaN: true }),
  balloonShare: fc.double({ min: 0, max: 0.9, noNaN: true }),
  advance: fc.boolean(),
});
const ratePerPeriod = fc.double({ min: 0, max: 0.05, noNaN: true });

describe('Rule 4 Repayment: properties', () => {
  it('rises with the rate (balloon below the amount)', () => {
    fc.assert(
      fc.property(
        loan,
        ratePerPeriod,
        fc.double({ min: 1e-6, max: 0.02, noNaN: true }),
        ({ n, P, balloonShare, advance }, i, step) => {
          const B = P * balloonShare;
          expect(pmt(i + step, n, P, B, advance)).toBeGreaterThan(pmt(i, n, P, B, advance));
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('falls with the term (balloon below the amount)', () => {
    fc.assert(
      fc.property(
        loan,
        ratePerPeriod,
        fc.integer({ min: 1, max: 120 }),
        ({ n, P, balloonShare, advance }, i, extra) => {
          const B = P * balloonShare;
          expect(pmt(i, n + extra, P, B, advance)).toBeLessThan(pmt(i, n, P, B, advance));
        },
      ),
      { seed: SEED + 1, numRuns: 500 },
    );
  });

  it('at a zero rate is (P - B)/n in both modes', () => {
    fc.assert(
      fc.property(loan, ({ n, P, balloonShare, advance }) => {
        const B = P * balloonShare;
        expect(pmt(0, n, P, B, advance)).toBe((P - B) / n);
      }),
      { seed: SEED + 2, numRuns: 300 },
    );
  });
});

describe('Rule 8 Effective rate: properties', () => {
  it('equals the priced nominal rate when nothing is added to the amount and c = m', () => {
    fc.assert(
      fc.property(
        loan,
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.constantFrom(1, 4, 12, 52),
        ({ n, P, balloonShare, advance }, annualPercent, m) => {
          const B = P * balloonShare;
          const i = ratePerInstalment(annualPercent / 100, m, m);
          const e = effectiveAnnualRate(n, pmt(i, n, P, B, advance), P, B, advance, m);
          expect(e).toBeCloseTo(annualPercent, 8);
        },
      ),
      { seed: SEED + 3, numRuns: 500 },
    );
  });

  it('re-prices: PMT at e on the money advanced gives back the instalment priced on the larger amount', () => {
    fc.assert(
      fc.property(
        loan,
        ratePerPeriod,
        fc.double({ min: 0, max: 0.1, noNaN: true }),
        ({ n, P, balloonShare, advance }, i, added) => {
          const B = P * balloonShare;
          const instalment = pmt(i, n, P * (1 + added), B, advance);
          const iEffective = solveRate(n, instalment, P, B, advance);
          expect(pmt(iEffective, n, P, B, advance)).toBeCloseTo(instalment, 6);
          expect(iEffective).toBeGreaterThanOrEqual(i - 1e-12); // adding to the amount never lowers the rate
        },
      ),
      { seed: SEED + 4, numRuns: 500 },
    );
  });
});

describe('Rule 8 Effective rate / Rule 7 Brokerage: engine properties', () => {
  const product = (overrides: Parameters<typeof makeProduct>[0]) => makeProduct({ id: 1, ...overrides });
  const catalogue = (p: ReturnType<typeof makeProduct>) =>
    buildPricingIndex({
      assets: [makeAsset({ id: 1000 })],
      products: [p],
      brackets: [makeBracket({ id: 100, product_id: 1, base_min: 7.25, base_max: 11.5 })],
      relations: [makeRelation(1000, { product_id: 1 })],
    });
  type DealShape = {
    cost: number;
    depositShare: number;
    balloonShare: number;
    term: number;
    frequency: RepaymentFrequency;
    advance: boolean;
  };
  const deals: fc.Arbitrary<DealShape> = fc.record({
    cost: fc.integer({ min: 10_000, max: 500_000 }),
    depositShare: fc.double({ min: 0, max: 0.3, noNaN: true }),
    balloonShare: fc.double({ min: 0, max: 0.5, noNaN: true }),
    term: fc.integer({ min: 24, max: 84 }), // yearly in advance over 12 months is one instalment at time 0
    frequency: fc.constantFrom<RepaymentFrequency>('monthly', 'weekly', 'quarterly', 'yearly'),
    advance: fc.boolean(),
  });
  const toDeal = (d: DealShape, extra: Partial<Deal> = {}) =>
    makeDeal({
      cost: d.cost,
      cost_inc: d.cost,
      deposit: d.cost * d.depositShare,
      balloon_amount: d.cost * d.balloonShare,
      term: d.term,
      repayment_frequency: d.frequency,
      advance_arrears: d.advance ? 'advance' : 'arrears',
      ...extra,
    });

  it('with no brokerage and no fees, e equals the priced nominal rate when c = m', () => {
    const index = catalogue(product({ compounding_frequency: null }));
    fc.assert(
      fc.property(deals, (d) => {
        const deal = toDeal({ ...d, frequency: 'monthly' });
        const [row] = priceDeal(index, deal);
        expect(row.e_min).toBeCloseTo(row.rate_min, 10);
        expect(row.e_max).toBeCloseTo(row.rate_max, 10);
      }),
      { seed: SEED + 5, numRuns: 200 },
    );
  });

  it('funded brokerage and financed fees: PMT at e on cost_inc - deposit gives back the instalment', () => {
    const index = catalogue(product({ documentation_fee: 495, monthly_fee: 9.9, compounding_frequency: 'm' }));
    fc.assert(
      fc.property(deals, fc.double({ min: 0, max: 6, noNaN: true }), (d, brokeragePercent) => {
        const deal = toDeal(d, { brokerage: brokeragePercent, brokerage_percentage: true, origination_fee: 990 });
        const [row] = priceDeal(index, deal);
        const advanced = deal.cost_inc - (deal.deposit ?? 0);
        const instalment = row.repayment_min - row.monthly_fee_per_instalment; // Rule 9: the fee is not in e
        const i = row.e_min / 100 / row.instalments_per_year;
        expect(pmt(i, row.instalments, advanced, row.balloon, row.advance)).toBeCloseTo(instalment, 6);
        expect(row.e_min).toBeGreaterThan(row.rate_min); // financed fees raise it
      }),
      { seed: SEED + 6, numRuns: 200 },
    );
  });
});
