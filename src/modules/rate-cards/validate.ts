/**
 * Request rules for products, rate brackets and asset mappings (every surface: GraphQL, REST, the assistant). Enums
 * and integer/float types are already enforced by GraphQL's input types (a bad value is a 400 naming its field);
 * these rules add what types cannot say: ranges, money that is not negative, a minimum not above its maximum, names
 * that fit. Each answers every bad field at once (FieldErrors). No I/O.
 */
import { FieldErrors } from '../../lib/errors.ts';
import type { CardType, CompoundingFrequency, TriState } from '../../lib/vocabulary.ts';

/** Longest product, bracket or version-label name accepted (a name is shown on every result row). */
const MAX_NAME_LENGTH = 200;
/** Largest dollar amount a card field may hold: far beyond any asset-finance deal, far below float trouble. */
const MAX_MONEY = 1_000_000_000_000;

type Nullable<T> = T | null | undefined;

export interface ProductFields {
  product_name?: Nullable<string>;
  min_range?: Nullable<number>;
  max_range?: Nullable<number>;
  min_amount?: Nullable<number>;
  max_amount?: Nullable<number>;
  min_abn_age?: Nullable<number>;
  max_abn_age?: Nullable<number>;
  min_asset_age?: Nullable<number>;
  max_asset_age?: Nullable<number>;
  min_gst_age?: Nullable<number>;
  max_gst_age?: Nullable<number>;
  min_asset_age_plus_term?: Nullable<number>;
  max_asset_age_plus_term?: Nullable<number>;
  min_credit_score?: Nullable<number>;
  max_credit_score?: Nullable<number>;
  monthly_fee?: Nullable<number>;
  documentation_fee?: Nullable<number>;
  brokerage_cap?: Nullable<number>;
  maximum_brokerage_limit?: Nullable<number>;
  compounding_frequency?: Nullable<CompoundingFrequency>;
  brokerage_loading_treatment?: Nullable<number>;
  max_origination_fee_limit?: Nullable<number>;
  doc_fee_financed?: Nullable<TriState>;
  private_sale?: Nullable<TriState>;
  sale_hire_back?: Nullable<TriState>;
  home_owner?: Nullable<TriState>;
}

export interface RateBracketFields {
  name?: Nullable<string>;
  product_id?: Nullable<number>;
  type?: Nullable<CardType>;
  min_term?: Nullable<number>;
  max_term?: Nullable<number>;
  min_amount?: Nullable<number>;
  max_amount?: Nullable<number>;
  min_asset_age?: Nullable<number>;
  max_asset_age?: Nullable<number>;
  base_min?: Nullable<number>;
  base_max?: Nullable<number>;
  max_lvr?: Nullable<number>;
}

const PRODUCT_INTEGER_FIELDS = [
  'min_range',
  'max_range',
  'min_abn_age',
  'max_abn_age',
  'min_asset_age',
  'max_asset_age',
  'min_gst_age',
  'max_gst_age',
  'min_asset_age_plus_term',
  'max_asset_age_plus_term',
  'min_credit_score',
  'max_credit_score',
] as const;
const PRODUCT_MONEY_FIELDS = [
  'min_amount',
  'max_amount',
  'monthly_fee',
  'documentation_fee',
  'maximum_brokerage_limit',
  'max_origination_fee_limit',
] as const;
/** Percentages: brokerage_cap is a share of the amount (0 to 100); the loading a rate points figure (0 to 100). */
const PRODUCT_PERCENT_FIELDS = ['brokerage_cap', 'brokerage_loading_treatment'] as const;
const PRODUCT_PAIRS = [
  ['min_range', 'max_range'],
  ['min_amount', 'max_amount'],
  ['min_abn_age', 'max_abn_age'],
  ['min_asset_age', 'max_asset_age'],
  ['min_gst_age', 'max_gst_age'],
  ['min_asset_age_plus_term', 'max_asset_age_plus_term'],
  ['min_credit_score', 'max_credit_score'],
] as const;

const BRACKET_INTEGER_FIELDS = ['min_term', 'max_term', 'min_asset_age', 'max_asset_age'] as const;
const BRACKET_MONEY_FIELDS = ['min_amount', 'max_amount'] as const;
const BRACKET_PAIRS = [
  ['min_term', 'max_term'],
  ['min_amount', 'max_amount'],
  ['min_asset_age', 'max_asset_age'],
  ['base_min', 'base_max'],
] as const;

function checkName(errors: FieldErrors, field: string, value: unknown, required: boolean): void {
  if (value === undefined) {
    if (required) errors.add(field, 'This field is required.');
    return;
  }
  if (value === null || typeof value !== 'string' || value.trim() === '') {
    errors.add(field, 'This field may not be blank.');
    return;
  }
  if (value.length > MAX_NAME_LENGTH)
    errors.add(field, `Ensure this field has no more than ${MAX_NAME_LENGTH} characters.`);
}

function checkNumber(errors: FieldErrors, field: string, value: unknown, min: number, max: number): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value)) errors.add(field, 'A valid number is required.');
  else if (value < min) errors.add(field, `Ensure this value is greater than or equal to ${min}.`);
  else if (value > max) errors.add(field, `Ensure this value is less than or equal to ${max}.`);
}

/** `merged` is the record as it would be saved (the stored one with the patch applied): min above max is refused. */
function checkPairs(
  errors: FieldErrors,
  merged: Record<string, unknown>,
  pairs: readonly (readonly [string, string])[],
  touched: (field: string) => boolean,
): void {
  for (const [min, max] of pairs) {
    const lo = merged[min];
    const hi = merged[max];
    if (typeof lo !== 'number' || typeof hi !== 'number' || lo <= hi) continue;
    // Name the field the request sent (both when it sent both): that is the one the caller can fix.
    if (touched(min) || !touched(max)) errors.add(min, `Must not be above ${max} (${hi}).`);
    if (touched(max)) errors.add(max, `Must not be below ${min} (${lo}).`);
  }
}

/**
 * Checks a product create (`stored` absent: product_name required) or patch (`stored`: the saved record, so a new
 * minimum is compared with the saved maximum). Throws one ValidationError naming every bad field.
 */
export function validateProduct(input: ProductFields, stored?: Record<string, unknown>): void {
  const errors = new FieldErrors();
  checkName(errors, 'product_name', input.product_name, stored === undefined);
  for (const f of PRODUCT_INTEGER_FIELDS) checkNumber(errors, f, input[f], 0, 2_147_483_647);
  for (const f of PRODUCT_MONEY_FIELDS) checkNumber(errors, f, input[f], 0, MAX_MONEY);
  for (const f of PRODUCT_PERCENT_FIELDS) checkNumber(errors, f, input[f], 0, 100);
  const merged = { ...stored, ...defined(input) };
  checkPairs(errors, merged, PRODUCT_PAIRS, (f) => (input as Record<string, unknown>)[f] !== undefined);
  errors.throwIfAny();
}

/** As validateProduct, for a rate bracket: name, product and both base rates required on create. */
export function validateRateBracket(input: RateBracketFields, stored?: Record<string, unknown>): void {
  const errors = new FieldErrors();
  const creating = stored === undefined;
  checkName(errors, 'name', input.name, creating);
  if (creating && (input.product_id === undefined || input.product_id === null))
    errors.add('product_id', 'This field is required.');
  if (!creating && input.product_id === null) errors.add('product_id', 'This field may not be null.');
  for (const f of ['base_min', 'base_max'] as const) {
    if (input[f] === null || (creating && input[f] === undefined))
      errors.add(f, input[f] === null ? 'This field may not be null.' : 'This field is required.');
    else checkNumber(errors, f, input[f], 0, 100);
  }
  if (input.type === null) errors.add('type', 'This field may not be null.');
  for (const f of BRACKET_INTEGER_FIELDS) checkNumber(errors, f, input[f], 0, 2_147_483_647);
  for (const f of BRACKET_MONEY_FIELDS) checkNumber(errors, f, input[f], 0, MAX_MONEY);
  checkNumber(errors, 'max_lvr', input.max_lvr, 0, 1000);
  const merged = { ...stored, ...defined(input) };
  checkPairs(errors, merged, BRACKET_PAIRS, (f) => (input as Record<string, unknown>)[f] !== undefined);
  errors.throwIfAny();
}

/** A version label: free text, short; empty clears it. */
export function validateLabel(label: string): string {
  const errors = new FieldErrors();
  if (label.length > MAX_NAME_LENGTH)
    errors.add('label', `Ensure this field has no more than ${MAX_NAME_LENGTH} characters.`);
  errors.throwIfAny();
  return label.trim();
}

/** The keys the request sent (undefined = not sent; null = clear). */
export function defined<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}
