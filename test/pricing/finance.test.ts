import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amortisationSchedule,
  compoundingPerYear,
  effectiveAnnualRate,
  formatMoney,
  formatRate,
  instalmentCount,
  instalmentsPerYear,
  pmt,
  ratePerInstalment,
  roundHalfUp,
  roundMoney,
  roundRate,
  solveRate,
} from '../../src/modules/pricing/finance.ts';

/** Repayment as the engine computes it from card figures (Rules 1-4), formatted (Rule 10). */
function repayment(args: {
  P: number;
  annualPercent: number;
  m: number;
  c?: number;
  termMonths: number;
  B?: number;
  advance: boolean;
}): string {
  const i = ratePerInstalment(args.annualPercent / 100, args.c ?? 12, args.m);
  const n = instalmentCount(args.termMonths, args.m);
  return formatMoney(pmt(i, n, args.P, args.B ?? 0, args.advance));
}

/** The string definition of half-up rounding that roundHalfUp implements numerically. */
function roundHalfUpByString(x: number, dp: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e15) return x;
  const [mantissa, exponent = '0'] = Math.abs(x).toPrecision(15).split('e');
  const rounded = Number(`${Math.round(Number(`${mantissa}e${Number(exponent) + dp}`))}e${-dp}`);
  return rounded === 0 ? 0 : x < 0 ? -rounded : rounded;
}

describe('Rule 4 Repayment / Rule 2 Rate per instalment / Rule 8 Effective rate: reference values table, to the cent', () => {
  it('Rule 4 Repayment: plain monthly: P 50,000; 9.50%; 60 monthly; arrears; B 0 -> 1050.09', () => {
    expect(repayment({ P: 50_000, annualPercent: 9.5, m: 12, termMonths: 60, advance: false })).toBe('1050.09');
  });

  it('Rule 4 Repayment: advance with balloon: P 88,000; 8.45%; 60 monthly; B 26,400 -> 1438.11 (arrears 1448.23)', () => {
    const args = { P: 88_000, annualPercent: 8.45, m: 12, termMonths: 60, B: 26_400 };
    expect(repayment({ ...args, advance: true })).toBe('1438.11');
    expect(repayment({ ...args, advance: false })).toBe('1448.23');
  });

  it('Rule 7 Brokerage / Rule 8 Effective rate: funded brokerage: P 60,000 + 1,800 at 7.50%; 48 advance; B 12,000 -> 1271.16, e 8.8807', () => {
    const i = ratePerInstalment(0.075, 12, 12);
    const instalment = pmt(i, 48, 60_000 + 1_800, 12_000, true);
    expect(formatMoney(instalment)).toBe('1271.16');
    expect(formatRate(effectiveAnnualRate(48, instalment, 60_000, 12_000, true, 12))).toBe('8.8807');
  });

  it('Rule 4 Repayment: zero rate: P 24,000; 0%; 24; B 6,000 -> 750.00 in either mode', () => {
    expect(repayment({ P: 24_000, annualPercent: 0, m: 12, termMonths: 24, B: 6_000, advance: true })).toBe('750.00');
    expect(repayment({ P: 24_000, annualPercent: 0, m: 12, termMonths: 24, B: 6_000, advance: false })).toBe('750.00');
  });

  it('Rule 2 Rate per instalment: weekly, monthly compounding: P 50,000; 9.5%; weekly; 5 years; arrears; c = 12 -> 241.59', () => {
    expect(instalmentCount(60, 52)).toBe(260);
    expect(repayment({ P: 50_000, annualPercent: 9.5, m: 52, c: 12, termMonths: 60, advance: false })).toBe('241.59');
  });
});

describe('Rule 1 Frequencies', () => {
  it('maps repayment_frequency to m; none (and null) prices monthly', () => {
    expect(instalmentsPerYear('yearly')).toBe(1);
    expect(instalmentsPerYear('quarterly')).toBe(4);
    expect(instalmentsPerYear('monthly')).toBe(12);
    expect(instalmentsPerYear('weekly')).toBe(52);
    expect(instalmentsPerYear('daily')).toBe(365);
    expect(instalmentsPerYear('none')).toBe(12);
    expect(instalmentsPerYear(null)).toBe(12);
  });

  it('maps compounding_frequency to c; monthly is the default', () => {
    expect(compoundingPerYear('y')).toBe(1);
    expect(compoundingPerYear('q')).toBe(4);
    expect(compoundingPerYear('m')).toBe(12);
    expect(compoundingPerYear('w')).toBe(52);
    expect(compoundingPerYear(null)).toBe(12);
  });
});

describe('Rule 2 Rate per instalment', () => {
  it('is exactly j/m when c = m', () => {
    expect(ratePerInstalment(0.095, 12, 12)).toBe(0.095 / 12);
    expect(ratePerInstalment(0.0845, 52, 52)).toBe(0.0845 / 52);
  });

  it('is (1 + j/c)^(c/m) - 1 otherwise', () => {
    for (const [j, c, m] of [
      [0.095, 12, 52],
      [0.12, 4, 12],
      [0.07, 1, 12],
      [0.2, 52, 4],
      [0.05, 12, 365],
    ]) {
      expect(ratePerInstalment(j, c, m)).toBeCloseTo((1 + j / c) ** (c / m) - 1, 15);
    }
  });

  it('keeps full precision for tiny rates and handles zero', () => {
    expect(ratePerInstalment(0, 12, 52)).toBe(0);
    const j = 1e-12;
    expect(ratePerInstalment(j, 12, 52) / (j / 52)).toBeCloseTo(1, 9); // pow(1 + x, y) - 1 would lose this
  });

  it('is NaN for meaningless inputs', () => {
    expect(ratePerInstalment(0.1, 0, 12)).toBeNaN();
    expect(ratePerInstalment(0.1, 12, 0)).toBeNaN();
    expect(ratePerInstalment(-13, 12, 52)).toBeNaN();
  });
});

describe('Rule 3 Instalments', () => {
  it('n = round(term * m / 12)', () => {
    expect(instalmentCount(60, 12)).toBe(60);
    expect(instalmentCount(60, 52)).toBe(260);
    expect(instalmentCount(12, 365)).toBe(365);
    expect(instalmentCount(36, 4)).toBe(12);
    expect(instalmentCount(5, 52)).toBe(22); // 21.67
    expect(instalmentCount(7, 52)).toBe(30); // 30.33
    expect(instalmentCount(18, 1)).toBe(2); // 1.5 rounds half up
    expect(instalmentCount(6, 1)).toBe(1); // 0.5 rounds half up
  });
});

describe('Rule 4 Repayment', () => {
  it('matches the closed form in arrears and in advance', () => {
    const i = 0.007;
    const n = 36;
    const P = 40_000;
    const B = 8_000;
    const v = (1 + i) ** -n;
    expect(pmt(i, n, P, B, false)).toBeCloseTo(((P - B * v) * i) / (1 - v), 9);
    expect(pmt(i, n, P, B, true)).toBeCloseTo(((P - B * v) * i) / ((1 - v) * (1 + i)), 9);
  });

  it('zero rate is (P - B)/n in both modes, and tiny rates converge to it', () => {
    expect(pmt(0, 24, 24_000, 6_000, true)).toBe(750);
    expect(pmt(0, 24, 24_000, 6_000, false)).toBe(750);
    expect(pmt(1e-13, 24, 24_000, 6_000, false)).toBeCloseTo(750, 6);
    expect(pmt(-1e-13, 24, 24_000, 6_000, true)).toBeCloseTo(750, 6);
  });

  it('advance with one instalment is P - B/(1+i): the balloon still falls at time n', () => {
    expect(pmt(0.01, 1, 10_000, 5_000, true)).toBeCloseTo(10_000 - 5_000 / 1.01, 9);
  });

  it('is NaN for n <= 0 or i <= -1', () => {
    expect(pmt(0.01, 0, 1000, 0, false)).toBeNaN();
    expect(pmt(0.01, -3, 1000, 0, false)).toBeNaN();
    expect(pmt(-1, 12, 1000, 0, false)).toBeNaN();
  });
});

describe('Rule 8 Effective rate: bracketed solver', () => {
  const roundTrip = (i: number, n: number, P: number, B: number, advance: boolean) => {
    const instalment = pmt(i, n, P, B, advance);
    const solved = solveRate(n, instalment, P, B, advance);
    expect(Math.abs(solved - i)).toBeLessThan(1e-12 + 1e-9 * Math.abs(i));
    expect(pmt(solved, n, P, B, advance)).toBeCloseTo(instalment, 6);
  };

  it('recovers ordinary rates in both modes', () => {
    roundTrip(0.095 / 12, 60, 50_000, 0, false);
    roundTrip(0.0845 / 12, 60, 88_000, 26_400, true);
    roundTrip(0.0845 / 52, 260, 88_000, 26_400, false);
  });

  it('returns exactly 0 for a zero-rate deal, in both modes', () => {
    expect(solveRate(24, 750, 24_000, 6_000, true)).toBe(0);
    expect(solveRate(24, 750, 24_000, 6_000, false)).toBe(0);
  });

  it('solves high rates where Newton from a small guess diverges (formulajs RATE(12,-5000,10000) is #NUM!)', () => {
    const i = solveRate(12, 5_000, 10_000, 0, false);
    expect(i).toBeGreaterThan(0.49);
    expect(pmt(i, 12, 10_000, 0, false)).toBeCloseTo(5_000, 8);
    roundTrip(0.5, 24, 10_000, 0, false);
    roundTrip(2, 12, 10_000, 1_000, true);
    roundTrip(5, 6, 1_000, 0, false);
  });

  it('solves tiny and negative rates', () => {
    roundTrip(1e-7, 120, 100_000, 0, false);
    roundTrip(1e-10, 60, 50_000, 10_000, true);
    roundTrip(-0.002, 48, 60_000, 0, false);
    roundTrip(-0.01, 36, 30_000, 5_000, true);
  });

  it('solves large balloons (including a balloon above the amount) and one-instalment advance deals', () => {
    roundTrip(0.006, 60, 100_000, 95_000, false);
    roundTrip(0.006, 60, 100_000, 95_000, true);
    roundTrip(0.004, 36, 50_000, 60_000, false);
    roundTrip(0.01, 1, 10_000, 5_000, true);
    roundTrip(0.01, 2, 10_000, 5_000, true);
  });

  it('is independent of the starting guess', () => {
    const instalment = pmt(0.0062, 48, 61_800, 12_000, true);
    const reference = solveRate(48, instalment, 60_000, 12_000, true);
    for (const guess of [0, 0.0062, 0.5, -0.5, 1e3, Number.NaN, -7]) {
      expect(solveRate(48, instalment, 60_000, 12_000, true, guess)).toBeCloseTo(reference, 13);
    }
  });

  it('is NaN when no rate repays the amount', () => {
    expect(solveRate(12, 0, 10_000, 0, false)).toBeNaN(); // nothing repaid
    expect(solveRate(3, 1_000, 900, 0, true)).toBeNaN(); // advance first instalment alone exceeds the amount
    expect(solveRate(0, 100, 1_000, 0, false)).toBeNaN();
    expect(solveRate(12, Number.NaN, 1_000, 0, false)).toBeNaN();
  });

  it('returns the starting point when every rate solves (one advance instalment equal to the amount)', () => {
    expect(solveRate(1, 1_000, 1_000, 0, true)).toBe(0);
  });

  it('effectiveAnnualRate is m * i * 100', () => {
    const instalment = pmt(0.095 / 12, 60, 50_000, 0, false);
    expect(effectiveAnnualRate(60, instalment, 50_000, 0, false, 12)).toBeCloseTo(9.5, 10);
  });
});

describe('Rule 10 Rounding', () => {
  it('rounds money half-up to cents, robust to binary noise', () => {
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(2.675)).toBe(2.68);
    expect(roundMoney(1.0049)).toBe(1);
    expect(roundMoney(1050.0930654857855)).toBe(1050.09);
    expect(roundMoney(0.125)).toBe(0.13);
    expect(roundMoney(-1.005)).toBe(-1.01); // half away from zero, as Excel ROUND
    expect(roundMoney(1e15 + 0.5)).toBe(1e15 + 0.5); // beyond cent precision: untouched
    expect(Object.is(roundMoney(-0.001), 0)).toBe(true); // never "-0.00"
  });

  it('rounds rates half-up to 4 dp', () => {
    expect(roundRate(8.880703216878578)).toBe(8.8807);
    expect(roundRate(8.88075)).toBe(8.8808);
    expect(roundRate(1.00005)).toBe(1.0001);
  });

  it('formats plain decimals without symbols or separators', () => {
    expect(formatMoney(1050.0930654857855)).toBe('1050.09');
    expect(formatMoney(750)).toBe('750.00');
    expect(formatMoney(1234567.891)).toBe('1234567.89');
    expect(formatMoney(-0.004)).toBe('0.00');
    expect(formatMoney(-12.345)).toBe('-12.35');
    expect(formatRate(8.880703216878578)).toBe('8.8807');
    expect(formatRate(9.5)).toBe('9.5000');
    expect(formatRate(Number.NaN)).toBe('NaN');
  });

  it('numeric half-up equals its decimal-string definition', () => {
    const decimals = fc.tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 1, max: 7 }), fc.boolean());
    fc.assert(
      fc.property(decimals, fc.constantFrom(2, 4), ([digits, places, negative], dp) => {
        const x = Number(`${negative ? '-' : ''}${digits}e-${places}`); // e.g. 1.005, 8.88075
        expect(roundHalfUp(x, dp)).toBe(roundHalfUpByString(x, dp));
      }),
      { seed: 1010, numRuns: 5_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), fc.constantFrom(2, 4), (x, dp) => {
        expect(roundHalfUp(x, dp)).toBe(roundHalfUpByString(x, dp));
      }),
      { seed: 1011, numRuns: 5_000 },
    );
  });

  it('a formatted figure is its rounded value printed to its places (formatMoney, formatRate)', () => {
    const format = (x: number, dp: 2 | 4) => (dp === 2 ? formatMoney(x) : formatRate(x));
    const definition = (x: number, dp: 2 | 4) => roundHalfUp(x, dp).toFixed(dp);
    const decimals = fc.tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 7 }), fc.boolean());
    fc.assert(
      fc.property(decimals, fc.constantFrom(2, 4), ([digits, places, negative], dp: 2 | 4) => {
        const x = Number(`${negative ? '-' : ''}${digits}e-${places}`); // halves, whole numbers, every decimal part
        expect(format(x, dp)).toBe(definition(x, dp));
      }),
      { seed: 1012, numRuns: 10_000 },
    );
    fc.assert(
      fc.property(fc.double({ min: -1e16, max: 1e16, noNaN: true }), fc.constantFrom(2, 4), (x, dp: 2 | 4) => {
        expect(format(x, dp)).toBe(definition(x, dp));
      }),
      { seed: 1013, numRuns: 10_000 },
    );
    // Halves at each place, a negative that rounds to zero, carries into the whole part, and whole parts of 1 to 12
    // digits (the formatter builds them from four-digit tables).
    const edges = [
      [0.005, 2],
      [0.00005, 4],
      [-0.004, 2],
      [99.995, 2],
      [9.99995, 4],
      [9999.995, 2],
    ] as const;
    for (const [x, dp] of edges) expect(format(x, dp)).toBe(definition(x, dp));
    for (let digits = 1; digits <= 12; digits++) {
      const whole = 10 ** digits - 1; // 9, 99, ..., 999999999999: every table boundary
      for (const x of [whole, whole + 1, -whole - 0.25, whole / 7]) {
        expect(formatMoney(x)).toBe(definition(x, 2));
        if (digits <= 10) expect(formatRate(x)).toBe(definition(x, 4));
      }
    }
  });
});

describe('Rule 4 Repayment / Rule 10 Rounding: amortisation schedule reconciles to the balloon (domain.md)', () => {
  const cents = (x: number) => Math.round(x * 100);

  it('arrears: interest on the opening balance; the last instalment absorbs rounding; closes on the balloon', () => {
    const i = 0.0845 / 12;
    const rows = amortisationSchedule(i, 60, 88_000, 26_400, false);
    expect(rows).toHaveLength(60);
    expect(rows[0]).toMatchObject({ index: 1, opening: 88_000, payment: 1448.23, interest: roundMoney(88_000 * i) });
    expect(rows.at(-1)!.balance).toBe(26_400);
  });

  it('advance: the first instalment is paid at time 0, before interest runs; closes on the balloon at time n', () => {
    const i = 0.0845 / 12;
    const rows = amortisationSchedule(i, 60, 88_000, 26_400, true);
    expect(rows[0].payment).toBe(1438.11);
    expect(rows[0].interest).toBe(roundMoney((88_000 - 1438.11) * i)); // no interest on the instalment itself
    expect(rows.at(-1)!.balance).toBe(26_400);
  });

  it('zero rate: no interest, equal instalments of (P - B)/n', () => {
    for (const advance of [false, true]) {
      const rows = amortisationSchedule(0, 24, 24_000, 6_000, advance);
      expect(rows.every((row) => row.interest === 0 && row.payment === 750)).toBe(true);
      expect(rows.at(-1)!.balance).toBe(6_000);
    }
  });

  it('reconciles exactly over many random deals', () => {
    const deal = fc.record({
      annualPercent: fc.double({ min: 0, max: 30, noNaN: true }),
      m: fc.constantFrom(1, 4, 12, 52),
      years: fc.integer({ min: 1, max: 7 }),
      P: fc.integer({ min: 100_000, max: 200_000_000 }).map((c) => c / 100),
      balloonShare: fc.double({ min: 0, max: 0.6, noNaN: true }),
      advance: fc.boolean(),
    });
    fc.assert(
      fc.property(deal, ({ annualPercent, m, years, P, balloonShare, advance }) => {
        const n = years * m;
        const i = ratePerInstalment(annualPercent / 100, 12, m);
        const B = P * balloonShare;
        const rows = amortisationSchedule(i, n, P, B, advance);
        const instalment = roundMoney(pmt(i, n, P, B, advance));
        expect(rows).toHaveLength(n);
        expect(rows.at(-1)!.balance).toBe(roundMoney(B));
        let opening = cents(P);
        let principal = 0;
        let paid = 0;
        let interest = 0;
        for (const row of rows) {
          expect(cents(row.opening)).toBe(opening);
          expect(cents(row.principal)).toBe(cents(row.payment) - cents(row.interest));
          expect(cents(row.balance)).toBe(opening - cents(row.principal));
          if (row.index < n) expect(row.payment).toBe(instalment);
          opening = cents(row.balance);
          principal += cents(row.principal);
          paid += cents(row.payment);
          interest += cents(row.interest);
        }
        expect(principal).toBe(cents(P) - cents(roundMoney(B)));
        expect(paid).toBe(interest + principal);
        // Rounding drift stays small: at most a cent per instalment, compounded to time n (half a cent from the
        // rounded instalment plus half a cent from each row's interest).
        const compounded = i === 0 ? n : Math.expm1(n * Math.log1p(i)) / i;
        expect(Math.abs(rows.at(-1)!.payment - instalment)).toBeLessThanOrEqual(0.01 * compounded + 0.01);
      }),
      { seed: 4242, numRuns: 400 },
    );
  });

  it('is empty for a non-integer or non-positive n', () => {
    expect(amortisationSchedule(0.01, 0, 1000, 0, false)).toEqual([]);
    expect(amortisationSchedule(0.01, 2.5, 1000, 0, false)).toEqual([]);
    expect(amortisationSchedule(Number.NaN, 12, 1000, 0, false)).toEqual([]);
  });
});
