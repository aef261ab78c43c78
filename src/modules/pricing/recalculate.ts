/**
 * Re-prices one edited result row (POST /api/v1/calculator/recalculate). Pure: no I/O; the snapshot's pricing index
 * is passed in only to find the bracket's product monthly fee. See docs/pricing.md "Recalculation".
 *
 * Two kinds of refusal, kept apart: `recalculationInputErrors` names the fields a caller got wrong (the API's 400);
 * `recalculate` returns `{ ok: false }` only for a row that cannot be re-priced from well-formed figures (the 500).
 */
import type { RepaymentFrequency } from '../../lib/vocabulary.ts';
import type { FieldError } from '../../lib/errors.ts';
import { productOfBracket, type PricingIndex } from './engine.ts';
import { effectiveAnnualRate, instalmentsPerYear, pmt, ratePerInstalment, roundMoney, roundRate } from './finance.ts';

/** The recalculation body (api-v1.md), numbers already parsed. */
export interface RecalculateInput {
  rate_bracket_id: number;
  /** Edited annual rates, percent. */
  base_min: number;
  base_max: number;
  /** `c`, compounding periods per year. */
  compounding_freq_value: number;
  /** `P`, amount financed. */
  pv: number;
  balloon: number;
  /** Rule 8 here uses cost and deposit as given. */
  cost: number;
  deposit: number;
  /** `n` for the min and max figures. */
  noi_min: number;
  noi_max: number;
  /** 'advance' prices in advance; anything else (null included) in arrears. */
  billing_type: string | null;
  repayment_frequency: RepaymentFrequency | null;
}

export interface RecalculateResult {
  rate_bracket_id: number;
  /** Rate per instalment `i`, percent, full precision. */
  r_min: number;
  r_max: number;
  /** Dollars, rounded to the cent (includes the product's monthly fee share when an index is given). */
  repayment_min: number;
  repayment_max: number;
  /** Effective annual rate, percent, rounded to 4 dp. */
  e_min: number;
  e_max: number;
}

type RecalculateFailureReason =
  | 'invalid_rate' // base_min/base_max not finite, or j/c <= -1
  | 'invalid_compounding' // c not a positive finite number
  | 'invalid_instalments' // n not a positive finite number
  | 'invalid_amount' // pv, balloon, cost or deposit not finite
  | 'not_finite'; // a repayment or effective rate came out non-finite (e.g. no rate solves Rule 8)

export type RecalculateOutcome =
  | { ok: true; value: RecalculateResult }
  | { ok: false; reason: RecalculateFailureReason; detail: string };

/**
 * Re-prices one edited row. The REST answer carries doubles, not the strings of a result row, so this is where
 * Rule 10's formatting precision is applied: repayments to the cent and e to 4 dp, as the row showed them;
 * `r_min` / `r_max` stay full precision because a rate per instalment to 4 dp of a percent would lose most of a
 * weekly rate's digits and clients may re-use it.
 *
 * The body carries no monthly fee: pass the snapshot's index to add the bracket's product monthly fee share
 * (Rule 9) so the edited card shows the same kind of repayment it showed before; without an index (or for an
 * unknown bracket) the repayment excludes it. `noi_*` are used as given (Excel accepts a fractional count).
 * Never throws: a row that cannot be re-priced is `{ ok: false, reason }` (the API answers 500).
 */
export function recalculate(input: RecalculateInput, index?: PricingIndex | null): RecalculateOutcome {
  const fail = (reason: RecalculateFailureReason, detail: string): RecalculateOutcome => ({
    ok: false,
    reason,
    detail,
  });
  const { base_min, base_max, compounding_freq_value: c, pv, balloon, cost, deposit, noi_min, noi_max } = input;
  if (!Number.isFinite(base_min) || !Number.isFinite(base_max))
    return fail('invalid_rate', 'base rate is not a number');
  if (!Number.isFinite(c) || c <= 0) return fail('invalid_compounding', 'compounding_freq_value must be positive');
  if (!Number.isFinite(noi_min) || !Number.isFinite(noi_max) || noi_min <= 0 || noi_max <= 0) {
    return fail('invalid_instalments', 'noi_min and noi_max must be positive');
  }
  if (![pv, balloon, cost, deposit].every(Number.isFinite)) return fail('invalid_amount', 'an amount is not a number');

  const m = instalmentsPerYear(input.repayment_frequency);
  const advance = input.billing_type === 'advance';
  const amountAdvanced = cost - deposit;
  const product = index ? productOfBracket(index, input.rate_bracket_id) : null;
  const monthlyFeePerInstalment = (Math.max(0, product?.monthly_fee ?? 0) * 12) / m;

  const side = (annualPercent: number, n: number) => {
    const i = ratePerInstalment(annualPercent / 100, c, m);
    const instalment = pmt(i, n, pv, balloon, advance);
    const e = effectiveAnnualRate(n, instalment, amountAdvanced, balloon, advance, m, i);
    return { i, repayment: instalment + monthlyFeePerInstalment, e };
  };
  const low = side(base_min, noi_min);
  const high = side(base_max, noi_max);
  if (!Number.isFinite(low.i) || !Number.isFinite(high.i)) return fail('invalid_rate', 'rate per instalment undefined');
  const figures = [low.repayment, high.repayment, low.e, high.e];
  if (!figures.every(Number.isFinite)) return fail('not_finite', 'the row cannot be re-priced with these figures');
  return {
    ok: true,
    value: {
      rate_bracket_id: input.rate_bracket_id,
      r_min: low.i * 100,
      r_max: high.i * 100,
      repayment_min: roundMoney(low.repayment),
      repayment_max: roundMoney(high.repayment),
      e_min: roundRate(low.e),
      e_max: roundRate(high.e),
    },
  };
}

/** Largest annual rate, percent, a recalculation accepts: far above any card, far below where the solver gives up. */
const MAX_ANNUAL_RATE = 1000;
/** Compounding periods per year: yearly (1) up to daily (365). */
const MAX_COMPOUNDING_PER_YEAR = 365;
/** Instalments: at least one (fractional counts are accepted, as Excel accepts them), at most 100 years of daily. */
const MAX_INSTALMENTS = 36_500;
/** Largest amount (pv, balloon, cost, deposit): a trillion dollars, far above any asset and far below overflow. */
const MAX_AMOUNT = 1e12;

/**
 * The caller's mistakes in a recalculation body, each naming its field (the API answers 400). A body that passes
 * describes a loan: something financed, a balloon no larger than it, money advanced, at least one instalment, a
 * compounding frequency, rates from 0 to MAX_ANNUAL_RATE percent a year, and amounts within MAX_AMOUNT.
 */
export function recalculationInputErrors(input: RecalculateInput): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, messages: [message] });
  for (const field of ['base_min', 'base_max'] as const) {
    const rate = input[field];
    // No negative rates: with one, a balloon near pv repays with negative instalments, as a balloon above pv does.
    if (!Number.isFinite(rate) || rate < 0 || rate > MAX_ANNUAL_RATE)
      add(field, `Must be from 0 to ${MAX_ANNUAL_RATE}.`);
  }
  const c = input.compounding_freq_value;
  if (!Number.isInteger(c) || c < 1 || c > MAX_COMPOUNDING_PER_YEAR)
    add('compounding_freq_value', `Must be a whole number from 1 to ${MAX_COMPOUNDING_PER_YEAR}.`);
  for (const field of ['noi_min', 'noi_max'] as const) {
    if (!Number.isFinite(input[field]) || input[field] < 1 || input[field] > MAX_INSTALMENTS)
      add(field, `Must be from 1 to ${MAX_INSTALMENTS}.`);
  }
  const amount = (x: number, min: 'positive' | 'zero') =>
    Number.isFinite(x) && (min === 'positive' ? x > 0 : x >= 0) && x <= MAX_AMOUNT;
  const amountRule = (min: 'positive' | 'zero') =>
    `Must be ${min === 'positive' ? 'greater than 0' : '0 or more'} and at most 1,000,000,000,000.`;
  if (!amount(input.pv, 'positive')) add('pv', amountRule('positive'));
  if (!amount(input.balloon, 'zero')) add('balloon', amountRule('zero'));
  // A balloon above the amount financed would be repaid by negative instalments.
  else if (amount(input.pv, 'positive') && input.balloon > input.pv)
    add('balloon', 'Must not exceed pv, the amount financed.');
  if (!amount(input.cost, 'positive')) add('cost', amountRule('positive'));
  if (!amount(input.deposit, 'zero')) add('deposit', amountRule('zero'));
  // Rule 8 solves for the rate on cost less deposit: nothing advanced has no rate.
  else if (amount(input.cost, 'positive') && input.deposit >= input.cost) add('deposit', 'Must be less than cost.');
  return errors;
}
