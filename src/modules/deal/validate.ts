/**
 * Request rules shared by the calculator, the Matrix and the Matrix Calculator: required fields, non-negative figures,
 * percentages at most 100, input bounds. Pure: returns the field errors; the service turns them into one ValidationError.
 */
import type { FieldError } from '../../lib/errors.ts';
import type { Surface } from '../../lib/vocabulary.ts';
import type { DealRequest } from './deal.ts';

/** The rules a deal is checked by: the calculator's serve the consumer calculator too. */
export type DealSurface = Exclude<Surface, 'consumer_calculator'>;

const NON_NEGATIVE_INTEGERS = [
  'abn_age',
  'gst_age',
  'asset_age',
  'year_model',
  'borrower_age_youngest',
  'borrower_age_oldest',
  'borrower_age',
  'file_age',
  'credit_score',
  'asset_age_plus_term',
] as const;
const NON_NEGATIVE_AMOUNTS = ['deposit', 'brokerage', 'origination_fee', 'balloon', 'lvr'] as const;
const MAX_PREFERRED_FINANCIERS = 200;
/**
 * Longest term the calculator prices, in months (50 years). The spec bounds `term` below only; a card without a
 * term bound would otherwise price any term, and every priced row offers an amortisation schedule with one row
 * per instalment (daily over 2^31 months is about 6.5e10 rows): unbounded work and memory from one request.
 */
const MAX_CALCULATOR_TERM_MONTHS = 600;

export function dealRequestErrors(request: DealRequest, surface: DealSurface): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, messages: [message] });
  const pricing = surface !== 'matrix';

  if (!Number.isFinite(request.cost) || request.cost < 0) add('cost', 'Cost cannot be negative.');
  if (!Number.isInteger(request.asset_value) || request.asset_value < 1)
    add('asset_value', 'Ensure this value is greater than or equal to 1.');
  if (request.term === null || request.term === undefined) {
    if (pricing) add('term', 'Term is required to price a deal.');
  } else if (!Number.isInteger(request.term) || request.term < 1)
    add('term', 'Ensure this value is greater than or equal to 1.');
  else if (surface === 'calculator' && request.term > MAX_CALCULATOR_TERM_MONTHS) {
    add('term', `Ensure this value is less than or equal to ${MAX_CALCULATOR_TERM_MONTHS}.`);
  }
  if (pricing && !request.advance_arrears) add('advance_arrears', 'This field is required.');
  if (pricing && !request.repayment_frequency) add('repayment_frequency', 'This field is required.');
  for (const field of NON_NEGATIVE_INTEGERS) {
    const value = request[field];
    if (value !== null && value !== undefined && value < 0)
      add(field, 'Ensure this value is greater than or equal to 0.');
  }
  for (const field of NON_NEGATIVE_AMOUNTS) {
    const value = request[field];
    if (value !== null && value !== undefined && value < 0)
      add(field, 'Ensure this value is greater than or equal to 0.');
  }
  if (surface === 'matrix_calculator' && request.type && request.type !== 'commercial') {
    add('type', 'The Matrix Calculator prices commercial deals only.');
  }
  if (request.balloon_percentage && (request.balloon ?? 0) > 100)
    add('balloon', 'A balloon percentage cannot exceed 100.');
  if (request.deposit_percentage && (request.deposit ?? 0) > 100)
    add('deposit', 'A deposit percentage cannot exceed 100.');
  if (request.brokerage_percentage && (request.brokerage ?? 0) > 100)
    add('brokerage', 'A brokerage percentage cannot exceed 100.');
  const homeOwner = request.home_owner ?? null;
  const assetOwner = request.asset_owner ?? null;
  if (homeOwner !== null && assetOwner !== null && homeOwner !== assetOwner) {
    errors.push({
      field: 'home_owner',
      messages: ['home_owner and asset_owner are the same question and must agree.'],
    });
    add('asset_owner', 'home_owner and asset_owner are the same question and must agree.');
  }
  if (
    request.doc_fee_financed !== null &&
    request.doc_fee_financed !== undefined &&
    !['yes', 'no'].includes(request.doc_fee_financed.toLowerCase())
  ) {
    add('doc_fee_financed', 'Must be one of: yes, no.');
  }
  if ((request.preferred_financier?.length ?? 0) > MAX_PREFERRED_FINANCIERS)
    add('preferred_financier', `At most ${MAX_PREFERRED_FINANCIERS} financiers.`);
  return errors;
}
