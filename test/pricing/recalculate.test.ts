/**
 * POST /calculator/recalculate, the pure half (docs/pricing.md "Recalculation"): a body that passes the input
 * checks never yields a negative or non-finite figure with success, and each mistake names its own field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recalculate, recalculationInputErrors, type RecalculateInput } from '../../src/modules/pricing/recalculate.ts';
import { recalculationBody } from '../../testkit/recalculation.ts';

const PLAIN: RecalculateInput = recalculationBody(1);

describe('Recalculation input checks: each mistake names its field', () => {
  it.each([
    [{ compounding_freq_value: 0 }, ['compounding_freq_value']],
    [{ noi_min: 0.5 }, ['noi_min']],
    [{ pv: 0 }, ['pv']],
    [{ balloon: 50000.01 }, ['balloon']],
    [{ deposit: 50000 }, ['deposit']],
    [{ base_min: -0.01 }, ['base_min']],
    [{ base_max: Number.NaN }, ['base_max']],
    [{ pv: -1, balloon: 10 }, ['pv']], // the balloon-above-pv rule waits for a valid pv
  ] as [Partial<RecalculateInput>, string[]][])('%j', (change, fields) => {
    expect(recalculationInputErrors({ ...PLAIN, ...change }).map((e) => e.field)).toEqual(fields);
  });

  it('the plain reference body has no mistakes', () => {
    expect(recalculationInputErrors(PLAIN)).toEqual([]);
  });
});

describe('A body that passes the checks never prices to a negative or non-finite repayment', () => {
  it('holds for any valid body', () => {
    const amount = fc.double({ min: 0.01, max: 1e12, noNaN: true });
    fc.assert(
      fc.property(
        fc.record({
          base_min: fc.double({ min: 0, max: 1000, noNaN: true }),
          base_max: fc.double({ min: 0, max: 1000, noNaN: true }),
          compounding_freq_value: fc.integer({ min: 1, max: 365 }),
          pv: amount,
          balloonShare: fc.double({ min: 0, max: 1, noNaN: true }),
          cost: amount,
          depositShare: fc.double({ min: 0, max: 0.999, noNaN: true }),
          noi_min: fc.double({ min: 1, max: 36_500, noNaN: true }),
          noi_max: fc.double({ min: 1, max: 36_500, noNaN: true }),
          billing_type: fc.constantFrom('advance', null),
          repayment_frequency: fc.constantFrom(
            'yearly',
            'quarterly',
            'monthly',
            'weekly',
            'daily',
            'none',
          ) as fc.Arbitrary<RecalculateInput['repayment_frequency']>,
        }),
        ({ balloonShare, depositShare, ...r }) => {
          const input: RecalculateInput = {
            ...r,
            rate_bracket_id: 1,
            balloon: r.pv * balloonShare,
            deposit: r.cost * depositShare,
          };
          if (recalculationInputErrors(input).length) return; // shares at the edges can round past a bound
          const outcome = recalculate(input);
          if (!outcome.ok) return; // the documented 500: no effective rate
          for (const figure of [
            outcome.value.repayment_min,
            outcome.value.repayment_max,
            outcome.value.r_min,
            outcome.value.r_max,
          ]) {
            expect(Number.isFinite(figure)).toBe(true);
            expect(figure).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
