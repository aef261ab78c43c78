/**
 * The catalogue file (docs/catalogue-format.md): validation only, no I/O.
 *
 * `parseCatalogueFile(json, existing?)` checks a parsed JSON value and answers either the normalised catalogue or the
 * FIRST bad field, as a path such as `approvals[3].doc_level` or `approvals[3].rate_bracket_ids[1]`. "First" is file
 * order: top-level keys in CATALOGUE_KEYS order, items in list order, and within an item its unknown keys first, then
 * the fields in the order of that resource's schema below. The rules are zod schemas; zod reports every problem and
 * the first in file order is answered, so a dangling reference is reported where it sits, not in a second pass.
 *
 * References resolve against the file plus `existing` (what the database already holds). Without `existing` a file
 * must be self-contained; the loader passes what it reads inside its transaction (empty after --reset).
 *
 * One file, past the usual size: it is the whole file format, one schema per resource, and "first bad field in file
 * order" is decided across all of them in one place.
 */
import { z } from 'zod';
import {
  ASSET_STATES,
  CARD_TYPES,
  COMPOUNDING_FREQUENCIES,
  DOC_LEVELS,
  ORGANISATION_TYPES,
  PLANS,
  SUBSCRIPTION_STATUSES,
  TRANSACTION_TYPES,
  TRI_STATES,
  ANZSIC_DIVISION_CODES,
} from '../../lib/vocabulary.ts';
import { ENTITLEMENTS, PLAN_TERMS } from '../../lib/plans.ts';
import { PERMISSION_CODENAMES, USER_GROUPS_MAX } from '../../lib/permissions.ts';

/** Top-level keys, in the order they are validated and loaded (each may only refer to keys before it, and assets to assets). */
export const CATALOGUE_KEYS = [
  'organisations',
  'groups',
  'users',
  'subscriptions',
  'assets',
  'products',
  'rate_brackets',
  'asset_rate_brackets',
  'approvals',
] as const;
export type CatalogueKey = (typeof CATALOGUE_KEYS)[number];

/** Plan override keys an organisation may carry beside `plan` (stored together as `plan_overrides`). */
const PLAN_OVERRIDE_KEYS = [
  'limit',
  'calculator_allowance',
  'matrix_allowance',
  'saved_scenario_limit',
  'entitlements',
] as const;

/** ANZSIC 2006 divisions (approval `industries`): the vocabulary's list, re-exported for the file format's users. */
export { ANZSIC_DIVISIONS, type AnzsicDivision } from '../../lib/vocabulary.ts';

/** What the database already holds, for references and collisions when loading without --reset. */
export interface ExistingCatalogue {
  organisations: Map<number, string>; // id -> type
  groups: Set<string>;
  users: Set<number>;
  emails: Set<string>; // lower-cased
  subscriptions: Set<number>; // organisation ids that have one
  assets: Map<number, number | null>; // id -> parent_id
  products: Map<number, number | null>; // id -> organisation_id
  rate_brackets: Map<number, { organisation_id: number; product_id: number }>;
  asset_rate_brackets: Set<number>;
  approvals: Set<number>;
}

export function emptyExisting(): ExistingCatalogue {
  return {
    organisations: new Map(),
    groups: new Set(),
    users: new Set(),
    emails: new Set(),
    subscriptions: new Set(),
    assets: new Map(),
    products: new Map(),
    rate_brackets: new Map(),
    asset_rate_brackets: new Set(),
    approvals: new Set(),
  };
}

export type ParseResult = { ok: true; value: CatalogueFile } | { ok: false; path: string; message: string };

/** Thrown by the loader when a file is refused inside its transaction; `path` as in ParseResult. */
export class CatalogueFileError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'CatalogueFileError';
  }
}

// ---------------------------------------------------------------------------------------------
// Field rules: zod schemas whose messages are the file format's (docs/catalogue-format.md)
// ---------------------------------------------------------------------------------------------

const INT_MAX = 2_147_483_647;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (values: readonly string[]) => values.join(', ');
/** Object-level checks run whatever the fields' own outcome: the first problem is chosen by file order afterwards. */
const ALWAYS = { when: () => true };

const int = (min = 0) => {
  const error = `must be an integer >= ${min}`;
  return z.int({ error }).min(min, { error }).max(INT_MAX, { error });
};
const num = (min = 0, max = Infinity) => {
  const error = max === Infinity ? `must be a number >= ${min}` : `must be a number from ${min} to ${max}`;
  return z.number({ error }).min(min, { error }).max(max, { error });
};
const bool = z.boolean({ error: 'must be true or false' });
const text = (opts: { empty?: boolean; pattern?: RegExp; hint?: string } = {}) =>
  z
    .string({ error: 'must be a string' })
    .refine((v) => opts.empty || v.trim() !== '', { error: 'must not be empty', abort: true })
    .refine((v) => !v.includes('\u0000'), { error: 'must not contain NUL characters', abort: true })
    .refine((v) => !opts.pattern || opts.pattern.test(v), { error: `must be ${opts.hint}` });
const oneOf = <T extends string>(values: readonly T[]) =>
  z.enum(values as [T, ...T[]], { error: `must be one of ${list(values)}` });
/** A list whose members each pass `each` and appear once. */
const listOf = <T extends z.ZodType>(each: T, max = Number.MAX_SAFE_INTEGER) =>
  z
    .array(z.unknown(), { error: 'must be a list' })
    .max(max, { error: `must hold at most ${max} items` })
    .pipe(
      z.array(each).superRefine((values, ctx) => {
        const seen = new Set<unknown>();
        values.forEach((v, i) => {
          if (seen.has(v)) ctx.addIssue({ code: 'custom', path: [i], message: `${JSON.stringify(v)} is listed twice` });
          seen.add(v);
        });
      }, ALWAYS),
    );
/** Number or numeric string, at most `max` (Decimal columns: 14,2 for dollars, 12,4 for percentages). */
const money = (max: number) => {
  const error = 'must be a number >= 0 or a decimal string such as "15000.00"';
  const decimal = z.string({ error }).regex(/^\d+(\.\d+)?$/, { error });
  return z
    .union([z.number({ error }).min(0, { error }), decimal], { error })
    .refine((v) => Number(v) <= max, { error: `must be at most ${max}` });
};
const DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const datetimeError = 'must be an ISO 8601 date or timestamp with a zone, e.g. "2027-03-01T00:00:00Z"';
const datetime = z
  .string({ error: datetimeError })
  .regex(DATETIME, { error: datetimeError })
  .refine((v) => !Number.isNaN(Date.parse(v)), { error: datetimeError });
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const optInt = int().nullable().optional();
const optNum = num().nullable().optional();
const optTri = oneOf(TRI_STATES).nullable().optional();
const optBool = bool.nullable().optional();

/**
 * The fields of a product and of a rate bracket that are the record's own (no id, owner or product reference), in
 * validation order. The catalogue file's tables and the rate-card import (modules/rate-cards/import) both check
 * records with these, so the two formats cannot disagree on what a good product or bracket is.
 */
const PRODUCT_FIELDS = {
  product_name: text(),
  min_range: optInt,
  max_range: optInt,
  min_amount: optNum,
  max_amount: optNum,
  min_abn_age: optInt,
  max_abn_age: optInt,
  min_asset_age: optInt,
  max_asset_age: optInt,
  min_gst_age: optInt,
  max_gst_age: optInt,
  min_asset_age_plus_term: optInt,
  max_asset_age_plus_term: optInt,
  min_credit_score: optInt,
  max_credit_score: optInt,
  monthly_fee: optNum,
  documentation_fee: optNum,
  brokerage_cap: num(0, 100).nullable().optional(),
  maximum_brokerage_limit: optNum,
  compounding_frequency: oneOf(COMPOUNDING_FREQUENCIES).nullable().optional(),
  brokerage_loading_treatment: optNum,
  max_origination_fee_limit: optNum,
  doc_fee_financed: optTri,
  private_sale: optTri,
  sale_hire_back: optTri,
  home_owner: optTri,
};
const RATE_BRACKET_FIELDS = {
  name: text(),
  type: oneOf(CARD_TYPES).optional(),
  min_term: optInt,
  max_term: optInt,
  min_amount: optNum,
  max_amount: optNum,
  min_asset_age: optInt,
  max_asset_age: optInt,
  base_min: num(0, 100),
  base_max: num(0, 100),
  max_lvr: optNum,
};

type Shape = Record<string, z.ZodType>;
/** A shape without one field (placed earlier by hand, so the catalogue's field order stays as documented). */
const except = <S extends Shape, K extends keyof S>(shape: S, field: K): Omit<S, K> => {
  const { [field]: _, ...rest } = shape;
  return rest;
};

/** The lower bound paired with an upper-bound field (`max_term` -> `min_term`, `base_max` -> `base_min`). */
function lowerBoundOf(field: string): string | null {
  if (field.startsWith('max_')) return `min_${field.slice(4)}`;
  if (field.endsWith('_max')) return `${field.slice(0, -4)}_min`;
  return null;
}

/** `min_x <= max_x` for every such pair of the shape, reported on the upper bound. */
function rangeProblems(shape: Shape, item: Record<string, unknown>): { field: string; message: string }[] {
  return Object.keys(shape).flatMap((field) => {
    const lower = lowerBoundOf(field);
    const [value, low] = [item[field], lower === null ? null : item[lower]];
    return lower !== null && value != null && low != null && Number(low) > Number(value)
      ? [{ field, message: `must be at least ${lower} (${low})` }]
      : [];
  });
}
const ranges = (shape: Shape) => (item: Record<string, unknown>, c: z.RefinementCtx) => {
  for (const { field, message } of rangeProblems(shape, item)) c.addIssue({ code: 'custom', path: [field], message });
};

// ---------------------------------------------------------------------------------------------
// The file: one schema per resource, fields in validation order, bound to what is known (the file and the database)
// ---------------------------------------------------------------------------------------------

const issue = (c: z.RefinementCtx, path: PropertyKey[], message: string) =>
  c.addIssue({ code: 'custom', path, message });
/** An id (integer >= 1) that `problem` judges against what is known. */
const reference = (problem: (v: number) => string | null) =>
  int(1).superRefine((v, c) => {
    const p = problem(v);
    if (p) issue(c, [], p);
  });
/** Checks of one item against its other fields (ownership, the asset tree), whatever its fields' own outcome. */
const strictItem = <S extends Shape>(
  shape: S,
  ...checks: ((item: Record<string, unknown>, c: z.RefinementCtx) => void)[]
) =>
  z.strictObject(shape).superRefine((item, c) => {
    if (isObject(item)) for (const check of checks) check(item, c);
  }, ALWAYS);

/** A field each item holds once in the file and not already in the database (text trimmed, case-insensitive). */
interface UniqueField {
  field: string;
  what: string;
  inDatabase: (v: unknown, existing: ExistingCatalogue) => boolean;
}
const byId = (key: Exclude<CatalogueKey, 'groups' | 'subscriptions' | 'users'> | 'users'): UniqueField => ({
  field: 'id',
  what: 'id',
  inDatabase: (v, e) => e[key].has(v as number),
});

function fileSchema(known: ExistingCatalogue, existing: ExistingCatalogue) {
  const organisation = (financier: boolean) =>
    reference((v) => {
      const type = known.organisations.get(v);
      if (type === undefined) return `organisation ${v} does not exist`;
      return financier && type !== 'f' ? `organisation ${v} is not a financier (type "f")` : null;
    });
  const product = reference((v) => (known.products.has(v) ? null : `product ${v} does not exist`));
  const asset = reference((v) => (known.assets.has(v) ? null : `asset ${v} does not exist`));
  const bracket = reference((v) => (known.rate_brackets.has(v) ? null : `rate bracket ${v} does not exist`));
  const groupName = text().superRefine((v, c) => {
    if (!known.groups.has(v)) issue(c, [], `group ${JSON.stringify(v)} does not exist`);
  });
  /** The product is the item's organisation's. */
  const productOwned = (item: Record<string, unknown>, c: z.RefinementCtx) => {
    const v = item.product_id as number;
    const owner = known.products.get(v);
    if (owner === undefined || owner === item.organisation_id) return;
    const message =
      owner === null
        ? `product ${v} has no organisation`
        : `product ${v} belongs to organisation ${owner}, not ${item.organisation_id}`;
    issue(c, ['product_id'], message);
  };
  /** A bracket of the item's product (mappings) or of the item's organisation (approvals). */
  const bracketOwned = (v: unknown, item: Record<string, unknown>, of: 'product_id' | 'organisation_id') => {
    const b = known.rate_brackets.get(v as number);
    if (b === undefined || b[of] === item[of]) return null;
    return `rate bracket ${v} belongs to ${of === 'product_id' ? 'product' : 'organisation'} ${b[of]}, not ${item[of]}`;
  };
  /** The asset's ancestors do not lead back to it (a cycle above it is reported at its own members). */
  const noCycle = (item: Record<string, unknown>, c: z.RefinementCtx) => {
    const self = item.id;
    const line = [self, item.parent_id];
    for (let p: unknown = item.parent_id; p !== null && p !== undefined; ) {
      if (p === self) return issue(c, ['parent_id'], `asset tree cycle: ${line.join(' -> ')}`);
      p = known.assets.get(p as number);
      if (line.length > known.assets.size + 1) break;
      if (p !== null && p !== undefined) line.push(p);
    }
  };

  const shapes = {
    organisations: {
      id: int(1),
      name: text(),
      type: oneOf(ORGANISATION_TYPES),
      abn: text({ pattern: /^\d{2} ?\d{3} ?\d{3} ?\d{3}$/, hint: 'an 11-digit ABN such as "51 824 753 556"' })
        .nullable()
        .optional(),
      is_bid_broker: bool.optional(),
      plan: oneOf(PLANS).optional(),
      limit: optInt,
      calculator_allowance: optInt,
      matrix_allowance: optInt,
      saved_scenario_limit: int().optional(),
      entitlements: listOf(oneOf(ENTITLEMENTS)).optional(),
    },
    groups: { name: text(), permissions: listOf(oneOf(PERMISSION_CODENAMES)).optional() },
    users: {
      id: int(1),
      email: text({ pattern: EMAIL, hint: 'an email address' }),
      password: text().refine((v) => v.length >= 8, { error: 'must be at least 8 characters' }),
      first_name: text({ empty: true }).optional(),
      last_name: text({ empty: true }).optional(),
      organisation_id: organisation(false).nullable().optional(),
      is_admin: bool.optional(),
      is_active: bool.optional(),
      is_email_verified: bool.optional(),
      groups: listOf(groupName, USER_GROUPS_MAX).optional(),
    },
    subscriptions: {
      organisation_id: organisation(false),
      plan: oneOf(PLANS),
      plan_name: text().optional(),
      status: oneOf(SUBSCRIPTION_STATUSES),
      seats: int(1).optional(),
      trial_end: datetime.nullable().optional(),
      current_period_end: datetime.nullable().optional(),
      cancel_at_period_end: bool.optional(),
      card_brand: text().nullable().optional(),
      card_last4: text({ pattern: /^\d{4}$/, hint: 'four digits' })
        .nullable()
        .optional(),
      processor_id: text().nullable().optional(),
    },
    assets: {
      id: int(1),
      name: text(),
      alias: text({ empty: true }).nullable().optional(),
      parent_id: asset.nullable().optional(),
      is_asset: bool.optional(),
      is_deleted: bool.optional(),
    },
    products: {
      id: int(1),
      product_name: PRODUCT_FIELDS.product_name,
      organisation_id: organisation(true).nullable().optional(),
      ...except(PRODUCT_FIELDS, 'product_name'),
    },
    rate_brackets: {
      id: int(1),
      name: RATE_BRACKET_FIELDS.name,
      organisation_id: organisation(true),
      product_id: product,
      ...except(RATE_BRACKET_FIELDS, 'name'),
    },
    asset_rate_brackets: {
      id: int(1),
      asset_id: asset,
      organisation_id: organisation(true),
      product_id: product,
      rate_bracket_id: bracket.nullable().optional(),
    },
    approvals: {
      id: int(1),
      name: text(),
      doc_level: oneOf(DOC_LEVELS),
      organisation_id: organisation(true),
      priority: z.number({ error: 'must be a number' }).optional(),
      min_deposit_percentage: money(100).nullable().optional(),
      min_deposit_amount: money(999_999_999_999.99).nullable().optional(),
      min_term: optInt,
      max_term: optInt,
      min_abn_age: optInt,
      max_abn_age: optInt,
      min_gst_age: optInt,
      max_gst_age: optInt,
      min_asset_age: optInt,
      max_asset_age: optInt,
      min_asset_cost: money(999_999_999_999.99).nullable().optional(),
      max_asset_cost: money(999_999_999_999.99).nullable().optional(),
      min_borrower_age: optInt,
      max_borrower_age: optInt,
      min_file_age: optInt,
      max_file_age: optInt,
      min_credit_score: optInt,
      max_credit_score: optInt,
      home_owner: optBool,
      private_sale: optBool,
      sale_hire_back: optBool,
      asset_state: oneOf(ASSET_STATES).nullable().optional(),
      transaction_types: listOf(oneOf(TRANSACTION_TYPES)).optional(),
      industries: listOf(oneOf(ANZSIC_DIVISION_CODES)).optional(),
      asset_ids: listOf(asset).optional(),
      rate_bracket_ids: listOf(bracket).optional(),
    },
  };
  const unique: Record<CatalogueKey, UniqueField[]> = {
    organisations: [byId('organisations')],
    groups: [{ field: 'name', what: 'group name', inDatabase: (v, e) => e.groups.has(v as string) }],
    users: [
      byId('users'),
      { field: 'email', what: 'email', inDatabase: (v, e) => e.emails.has(String(v).trim().toLowerCase()) },
    ],
    subscriptions: [
      {
        field: 'organisation_id',
        what: 'subscription for organisation',
        inDatabase: (v, e) => e.subscriptions.has(v as number),
      },
    ],
    assets: [byId('assets')],
    products: [byId('products')],
    rate_brackets: [byId('rate_brackets')],
    asset_rate_brackets: [byId('asset_rate_brackets')],
    approvals: [byId('approvals')],
  };
  const items = {
    organisations: strictItem(shapes.organisations),
    groups: strictItem(shapes.groups),
    users: strictItem(shapes.users),
    subscriptions: strictItem(shapes.subscriptions),
    assets: strictItem(shapes.assets, noCycle),
    products: strictItem(shapes.products, ranges(PRODUCT_FIELDS)),
    rate_brackets: strictItem(shapes.rate_brackets, productOwned, ranges(RATE_BRACKET_FIELDS)),
    asset_rate_brackets: strictItem(shapes.asset_rate_brackets, productOwned, (item, c) => {
      const p = bracketOwned(item.rate_bracket_id, item, 'product_id');
      if (p) issue(c, ['rate_bracket_id'], p);
    }),
    approvals: strictItem(shapes.approvals, ranges(shapes.approvals), (item, c) => {
      if (!Array.isArray(item.rate_bracket_ids)) return;
      item.rate_bracket_ids.forEach((v, i) => {
        const p = bracketOwned(v, item, 'organisation_id');
        if (p) issue(c, ['rate_bracket_ids', i], p);
      });
    }),
  };
  /** A list of one resource: its items, then what each must hold once. */
  const listOfItems = <K extends CatalogueKey>(key: K) =>
    z
      .array(items[key], { error: 'must be a list' })
      .superRefine((values, c) => {
        const firstAt = new Map<string, string>();
        if (!Array.isArray(values)) return;
        values.forEach((item: unknown, i) => {
          if (!isObject(item)) return;
          for (const { field, what, inDatabase } of unique[key]) {
            const v = item[field];
            if (v === undefined || v === null) continue;
            const k = `${field}:${typeof v === 'string' ? v.trim().toLowerCase() : String(v)}`;
            const first = firstAt.get(k);
            if (first !== undefined) issue(c, [i, field], `duplicate ${what} ${JSON.stringify(v)} (first at ${first})`);
            else if (inDatabase(v, existing))
              issue(
                c,
                [i, field],
                `${what} ${JSON.stringify(v)} already exists in the database (load with --reset to replace the catalogue)`,
              );
            else firstAt.set(k, `${key}[${i}].${field}`);
          }
        });
      }, ALWAYS)
      .optional();
  const schema = z.strictObject({
    organisations: listOfItems('organisations'),
    groups: listOfItems('groups'),
    users: listOfItems('users'),
    subscriptions: listOfItems('subscriptions'),
    assets: listOfItems('assets'),
    products: listOfItems('products'),
    rate_brackets: listOfItems('rate_brackets'),
    asset_rate_brackets: listOfItems('asset_rate_brackets'),
    approvals: listOfItems('approvals'),
  });
  return { schema, shapes: shapes as Record<CatalogueKey, Shape> };
}

type Lists = z.output<ReturnType<typeof fileSchema>['schema']>;
export type CatalogueFile = { [K in CatalogueKey]-?: NonNullable<Lists[K]> };
export type CatalogueOrganisation = CatalogueFile['organisations'][number];
export type CatalogueSubscription = CatalogueFile['subscriptions'][number];
export type CatalogueAsset = CatalogueFile['assets'][number];
export type CatalogueProduct = CatalogueFile['products'][number];
export type CatalogueRateBracket = CatalogueFile['rate_brackets'][number];
export type CatalogueAssetRateBracket = CatalogueFile['asset_rate_brackets'][number];
export type CatalogueApproval = CatalogueFile['approvals'][number];

/** Fields that must be present and not null. */
const requiredFields = new WeakMap<Shape, Set<string>>();
function isRequired(shape: Shape, field: string): boolean {
  let set = requiredFields.get(shape);
  if (!set) {
    set = new Set(Object.keys(shape).filter((f) => !shape[f].safeParse(undefined).success));
    requiredFields.set(shape, set);
  }
  return set.has(field);
}

/** An issue's message as the file format words it (`item` holds the issue's field). */
function messageOf(issue: z.core.$ZodIssue, shape: Shape, item: Record<string, unknown>, field: string): string {
  return item[field] == null && isRequired(shape, field) ? 'is required' : issue.message;
}

/** Where an issue sits in file order: top-level key, item, field, list member (-1: the level itself). */
function rankOf(path: PropertyKey[], shapes: Record<CatalogueKey, Shape>): number[] {
  if (path.length === 0) return [-1];
  const key = path[0] as CatalogueKey;
  const fields = Object.keys(shapes[key]);
  const at = (n: number) => (path.length > n ? (path[n] as number) : -1);
  return [CATALOGUE_KEYS.indexOf(key), at(1), path.length > 2 ? fields.indexOf(path[2] as string) : -1, at(3)];
}
const before = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++)
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) < (b[i] ?? -1);
  return false;
};

/** The first problem in file order among every issue zod found, with its path and the file format's message. */
function firstProblem(
  issues: readonly z.core.$ZodIssue[],
  json: unknown,
  shapes: Record<CatalogueKey, Shape>,
): { path: string; message: string } {
  let first = issues[0];
  let firstRank = rankOf(first.path, shapes);
  for (const candidate of issues.slice(1)) {
    const rank = rankOf(candidate.path, shapes);
    if (before(rank, firstRank)) [first, firstRank] = [candidate, rank];
  }
  const path = first.path as (string | number)[];
  if (path.length === 0) {
    if (first.code !== 'unrecognized_keys')
      return { path: '$', message: `the file must be a JSON object with the keys ${list(CATALOGUE_KEYS)}` };
    const key = first.keys[0];
    return {
      path: key,
      message: `unknown top-level key${suggest(key, CATALOGUE_KEYS)}; expected ${list(CATALOGUE_KEYS)}`,
    };
  }
  const [key, index, field] = path as [CatalogueKey, number | undefined, string | undefined];
  const where = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  if (index === undefined) return { path: where, message: first.message };
  const item = (json as Record<string, unknown[]>)[key][index];
  if (field === undefined) {
    if (first.code !== 'unrecognized_keys') return { path: where, message: 'must be an object' };
    const unknownKey = first.keys[0];
    return { path: `${where}.${unknownKey}`, message: `unknown field${suggest(unknownKey, Object.keys(shapes[key]))}` };
  }
  return { path: where, message: messageOf(first, shapes[key], item as Record<string, unknown>, field) };
}

/** A rate-card record kind whose own fields are shared (see PRODUCT_FIELDS). */
export type CardRecordKind = 'products' | 'rate_brackets';
const CARD_RECORD_SHAPES: Record<CardRecordKind, Shape> = {
  products: PRODUCT_FIELDS,
  rate_brackets: RATE_BRACKET_FIELDS,
};
const CARD_RECORD_SCHEMAS = { products: z.object(PRODUCT_FIELDS), rate_brackets: z.object(RATE_BRACKET_FIELDS) };

/** The own fields of a product or a rate bracket, in validation order. */
export const CARD_RECORD_FIELDS: Record<CardRecordKind, readonly string[]> = {
  products: Object.keys(PRODUCT_FIELDS),
  rate_brackets: Object.keys(RATE_BRACKET_FIELDS),
};
/** Fields that hold numbers (the rest are text or enumerations): a CSV cell is read as a number for these. */
export const NUMERIC_FIELDS: ReadonlySet<string> = new Set(
  [...CARD_RECORD_FIELDS.products, ...CARD_RECORD_FIELDS.rate_brackets].filter(
    (f) =>
      f.startsWith('min_') || f.startsWith('max_') || f.startsWith('base_') || /(_fee|_cap|_limit|_treatment)$/.test(f),
  ),
);

/**
 * Every problem with the own fields of one product or bracket (the first per field), in field order: type, enum,
 * range and `min_x <= max_x`. Keys the record carries beyond these are the caller's to judge.
 */
export function cardRecordProblems(
  kind: CardRecordKind,
  item: Record<string, unknown>,
): { field: string; message: string }[] {
  const result = CARD_RECORD_SCHEMAS[kind].safeParse(item);
  const shape = CARD_RECORD_SHAPES[kind];
  // Ranges read the record as given: zod's output leaves out a field that failed, and a bound is compared even then.
  const ranged = rangeProblems(shape, item);
  return CARD_RECORD_FIELDS[kind].flatMap((field) => {
    const own = result.error?.issues.find((i) => i.path[0] === field);
    if (own) return [{ field, message: messageOf(own, shape, item, field) }];
    return ranged.filter((p) => p.field === field);
  });
}

/** Closest known field name, for "unknown field" messages. */
export function suggest(key: string, fields: readonly string[]): string {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++)
        next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length];
  };
  const best = fields.map((f) => [f, distance(key, f)] as const).sort((x, y) => x[1] - y[1])[0];
  return best && best[1] <= Math.max(2, Math.floor(key.length / 3)) ? ` (did you mean "${best[0]}"?)` : '';
}

type Item = Record<string, unknown>;

/** Ids and owners the file declares, gathered leniently before checking so later items can be referred to. */
function gatherKnown(input: Item, existing: ExistingCatalogue): ExistingCatalogue {
  const known: ExistingCatalogue = {
    organisations: new Map(existing.organisations),
    groups: new Set(existing.groups),
    users: new Set(existing.users),
    emails: new Set(existing.emails),
    subscriptions: new Set(existing.subscriptions),
    assets: new Map(existing.assets),
    products: new Map(existing.products),
    rate_brackets: new Map(existing.rate_brackets),
    asset_rate_brackets: new Set(existing.asset_rate_brackets),
    approvals: new Set(existing.approvals),
  };
  const items = (key: CatalogueKey) => (Array.isArray(input[key]) ? (input[key] as unknown[]).filter(isObject) : []);
  const firstWins = <V>(m: Map<number, V>, id: unknown, v: V) => {
    if (typeof id === 'number' && !m.has(id)) m.set(id, v);
  };
  for (const o of items('organisations')) firstWins(known.organisations, o.id, String(o.type));
  for (const g of items('groups')) if (typeof g.name === 'string') known.groups.add(g.name);
  for (const a of items('assets')) firstWins(known.assets, a.id, (a.parent_id ?? null) as number | null);
  for (const p of items('products')) firstWins(known.products, p.id, (p.organisation_id ?? null) as number | null);
  for (const b of items('rate_brackets')) {
    firstWins(known.rate_brackets, b.id, {
      organisation_id: b.organisation_id as number,
      product_id: b.product_id as number,
    });
  }
  return known;
}

/**
 * Validates a catalogue file (already JSON-parsed). Absent top-level keys are empty lists. The value answered is the
 * file with emails trimmed and lower-cased and ABNs without spaces; everything else is as given.
 */
export function parseCatalogueFile(json: unknown, existing: ExistingCatalogue = emptyExisting()): ParseResult {
  const { schema, shapes } = fileSchema(gatherKnown(isObject(json) ? json : {}, existing), existing);
  const checked = schema.safeParse(json);
  if (!checked.success) return { ok: false, ...firstProblem(checked.error.issues, json, shapes) };
  const file = json as Record<string, Record<string, unknown>[] | undefined>;
  const value = Object.fromEntries(
    CATALOGUE_KEYS.map((k) => [k, (file[k] ?? []).map((item) => ({ ...item }))]),
  ) as unknown as CatalogueFile;
  for (const u of value.users) u.email = u.email.trim().toLowerCase();
  for (const o of value.organisations) if (typeof o.abn === 'string') o.abn = o.abn.replace(/ /g, '');
  return { ok: true, value };
}

/** An organisation's `plan_overrides` column from the override keys it carries (absent keys stay absent). */
export function planOverridesOf(o: CatalogueOrganisation): Record<string, unknown> {
  return Object.fromEntries(PLAN_OVERRIDE_KEYS.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

/** A subscription's plan name when the file leaves it out: the plan table's. */
export function planNameOf(s: CatalogueSubscription): string {
  return s.plan_name ?? PLAN_TERMS[s.plan].plan_name;
}
