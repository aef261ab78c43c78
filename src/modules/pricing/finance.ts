/**
 * Finance maths for the pricing engine: instalments, rates, effective rates and rounding (docs/pricing.md, "Maths").
 *
 * Pure and cheap on the hot paths (pmt allocates nothing, solveRate one small record): the engine calls them twice
 * per priced bracket.
 * Every figure matches Excel's financial functions, so a broker can reproduce it in a spreadsheet:
 *   repayment      = PMT(i, n, -P, B, t)
 *   rate per inst. = RATE(n, -instalment, amount, -B, t)
 * Rates in this module are FRACTIONS (0.095 for 9.5% p.a.) unless a name says "percent".
 */
import type { CompoundingFrequency, RepaymentFrequency } from '../../lib/vocabulary.ts';

// ---------------------------------------------------------------------------------------------------------------
// Rule 1 Frequencies, Rule 2 Rate per instalment, Rule 3 Instalments
// ---------------------------------------------------------------------------------------------------------------

/** Rule 1: `m`, instalments per year. `none` (and anything unknown) prices monthly. */
export function instalmentsPerYear(freq: RepaymentFrequency | null | undefined): number {
  switch (freq) {
    case 'yearly':
      return 1;
    case 'quarterly':
      return 4;
    case 'weekly':
      return 52;
    case 'daily':
      return 365;
    default:
      return 12; // 'monthly', 'none', null
  }
}

/** Rule 1: `c`, compounding periods per year, from a product's `compounding_frequency` (null = monthly). */
export function compoundingPerYear(c: CompoundingFrequency | null | undefined): number {
  switch (c) {
    case 'y':
      return 1;
    case 'q':
      return 4;
    case 'w':
      return 52;
    default:
      return 12; // 'm', null
  }
}

/**
 * Rule 2: rate per instalment `i = (1 + j/c)^(c/m) - 1` for a nominal annual rate `j` (a fraction) compounded `c`
 * times a year and paid `m` times a year. When `c = m` this is exactly `j/m` (no pow round-off).
 * NaN when the inputs have no meaning (c or m not positive, j/c <= -1).
 */
export function ratePerInstalment(j: number, c: number, m: number): number {
  if (!(c > 0) || !(m > 0) || !Number.isFinite(j) || !Number.isFinite(c) || !Number.isFinite(m)) return NaN;
  const perCompounding = j / c;
  if (!(perCompounding > -1)) return NaN;
  if (c === m) return j / m;
  // expm1/log1p keep full precision for small rates, where pow(1 + x, y) - 1 would cancel.
  return Math.expm1((c / m) * Math.log1p(perCompounding));
}

/** Rule 3: `n = round(term_months * m / 12)`, half-up (terms are positive). */
export function instalmentCount(term: number, m: number): number {
  return Math.round((term * m) / 12);
}

// ---------------------------------------------------------------------------------------------------------------
// Rule 4 Repayment
// ---------------------------------------------------------------------------------------------------------------

/**
 * Rates per instalment below this are zero for every formula here. Their effect on any figure is below 1e-280
 * of it, and subnormal doubles carry too few bits for `i / (1 - (1+i)^-n)` to be computed reliably.
 */
const NEGLIGIBLE_RATE = 1e-300;

/**
 * Rule 4: the instalment that repays `P` down to a balloon `B` due at time `n` in `n` instalments at rate `i`
 * per instalment, in advance (`t = 1`, first instalment at time 0) or in arrears (`t = 0`).
 *
 * Excel `PMT(i, n, -P, B, t)`, sign-normalised so a loan gives a positive instalment:
 *   (P - B(1+i)^-n) * i / ((1 - (1+i)^-n)(1 + i*t));   with i = 0: (P - B)/n.
 * The balloon falls at time n in both modes (Excel's convention). Non-integer n is accepted as Excel does.
 * NaN when n is not positive or i <= -1.
 */
export function pmt(i: number, n: number, P: number, B: number, advance: boolean): number {
  if (!(n > 0) || !Number.isFinite(n)) return NaN;
  if (Math.abs(i) < NEGLIGIBLE_RATE) return (P - B) / n;
  if (!(i > -1)) return NaN;
  const logDiscount = -n * Math.log1p(i); // ln((1+i)^-n)
  const discount = Math.exp(logDiscount); // (1+i)^-n
  const oneMinusDiscount = -Math.expm1(logDiscount); // 1 - (1+i)^-n, exact for tiny i
  return ((P - B * discount) * i) / (oneMinusDiscount * (advance ? 1 + i : 1));
}

// ---------------------------------------------------------------------------------------------------------------
// Rule 8 Effective rate: bracketed solver for Excel RATE
// ---------------------------------------------------------------------------------------------------------------

/**
 * The RATE problem being solved: n, instalment, pv (the amount advanced) and the balloon, in one reused Float64Array,
 * and whether instalments are in advance. Not an object or a closure: V8 keeps a number field of an object as a heap
 * box of its own, and the engines solve twice per priced bracket (thousands of solves per run), so a record per solve
 * was most of a run's garbage. The solver is synchronous and never re-entered, so one record serves every call.
 */
const FLOWS = new Float64Array(4);
const F_N = 0;
const F_INSTALMENT = 1;
const F_PV = 2;
const F_BALLOON = 3;
let flowsInAdvance = false;

/**
 * Present value at rate `i` of the customer's payments (n instalments of `instalment`, balloon `B` at time n)
 * minus the amount advanced `pv` (the problem in FLOWS). The rate we want is the root. For a positive instalment and
 * non-negative balloon this is strictly decreasing in `i` on (-1, inf): +inf as i -> -1, `instalment*t - pv` as
 * i -> inf.
 */
function presentValueGap(i: number): number {
  const n = FLOWS[F_N];
  const instalment = FLOWS[F_INSTALMENT];
  if (Math.abs(i) < NEGLIGIBLE_RATE) return instalment * n + FLOWS[F_BALLOON] - FLOWS[F_PV];
  const logDiscount = -n * Math.log1p(i);
  const annuity = -Math.expm1(logDiscount) / i; // (1 - (1+i)^-n)/i, accurate near 0
  return instalment * (flowsInAdvance ? 1 + i : 1) * annuity + FLOWS[F_BALLOON] * Math.exp(logDiscount) - FLOWS[F_PV];
}

/** Absolute tolerance on the rate per instalment. */
const RATE_TOLERANCE = 1e-15;
/** Highest rate per instalment the bracket search tries: 1,000,000% per instalment. */
const MAX_RATE = 1e4;
const MAX_SOLVER_ITERATIONS = 200;

/**
 * Rule 8: the rate per instalment `i` (a fraction) at which `n` instalments of `instalment` (advance or arrears)
 * and a balloon `B` at time n repay `pv`; Excel `RATE(n, -instalment, pv, -B, t)`.
 *
 * Bracketed, never a bare Newton step (spreadsheet RATE solvers built on Newton alone are known to fail to converge
 * or to return the wrong root):
 * 1. the gap is evaluated at the starting point (`guess`, default 0; at 0 a zero-rate deal is settled exactly);
 *    its sign tells on which side the root lies;
 * 2. the bracket expands geometrically on that side (up to MAX_RATE, or down towards -1 for negative rates,
 *    halving the distance to -1 without ever reaching it) until the gap changes sign;
 * 3. Brent's method (inverse quadratic interpolation with a bisection fallback, so it never leaves the bracket)
 *    converges to ~1e-15.
 * If the gap does not change sign on the expected side (possible only for unusual signs, e.g. a negative balloon)
 * the other side is searched too. `guess` only saves iterations: the engine passes the priced rate, which the
 * effective rate is usually close to. When every rate solves (one advance instalment equal to `pv`) the starting
 * point is returned.
 *
 * Returns NaN when no rate in (-1, MAX_RATE] repays `pv` (e.g. instalment and balloon both zero, or an advance
 * first instalment that alone exceeds `pv`) or an input is not finite; the caller decides what NaN means.
 */
export function solveRate(
  n: number,
  instalment: number,
  pv: number,
  balloon: number,
  advance: boolean,
  guess = 0,
): number {
  if (
    !(n > 0) ||
    !Number.isFinite(n) ||
    !Number.isFinite(instalment) ||
    !Number.isFinite(pv) ||
    !Number.isFinite(balloon)
  ) {
    return NaN;
  }
  const origin = Number.isFinite(guess) && guess > -1 && guess <= MAX_RATE ? guess : 0;
  FLOWS[F_N] = n;
  FLOWS[F_INSTALMENT] = instalment;
  FLOWS[F_PV] = pv;
  FLOWS[F_BALLOON] = balloon;
  flowsInAdvance = advance;
  const atOrigin = presentValueGap(origin);
  if (atOrigin === 0) return origin;
  if (Number.isNaN(atOrigin)) return NaN;
  const upwards = atOrigin > 0; // a decreasing gap that is positive here has its root above
  const root = searchAndSolve(origin, atOrigin, upwards);
  // Non-monotone cash flows only: the other side (NaN again when it has no root either).
  return Number.isNaN(root) ? searchAndSolve(origin, atOrigin, !upwards) : root;
}

/**
 * The bracket Brent's method starts from, written by searchAndSolve and read by brent: passing four numbers as
 * arguments to a function the compiler does not inline boxes each of them.
 */
const BRACKET = new Float64Array(4);
const B_A = 0;
const B_B = 1;
const B_FA = 2;
const B_FB = 3;

/** Expands a bracket from `origin` in one direction and solves in it; NaN when the gap never changes sign there. */
function searchAndSolve(origin: number, atOrigin: number, upwards: boolean): number {
  let near = origin;
  let fNear = atOrigin;
  // First step: 1/8 of the rate, at least 0.001 per instalment; doubling from there.
  let step = Math.max(Math.abs(origin) / 8, 1e-3);
  for (let attempt = 0; attempt < 200; attempt++, step *= 2) {
    let far: number;
    if (upwards) {
      far = near + step;
      if (far > MAX_RATE) return NaN;
    } else {
      far = near - step;
      if (!(far > -1)) far = -1 + (1 + near) / 2; // approach -1, never reach it
      if (far === near || 1 + far < 1e-15) return NaN;
    }
    const fFar = presentValueGap(far);
    if (fFar === 0) return far;
    if (Number.isNaN(fFar)) return NaN;
    if (fFar < 0 !== fNear < 0) {
      BRACKET[B_A] = upwards ? near : far;
      BRACKET[B_B] = upwards ? far : near;
      BRACKET[B_FA] = upwards ? fNear : fFar;
      BRACKET[B_FB] = upwards ? fFar : fNear;
      return brent();
    }
    near = far;
    fNear = fFar;
  }
  return NaN;
}

/**
 * Brent's method (after Numerical Recipes `zbrent`) on the bracket [a, b] in BRACKET, with f(a), f(b) of opposite
 * signs. Interpolation steps are only taken when every value involved is finite; otherwise it bisects, so an
 * overflowing gap near i = -1 cannot stall it.
 */
function brent(): number {
  let a = BRACKET[B_A];
  let b = BRACKET[B_B];
  let fa = BRACKET[B_FA];
  let fb = BRACKET[B_FB];
  let c = b;
  let fc = fb;
  let d = b - a;
  let e = d;
  for (let iteration = 0; iteration < MAX_SOLVER_ITERATIONS; iteration++) {
    if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tol = 2 * Number.EPSILON * Math.abs(b) + 0.5 * RATE_TOLERANCE;
    const half = 0.5 * (c - b);
    if (Math.abs(half) <= tol || fb === 0) return b;
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb) && Number.isFinite(fa) && Number.isFinite(fc)) {
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * half * s; // secant
        q = 1 - s;
      } else {
        const qa = fa / fc; // inverse quadratic interpolation
        const r = fb / fc;
        p = s * (2 * half * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      p = Math.abs(p);
      if (2 * p < Math.min(3 * half * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = half;
        e = d;
      }
    } else {
      d = half;
      e = d;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : half > 0 ? tol : -tol;
    fb = presentValueGap(b);
  }
  return b;
}

/**
 * Rule 8: effective annual rate as a percentage, `m * RATE(n, -instalment, amount, -B, t) * 100`, where `amount` is
 * the money advanced for the asset (`cost_inc - deposit`) and `instalment` the repayment before any monthly fee.
 * NaN when no rate solves. `guess` (a rate per instalment) only speeds the solver up.
 */
export function effectiveAnnualRate(
  n: number,
  instalment: number,
  amount: number,
  balloon: number,
  advance: boolean,
  m: number,
  guess = 0,
): number {
  return m * solveRate(n, instalment, amount, balloon, advance, guess) * 100;
}

// ---------------------------------------------------------------------------------------------------------------
// Rule 10 Rounding
// ---------------------------------------------------------------------------------------------------------------

/**
 * Rounds half away from zero (Excel ROUND; "half-up" for the positive figures a quote shows) to `dp` decimals
 * (0..10), robust to binary noise: the value is taken as its 15-significant-digit decimal, the precision a double
 * carries reliably, so 1.005 (stored as 1.00499999999999989...) rounds to 1.01 and 2.675 to 2.68, where
 * `toFixed` gives 1.00 and 2.67. Numeric rather than via strings because the engine sorts thousands of rows on
 * rounded keys (Rule 13); the tests check it against the string definition
 * `Number(Math.round(Number(abs.toPrecision(15) + 'e' + dp)) + 'e-' + dp)`.
 * Values of 1e15 and above have no fraction left to round and are returned as they are.
 */
export function roundHalfUp(x: number, dp: number): number {
  if (!Number.isFinite(x)) return x;
  const magnitude = Math.abs(x);
  if (magnitude === 0) return 0;
  if (magnitude >= 1e15) return x;
  const scale = POWERS_OF_TEN[dp] ?? 10 ** dp;
  const scaled = magnitude * scale;
  // 15 or more digits kept: the decimal places reach the noise itself; the string definition settles it exactly.
  if (scaled >= 1e14) return roundHalfUpByString(x, dp);
  const rounded = roundedUnits(magnitude, scaled, scale) / scale; // both exact integers: the nearest double to the decimal
  return rounded === 0 ? 0 : x < 0 ? -rounded : rounded;
}

/**
 * `scaled` (= magnitude x 10^dp, below 1e14) rounded half-up to a whole number of units of the last kept decimal,
 * robust to binary noise: half a unit of the 15th significant digit of the magnitude, in those units, is at most
 * 0.5e-14 x scaled, so a fraction clearly below one half (the usual case) is settled without the logarithm.
 */
function roundedUnits(magnitude: number, scaled: number, scale: number): number {
  const whole = Math.floor(scaled);
  const fraction = scaled - whole;
  if (fraction >= 0.5) return whole + 1;
  if (fraction < 0.5 - 1e-14 * scaled) return whole;
  // A fraction within the noise of one half is a half disguised by representation noise.
  const noise = 0.5 * 10 ** (Math.floor(Math.log10(magnitude)) - 14) * scale;
  return fraction >= 0.5 - noise ? whole + 1 : whole;
}

/**
 * `roundHalfUp(x, dp).toFixed(dp)`, the same characters, written from the whole number of units directly (no
 * toFixed, which is slow: the rows of one run format thousands of figures). Values off the integer path (very large,
 * or so precise that the string definition settles them) go through toFixed.
 *
 * The digits come from tables made once, never from a number turned into a string: V8 keeps each such string in
 * its number-string cache, an old-generation table, so it outlives the next young-generation GC, which must copy it.
 * A figure is one new string; the Matrix Calculator formats six a row (docs/performance.md, "The engines' tail").
 */
function formatHalfUp(x: number, dp: 2 | 4): string {
  const magnitude = Math.abs(x);
  const scale = dp === 2 ? 100 : 10_000;
  const scaled = magnitude * scale;
  if (!(magnitude < 1e15) || !(scaled < 1e14)) return roundHalfUp(x, dp).toFixed(dp);
  if (magnitude === 0) return dp === 2 ? '0.00' : '0.0000';
  const units = roundedUnits(magnitude, scaled, scale);
  const whole = Math.floor(units / scale);
  const figure = wholeDigits(whole) + (dp === 2 ? CENTS : TEN_THOUSANDTHS)[units - whole * scale];
  return x < 0 && units !== 0 ? `-${figure}` : figure;
}

/** The decimal digits of a whole number (0 <= n < 1e12, as `formatHalfUp`'s whole parts are), from the tables. */
function wholeDigits(n: number): string {
  if (n < 10_000) return UP_TO_FOUR_DIGITS[n];
  if (n < 100_000_000) {
    const high = Math.floor(n / 10_000);
    return UP_TO_FOUR_DIGITS[high] + FOUR_DIGITS[n - high * 10_000];
  }
  const high = Math.floor(n / 100_000_000);
  const middle = Math.floor((n - high * 100_000_000) / 10_000);
  return UP_TO_FOUR_DIGITS[high] + FOUR_DIGITS[middle] + FOUR_DIGITS[n - high * 100_000_000 - middle * 10_000];
}

const table = (size: number, entry: (n: number) => string): readonly string[] =>
  Array.from({ length: size }, (_, n) => entry(n));
/** "0" to "9999", "0000" to "9999", ".00" to ".99" and ".0000" to ".9999". */
const UP_TO_FOUR_DIGITS = table(10_000, (n) => String(n));
const FOUR_DIGITS = table(10_000, (n) => String(n).padStart(4, '0'));
const CENTS = table(100, (n) => `.${String(n).padStart(2, '0')}`);
const TEN_THOUSANDTHS = table(10_000, (n) => `.${String(n).padStart(4, '0')}`);

const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

function roundHalfUpByString(x: number, dp: number): number {
  const [mantissa, exponent = '0'] = Math.abs(x).toPrecision(15).split('e');
  const rounded = Number(`${Math.round(Number(`${mantissa}e${Number(exponent) + dp}`))}e${-dp}`);
  return rounded === 0 ? 0 : x < 0 ? -rounded : rounded;
}

/** Rule 10: money, half-up to cents (1.005 -> 1.01). */
export function roundMoney(x: number): number {
  return roundHalfUp(x, 2);
}

/** Rule 10: rates, half-up to 4 decimal places (percent figures: 8.88070321 -> 8.8807). */
export function roundRate(x: number): number {
  return roundHalfUp(x, 4);
}

/** Rule 10: a plain decimal string with 2 dp, no symbol or separator: "1050.09". Non-finite values print as JS does. */
export function formatMoney(x: number): string {
  return Number.isFinite(x) ? formatHalfUp(x, 2) : String(x);
}

/** Rule 10: a plain decimal string with 4 dp: "8.8807". */
export function formatRate(x: number): string {
  return Number.isFinite(x) ? formatHalfUp(x, 4) : String(x);
}

// ---------------------------------------------------------------------------------------------------------------
// Amortisation schedule (domain.md: "a schedule must reconcile to the balloon exactly")
// ---------------------------------------------------------------------------------------------------------------

export interface AmortisationRow {
  /** 1-based instalment number. */
  index: number;
  /** Balance owed at the start of the period. */
  opening: number;
  /** Instalment paid (before any monthly fee). */
  payment: number;
  /** Interest charged over this period. */
  interest: number;
  /** Net reduction of the balance over this period: payment - interest. */
  principal: number;
  /** Balance owed at the end of the period (row n: exactly the balloon). */
  balance: number;
}

/**
 * Schedule of `n` instalments repaying `P` to a balloon `B` at rate `i` per instalment. Every money figure is in
 * whole cents (worked in integer cents, so sums are exact); each row's interest is rounded half-up to the cent,
 * every instalment but the last is PMT rounded to the cent, and the LAST instalment absorbs all rounding so the
 * closing balance equals the balloon exactly: sum(principal) = P - B and sum(payment) = sum(interest) + P - B.
 *
 * One row per period; `balance` is the balance owed at the end of the period, so row n's balance is what is owed
 * at time n, when the balloon falls (Rule 4: time n in both modes).
 * - Arrears: the instalment is paid at the end of its period; interest = opening * i.
 * - Advance: the instalment is paid at the START of its period. The first is paid at time 0 (settlement), before
 *   any interest has run, so no interest is charged on it: it comes off the amount financed in full and period 1's
 *   interest runs on P - payment. In general interest = (opening - payment) * i. (Row k's interest equals Excel
 *   IPMT(i, k + 1, n, -P, B, 1) before rounding; Excel's IPMT(.., 1, .., 1) = 0 is that same first instalment.)
 *
 * Returns [] when n is not a positive integer or an input is not finite. `offset` and `first` select a page (rows
 * offset+1 .. offset+first): only those rows are allocated, and none past the page is computed.
 */
export function amortisationSchedule(
  i: number,
  n: number,
  P: number,
  B: number,
  advance: boolean,
  offset = 0,
  first = Infinity,
): AmortisationRow[] {
  if (!Number.isInteger(n) || n < 1 || ![i, P, B].every(Number.isFinite) || !(i > -1)) return [];
  const instalment = pmt(i, n, P, B, advance);
  if (!Number.isFinite(instalment)) return [];
  const cents = (x: number) => Math.round(roundMoney(x) * 100);
  const payment = cents(instalment);
  const balloon = cents(B);
  const rows: AmortisationRow[] = [];
  let opening = cents(P);
  const last = Math.min(n, offset + first);
  for (let index = 1; index <= last; index++) {
    let paid: number;
    let interest: number;
    if (index < n) {
      paid = payment;
      interest = cents(((advance ? opening - paid : opening) / 100) * i);
    } else if (advance) {
      // Choose the balance after the final instalment so that one period's interest brings it to the balloon.
      const afterPayment = cents(B / (1 + i));
      paid = opening - afterPayment;
      interest = balloon - afterPayment;
    } else {
      interest = cents((opening / 100) * i);
      paid = opening + interest - balloon;
    }
    const principal = paid - interest;
    const balance = index < n ? opening - principal : balloon; // equal by construction on the last row
    if (index > offset)
      rows.push({
        index,
        opening: opening / 100,
        payment: paid / 100,
        interest: interest / 100,
        principal: principal / 100,
        balance: balance / 100,
      });
    opening = balance;
  }
  return rows;
}
