/**
 * The rules an approval write is checked by, pure (no database): bounds, min <= max, percentages at most 100, list
 * lengths, ANZSIC codes. Every broken rule is collected, so one 400 names every bad field. The references (asset ids,
 * rate brackets) need the database and are checked by the service in the write's transaction.
 */
import type { FieldError } from '../../lib/errors.ts';
import { ANZSIC_DIVISION_CODES, type AssetState, type DocLevel, type TransactionType } from '../../lib/vocabulary.ts';

/** An approval's writable fields, as the API names them. Absent and null mean the same: not checked (or empty). */
export interface ApprovalInput {
  name: string;
  doc_level: DocLevel;
  /** Only the approval's own organisation is accepted (an approval never moves); absent = the caller's. */
  organisation_id?: number | null;
  priority?: number | null;
  min_deposit_percentage?: number | null;
  min_deposit_amount?: number | null;
  max_term?: number | null;
  min_term?: number | null;
  min_abn_age?: number | null;
  max_abn_age?: number | null;
  min_gst_age?: number | null;
  max_gst_age?: number | null;
  min_asset_age?: number | null;
  max_asset_age?: number | null;
  min_asset_cost?: number | null;
  max_asset_cost?: number | null;
  min_borrower_age?: number | null;
  max_borrower_age?: number | null;
  min_file_age?: number | null;
  max_file_age?: number | null;
  min_credit_score?: number | null;
  max_credit_score?: number | null;
  home_owner?: boolean | null;
  private_sale?: boolean | null;
  sale_hire_back?: boolean | null;
  asset_state?: AssetState | null;
  transaction_types?: TransactionType[] | null;
  industries?: string[] | null;
  asset_ids?: number[] | null;
  /** The spec's second name for `asset_ids` (responses carry both); when both are sent they must agree. */
  assets?: number[] | null;
  rate_bracket_ids?: number[] | null;
}

/** Most approvals one REST list answer carries; `X-Total-Count` says how many matched (docs/approvals.md). */
export const MAX_REST_APPROVALS = 1000;
/** Longest name, in characters (after trimming). */
const MAX_NAME_LENGTH = 200;
/** Most assets one approval lists (a category covers everything beneath it, so a real list is short). */
const MAX_APPROVAL_ASSETS = 500;
/** Most rate brackets one approval links. */
export const MAX_APPROVAL_RATE_BRACKETS = 500;
/** Most items a list may carry before duplicates are dropped (transaction types, industries). */
const MAX_LIST_ITEMS = 100;
/** Largest dollar amount the columns hold (numeric(14, 2)). */
const MAX_AMOUNT = 999_999_999_999.99;
/** |priority| at most this: ordering only, so anything beyond is a mistake. */
const MAX_PRIORITY = 1_000_000;

type IntField = Exclude<
  {
    [K in keyof ApprovalInput]-?: NonNullable<ApprovalInput[K]> extends number ? K : never;
  }[keyof ApprovalInput],
  'organisation_id' | 'priority' | 'min_deposit_percentage' | 'min_deposit_amount' | 'min_asset_cost' | 'max_asset_cost'
>;

/** Integer criteria and their largest sensible value (months, years, score points). */
const INTEGER_BOUNDS: Record<IntField, number> = {
  min_term: 1200,
  max_term: 1200,
  min_abn_age: 1200,
  max_abn_age: 1200,
  min_gst_age: 1200,
  max_gst_age: 1200,
  min_asset_age: 1200,
  max_asset_age: 1200,
  min_borrower_age: 150,
  max_borrower_age: 150,
  min_file_age: 1200,
  max_file_age: 1200,
  min_credit_score: 2000,
  max_credit_score: 2000,
};

/** [lower, upper] pairs: the upper bound is named when it is below the lower one. */
const RANGES = [
  ['min_term', 'max_term'],
  ['min_abn_age', 'max_abn_age'],
  ['min_gst_age', 'max_gst_age'],
  ['min_asset_age', 'max_asset_age'],
  ['min_asset_cost', 'max_asset_cost'],
  ['min_borrower_age', 'max_borrower_age'],
  ['min_file_age', 'max_file_age'],
  ['min_credit_score', 'max_credit_score'],
] as const satisfies readonly (readonly [keyof ApprovalInput, keyof ApprovalInput])[];

/** At most `places` decimal places (the column's scale): more would be silently rounded by the database. */
function hasPlaces(value: number, places: number): boolean {
  return Number(value.toFixed(places)) === value;
}

/** The distinct members of a list, in first-seen order. */
export function distinct<T>(list: readonly T[] | null | undefined): T[] {
  return [...new Set(list ?? [])];
}

/** The asset ids the input means: `asset_ids`, else `assets`. */
export function assetIdsOf(input: ApprovalInput): number[] {
  return distinct(input.asset_ids ?? input.assets ?? []);
}

/** The ANZSIC division codes as a set: one lookup per item, whatever the list's length. */
const DIVISIONS: ReadonlySet<string> = new Set(ANZSIC_DIVISION_CODES);

export function approvalInputErrors(input: ApprovalInput): FieldError[] {
  const errors: FieldError[] = [];
  const byField = new Map<string, FieldError>();
  const add = (field: string, message: string) => {
    const existing = byField.get(field);
    if (existing) existing.messages.push(message);
    else {
      const error = { field, messages: [message] };
      byField.set(field, error);
      errors.push(error);
    }
  };

  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name === '') add('name', 'This field may not be blank.');
  else if (name.length > MAX_NAME_LENGTH)
    add('name', `Ensure this field has no more than ${MAX_NAME_LENGTH} characters.`);

  if (input.priority !== null && input.priority !== undefined) {
    if (!Number.isFinite(input.priority) || Math.abs(input.priority) > MAX_PRIORITY)
      add('priority', `Ensure this value is between -${MAX_PRIORITY} and ${MAX_PRIORITY}.`);
  }

  const pct = input.min_deposit_percentage;
  if (pct !== null && pct !== undefined) {
    if (pct < 0) add('min_deposit_percentage', 'Ensure this value is greater than or equal to 0.');
    else if (pct > 100) add('min_deposit_percentage', 'A percentage cannot exceed 100.');
    else if (!hasPlaces(pct, 4)) add('min_deposit_percentage', 'Ensure there are no more than 4 decimal places.');
  }
  for (const field of ['min_deposit_amount', 'min_asset_cost', 'max_asset_cost'] as const) {
    const value = input[field];
    if (value === null || value === undefined) continue;
    if (value < 0) add(field, 'Ensure this value is greater than or equal to 0.');
    else if (value > MAX_AMOUNT) add(field, `Ensure this value is less than or equal to ${MAX_AMOUNT}.`);
    else if (!hasPlaces(value, 2)) add(field, 'Ensure there are no more than 2 decimal places.');
  }
  for (const [field, max] of Object.entries(INTEGER_BOUNDS) as [IntField, number][]) {
    const value = input[field];
    if (value === null || value === undefined) continue;
    if (value < 0) add(field, 'Ensure this value is greater than or equal to 0.');
    else if (value > max) add(field, `Ensure this value is less than or equal to ${max}.`);
  }
  const bad = new Set(byField.keys());
  for (const [lower, upper] of RANGES) {
    const lo = input[lower];
    const hi = input[upper];
    if (lo === null || lo === undefined || hi === null || hi === undefined || bad.has(lower) || bad.has(upper))
      continue;
    if (lo > hi) add(upper, `Must be at least ${lower} (${lo}).`);
  }

  if ((input.transaction_types?.length ?? 0) > MAX_LIST_ITEMS)
    add('transaction_types', `Ensure this list has no more than ${MAX_LIST_ITEMS} items.`);
  const industries = input.industries ?? [];
  if (industries.length > MAX_LIST_ITEMS)
    add('industries', `Ensure this list has no more than ${MAX_LIST_ITEMS} items.`);
  else {
    const unknown = distinct(industries).filter((code) => !DIVISIONS.has(code));
    if (unknown.length)
      add(
        'industries',
        `Unknown ANZSIC division${unknown.length > 1 ? 's' : ''}: ${unknown
          .slice(0, 5)
          .map((c) => JSON.stringify(c.slice(0, 20)))
          .join(
            ', ',
          )}. Use the codes ${ANZSIC_DIVISION_CODES[0]} to ${ANZSIC_DIVISION_CODES.at(-1)} (GET /api/v1/approvals/options).`,
      );
  }

  for (const field of ['asset_ids', 'assets'] as const) {
    if ((input[field]?.length ?? 0) > MAX_APPROVAL_ASSETS)
      add(field, `Ensure this list has no more than ${MAX_APPROVAL_ASSETS} items.`);
  }
  if (
    input.asset_ids &&
    input.assets &&
    !byField.has('asset_ids') &&
    !byField.has('assets') &&
    !sameMembers(distinct(input.asset_ids), distinct(input.assets))
  )
    add('assets', 'assets and asset_ids name the same list and must agree.');
  if ((input.rate_bracket_ids?.length ?? 0) > MAX_APPROVAL_RATE_BRACKETS)
    add('rate_bracket_ids', `Ensure this list has no more than ${MAX_APPROVAL_RATE_BRACKETS} items.`);
  return errors;
}

function sameMembers(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((x) => set.has(x));
}
