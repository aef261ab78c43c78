/**
 * The catalogue file (docs/catalogue-format.md): validation only, no I/O.
 *
 * `parseCatalogueFile(json, existing?)` checks a parsed JSON value and answers either the normalised catalogue or the
 * FIRST bad field, as a path such as `approvals[3].doc_level` or `approvals[3].rate_bracket_ids[1]`. "First" is file
 * order: top-level keys in CATALOGUE_KEYS order, items in list order, and within an item its unknown keys first, then
 * the fields in the order of that resource's table below. Each field check covers type, enum, range, uniqueness and
 * references together, so a dangling reference is reported where it sits, not in a second pass.
 *
 * References resolve against the file plus `existing` (what the database already holds). Without `existing` a file
 * must be self-contained; the loader passes what it reads inside its transaction (empty after --reset).
 */
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
  type AnzsicDivision,
  type AssetState,
  type CardType,
  type CompoundingFrequency,
  type DocLevel,
  type OrganisationType,
  type PlanName,
  type SubscriptionStatus,
  type TransactionType,
  type TriState,
} from '../../lib/vocabulary.ts';
import { ENTITLEMENTS, PLAN_TERMS, type Entitlement } from '../../lib/plans.ts';
import { PERMISSION_CODENAMES, type PermissionCodename } from '../../lib/permissions.ts';
import { USER_GROUPS_MAX } from '../../lib/permissions.ts';

// ---------------------------------------------------------------------------------------------
// The file's shape
// ---------------------------------------------------------------------------------------------

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
export const PLAN_OVERRIDE_KEYS = [
  'limit',
  'calculator_allowance',
  'matrix_allowance',
  'saved_scenario_limit',
  'entitlements',
] as const;

/** ANZSIC 2006 divisions (approval `industries`): the vocabulary's list, re-exported for the file format's users. */
export { ANZSIC_DIVISIONS, type AnzsicDivision } from '../../lib/vocabulary.ts';

/** Money on approvals: a JSON number or a plain decimal string ("15000", "10.5"). */
export type Money = number | string;

export interface CatalogueOrganisation {
  id: number;
  name: string;
  type: OrganisationType;
  abn?: string | null;
  is_bid_broker?: boolean;
  plan?: PlanName;
  limit?: number | null;
  calculator_allowance?: number | null;
  matrix_allowance?: number | null;
  saved_scenario_limit?: number;
  entitlements?: Entitlement[];
}
export interface CatalogueGroup {
  name: string;
  permissions?: PermissionCodename[];
}
export interface CatalogueUser {
  id: number;
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  organisation_id?: number | null;
  is_admin?: boolean;
  is_active?: boolean;
  is_email_verified?: boolean;
  groups?: string[];
}
export interface CatalogueSubscription {
  organisation_id: number;
  plan: PlanName;
  plan_name?: string;
  status: SubscriptionStatus;
  seats?: number;
  trial_end?: string | null;
  current_period_end?: string | null;
  cancel_at_period_end?: boolean;
  card_brand?: string | null;
  card_last4?: string | null;
  processor_id?: string | null;
}
export interface CatalogueAsset {
  id: number;
  name: string;
  alias?: string | null;
  parent_id?: number | null;
  is_asset?: boolean;
  is_deleted?: boolean;
}
type N = number | null;
export interface CatalogueProduct {
  id: number;
  product_name: string;
  organisation_id?: N;
  min_range?: N;
  max_range?: N;
  min_amount?: N;
  max_amount?: N;
  min_abn_age?: N;
  max_abn_age?: N;
  min_asset_age?: N;
  max_asset_age?: N;
  min_gst_age?: N;
  max_gst_age?: N;
  min_asset_age_plus_term?: N;
  max_asset_age_plus_term?: N;
  min_credit_score?: N;
  max_credit_score?: N;
  monthly_fee?: N;
  documentation_fee?: N;
  brokerage_cap?: N;
  maximum_brokerage_limit?: N;
  compounding_frequency?: CompoundingFrequency | null;
  brokerage_loading_treatment?: N;
  max_origination_fee_limit?: N;
  doc_fee_financed?: TriState | null;
  private_sale?: TriState | null;
  sale_hire_back?: TriState | null;
  home_owner?: TriState | null;
}
export interface CatalogueRateBracket {
  id: number;
  name: string;
  organisation_id: number;
  product_id: number;
  type?: CardType;
  min_term?: N;
  max_term?: N;
  min_amount?: N;
  max_amount?: N;
  min_asset_age?: N;
  max_asset_age?: N;
  base_min: number;
  base_max: number;
  max_lvr?: N;
}
export interface CatalogueAssetRateBracket {
  id: number;
  asset_id: number;
  organisation_id: number;
  product_id: number;
  rate_bracket_id?: N;
}
export interface CatalogueApproval {
  id: number;
  name: string;
  doc_level: DocLevel;
  organisation_id: number;
  priority?: number;
  min_deposit_percentage?: Money | null;
  min_deposit_amount?: Money | null;
  min_term?: N;
  max_term?: N;
  min_abn_age?: N;
  max_abn_age?: N;
  min_gst_age?: N;
  max_gst_age?: N;
  min_asset_age?: N;
  max_asset_age?: N;
  min_asset_cost?: Money | null;
  max_asset_cost?: Money | null;
  min_borrower_age?: N;
  max_borrower_age?: N;
  min_file_age?: N;
  max_file_age?: N;
  min_credit_score?: N;
  max_credit_score?: N;
  home_owner?: boolean | null;
  private_sale?: boolean | null;
  sale_hire_back?: boolean | null;
  asset_state?: AssetState | null;
  transaction_types?: TransactionType[];
  industries?: AnzsicDivision[];
  asset_ids?: number[];
  rate_bracket_ids?: number[];
}

export interface CatalogueFile {
  organisations: CatalogueOrganisation[];
  groups: CatalogueGroup[];
  users: CatalogueUser[];
  subscriptions: CatalogueSubscription[];
  assets: CatalogueAsset[];
  products: CatalogueProduct[];
  rate_brackets: CatalogueRateBracket[];
  asset_rate_brackets: CatalogueAssetRateBracket[];
  approvals: CatalogueApproval[];
}

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
// Checks: each returns null (good), a message, or a message for a sub-path (a list element)
// ---------------------------------------------------------------------------------------------

type Item = Record<string, unknown>;
type Problem = null | string | { sub: string; message: string };
interface At {
  item: Item;
  ctx: Ctx;
  path: string;
}
type Check = (value: unknown, at: At) => Problem;
interface Field {
  check: Check;
  required?: true;
}
type Table = Record<string, Field>;

const INT_MAX = 2_147_483_647;
const isObject = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (values: readonly string[]) => values.join(', ');

const int =
  (min = 0): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= INT_MAX ? null : `must be an integer >= ${min}`;
const num =
  (min = 0, max = Infinity): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max
      ? null
      : max === Infinity
        ? `must be a number >= ${min}`
        : `must be a number from ${min} to ${max}`;
const anyNumber: Check = (v) => (typeof v === 'number' && Number.isFinite(v) ? null : 'must be a number');
const bool: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
const text =
  (opts: { empty?: boolean; pattern?: RegExp; hint?: string } = {}): Check =>
  (v) => {
    if (typeof v !== 'string') return 'must be a string';
    if (!opts.empty && v.trim() === '') return 'must not be empty';
    if (v.includes('\u0000')) return 'must not contain NUL characters';
    if (opts.pattern && !opts.pattern.test(v)) return `must be ${opts.hint}`;
    return null;
  };
const oneOf = (values: readonly string[] | Record<string, string>): Check => {
  const allowed = Array.isArray(values) ? values : Object.values(values);
  return (v) => (typeof v === 'string' && allowed.includes(v) ? null : `must be one of ${list(allowed)}`);
};
const nullable =
  (check: Check): Check =>
  (v, at) =>
    v === null ? null : check(v, at);
const listOf =
  (each: Check, max = Infinity): Check =>
  (v, at) => {
    if (!Array.isArray(v)) return 'must be a list';
    if (v.length > max) return `must hold at most ${max} items`;
    const seen = new Set<unknown>();
    for (let i = 0; i < v.length; i++) {
      const p = each(v[i], at);
      if (p !== null) return { sub: `[${i}]`, message: typeof p === 'string' ? p : p.message };
      if (seen.has(v[i])) return { sub: `[${i}]`, message: `${JSON.stringify(v[i])} is listed twice` };
      seen.add(v[i]);
    }
    return null;
  };
/** Number or numeric string, at most `max` (Decimal columns: 14,2 for dollars, 12,4 for percentages). */
const money =
  (max: number): Check =>
  (v) => {
    const ok =
      (typeof v === 'number' && Number.isFinite(v) && v >= 0) || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v));
    if (!ok) return 'must be a number >= 0 or a decimal string such as "15000.00"';
    return Number(v) <= max ? null : `must be at most ${max}`;
  };
const DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const datetime: Check = (v) =>
  typeof v === 'string' && DATETIME.test(v) && !Number.isNaN(Date.parse(v))
    ? null
    : 'must be an ISO 8601 date or timestamp with a zone, e.g. "2027-03-01T00:00:00Z"';
const all =
  (...checks: Check[]): Check =>
  (v, at) => {
    for (const c of checks) {
      const p = c(v, at);
      if (p !== null) return p;
    }
    return null;
  };

// ---------------------------------------------------------------------------------------------
// Context: ids known from the file (collected before checking) and the database, and what was already seen
// ---------------------------------------------------------------------------------------------

interface Ctx {
  known: ExistingCatalogue; // file + database
  existing: ExistingCatalogue; // database only
  firstAt: Map<string, string>; // "<collection>:<key>" -> path of its first occurrence in the file
}

/** Unique within the file and absent from the database. Strings compare trimmed and case-insensitively. */
const unique =
  (collection: string, inDatabase: (v: unknown, e: ExistingCatalogue) => boolean, what: string): Check =>
  (v, at) => {
    const k = `${collection}:${typeof v === 'string' ? v.trim().toLowerCase() : String(v)}`;
    const first = at.ctx.firstAt.get(k);
    if (first !== undefined) return `duplicate ${what} ${JSON.stringify(v)} (first at ${first})`;
    if (inDatabase(v, at.ctx.existing))
      return `${what} ${JSON.stringify(v)} already exists in the database (load with --reset to replace the catalogue)`;
    at.ctx.firstAt.set(k, at.path);
    return null;
  };
const uniqueId = (
  key: 'organisations' | 'users' | 'assets' | 'products' | 'rate_brackets' | 'asset_rate_brackets' | 'approvals',
) =>
  all(
    int(1),
    unique(key, (v, e) => e[key].has(v as number), 'id'),
  );

const organisation = (financier: boolean): Check =>
  all(int(1), (v, at) => {
    const type = at.ctx.known.organisations.get(v as number);
    if (type === undefined) return `organisation ${v} does not exist`;
    if (financier && type !== 'f') return `organisation ${v} is not a financier (type "f")`;
    return null;
  });
const product: Check = all(int(1), (v, at) => {
  if (!at.ctx.known.products.has(v as number)) return `product ${v} does not exist`;
  const owner = at.ctx.known.products.get(v as number);
  if (owner === at.item.organisation_id) return null;
  return owner === null
    ? `product ${v} has no organisation`
    : `product ${v} belongs to organisation ${owner}, not ${at.item.organisation_id}`;
});
const assetRef: Check = all(int(1), (v, at) =>
  at.ctx.known.assets.has(v as number) ? null : `asset ${v} does not exist`,
);
/** A bracket of the item's product (mappings) or of the item's organisation (approvals). */
const bracket = (of: 'product_id' | 'organisation_id'): Check =>
  all(int(1), (v, at) => {
    const b = at.ctx.known.rate_brackets.get(v as number);
    if (b === undefined) return `rate bracket ${v} does not exist`;
    return b[of] === at.item[of]
      ? null
      : `rate bracket ${v} belongs to ${of === 'product_id' ? 'product' : 'organisation'} ${b[of]}, not ${at.item[of]}`;
  });
const parent: Check = all(assetRef, (v, at) => {
  const self = at.item.id;
  const line = [self, v];
  for (let p: unknown = v; p !== null && p !== undefined; ) {
    if (p === self) return `asset tree cycle: ${line.join(' -> ')}`;
    p = at.ctx.known.assets.get(p as number);
    if (line.length > at.ctx.known.assets.size + 1) break; // a cycle above this asset: reported at its own members
    if (p !== null && p !== undefined) line.push(p);
  }
  return null;
});
const groupName: Check = all(text(), (v, at) =>
  at.ctx.known.groups.has(v as string) ? null : `group ${JSON.stringify(v)} does not exist`,
);

// ---------------------------------------------------------------------------------------------
// One table per resource: field -> check, in validation order
// ---------------------------------------------------------------------------------------------

const req = (check: Check): Field => ({ check, required: true });
const opt = (check: Check): Field => ({ check });
const optInt = opt(nullable(int()));
const optNum = opt(nullable(num()));
const optTri = opt(nullable(oneOf(TRI_STATES)));
const optBool = opt(nullable(bool));
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The fields of a product and of a rate bracket that are the record's own (no id, owner or product reference), in
 * validation order. The catalogue file's tables and the rate-card import (modules/rate-cards/import) both check
 * records with these, so the two formats cannot disagree on what a good product or bracket is.
 */
const PRODUCT_FIELDS = {
  product_name: req(text()),
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
  brokerage_cap: opt(nullable(num(0, 100))),
  maximum_brokerage_limit: optNum,
  compounding_frequency: opt(nullable(oneOf(COMPOUNDING_FREQUENCIES))),
  brokerage_loading_treatment: optNum,
  max_origination_fee_limit: optNum,
  doc_fee_financed: optTri,
  private_sale: optTri,
  sale_hire_back: optTri,
  home_owner: optTri,
} satisfies Table;
const RATE_BRACKET_FIELDS = {
  name: req(text()),
  type: opt(oneOf(CARD_TYPES)),
  min_term: optInt,
  max_term: optInt,
  min_amount: optNum,
  max_amount: optNum,
  min_asset_age: optInt,
  max_asset_age: optInt,
  base_min: req(num(0, 100)),
  base_max: req(num(0, 100)),
  max_lvr: optNum,
} satisfies Table;

const RECORD_ONLY_CTX: Ctx = { known: emptyExisting(), existing: emptyExisting(), firstAt: new Map() };

/** A rate-card record kind whose own fields are shared (see PRODUCT_FIELDS). */
export type CardRecordKind = 'products' | 'rate_brackets';
const CARD_RECORD_TABLES: Record<CardRecordKind, Table> = {
  products: PRODUCT_FIELDS,
  rate_brackets: RATE_BRACKET_FIELDS,
};

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
  const table = CARD_RECORD_TABLES[kind];
  const ctx = RECORD_ONLY_CTX; // these fields never read the context (no ids, no references)
  const problems: { field: string; message: string }[] = [];
  for (const field of Object.keys(table)) {
    const p = fieldProblem(item, field, table[field], { item, ctx, path: field });
    if (p) problems.push({ field, message: p.message });
  }
  return problems;
}

/** A table without one field (placed earlier by hand, so the catalogue's field order stays as documented). */
const except = (table: Table, field: string): Table =>
  Object.fromEntries(Object.entries(table).filter(([k]) => k !== field));

const TABLES: Record<CatalogueKey, Table> = {
  organisations: {
    id: req(uniqueId('organisations')),
    name: req(text()),
    type: req(oneOf(ORGANISATION_TYPES)),
    abn: opt(
      nullable(text({ pattern: /^\d{2} ?\d{3} ?\d{3} ?\d{3}$/, hint: 'an 11-digit ABN such as "51 824 753 556"' })),
    ),
    is_bid_broker: opt(bool),
    plan: opt(oneOf(PLANS)),
    limit: optInt,
    calculator_allowance: optInt,
    matrix_allowance: optInt,
    saved_scenario_limit: opt(int()),
    entitlements: opt(listOf(oneOf(ENTITLEMENTS))),
  },
  groups: {
    name: req(
      all(
        text(),
        unique('groups', (v, e) => e.groups.has(v as string), 'group name'),
      ),
    ),
    permissions: opt(listOf(oneOf(PERMISSION_CODENAMES))),
  },
  users: {
    id: req(uniqueId('users')),
    email: req(
      all(
        text({ pattern: EMAIL, hint: 'an email address' }),
        unique('emails', (v, e) => e.emails.has((v as string).trim().toLowerCase()), 'email'),
      ),
    ),
    password: req(all(text(), (v) => ((v as string).length >= 8 ? null : 'must be at least 8 characters'))),
    first_name: opt(text({ empty: true })),
    last_name: opt(text({ empty: true })),
    organisation_id: opt(nullable(organisation(false))),
    is_admin: opt(bool),
    is_active: opt(bool),
    is_email_verified: opt(bool),
    groups: opt(listOf(groupName, USER_GROUPS_MAX)),
  },
  subscriptions: {
    organisation_id: req(
      all(
        organisation(false),
        unique('subscriptions', (v, e) => e.subscriptions.has(v as number), 'subscription for organisation'),
      ),
    ),
    plan: req(oneOf(PLANS)),
    plan_name: opt(text()),
    status: req(oneOf(SUBSCRIPTION_STATUSES)),
    seats: opt(int(1)),
    trial_end: opt(nullable(datetime)),
    current_period_end: opt(nullable(datetime)),
    cancel_at_period_end: opt(bool),
    card_brand: opt(nullable(text())),
    card_last4: opt(nullable(text({ pattern: /^\d{4}$/, hint: 'four digits' }))),
    processor_id: opt(nullable(text())),
  },
  assets: {
    id: req(uniqueId('assets')),
    name: req(text()),
    alias: opt(nullable(text({ empty: true }))),
    parent_id: opt(nullable(parent)),
    is_asset: opt(bool),
    is_deleted: opt(bool),
  },
  products: {
    id: req(uniqueId('products')),
    product_name: PRODUCT_FIELDS.product_name,
    organisation_id: opt(nullable(organisation(true))),
    ...except(PRODUCT_FIELDS, 'product_name'),
  },
  rate_brackets: {
    id: req(uniqueId('rate_brackets')),
    name: RATE_BRACKET_FIELDS.name,
    organisation_id: req(organisation(true)),
    product_id: req(product),
    ...except(RATE_BRACKET_FIELDS, 'name'),
  },
  asset_rate_brackets: {
    id: req(uniqueId('asset_rate_brackets')),
    asset_id: req(assetRef),
    organisation_id: req(organisation(true)),
    product_id: req(product),
    rate_bracket_id: opt(nullable(bracket('product_id'))),
  },
  approvals: {
    id: req(uniqueId('approvals')),
    name: req(text()),
    doc_level: req(oneOf(DOC_LEVELS)),
    organisation_id: req(organisation(true)),
    priority: opt(anyNumber),
    min_deposit_percentage: opt(nullable(money(100))),
    min_deposit_amount: opt(nullable(money(999_999_999_999.99))),
    min_term: optInt,
    max_term: optInt,
    min_abn_age: optInt,
    max_abn_age: optInt,
    min_gst_age: optInt,
    max_gst_age: optInt,
    min_asset_age: optInt,
    max_asset_age: optInt,
    min_asset_cost: opt(nullable(money(999_999_999_999.99))),
    max_asset_cost: opt(nullable(money(999_999_999_999.99))),
    min_borrower_age: optInt,
    max_borrower_age: optInt,
    min_file_age: optInt,
    max_file_age: optInt,
    min_credit_score: optInt,
    max_credit_score: optInt,
    home_owner: optBool,
    private_sale: optBool,
    sale_hire_back: optBool,
    asset_state: opt(nullable(oneOf(ASSET_STATES))),
    transaction_types: opt(listOf(oneOf(TRANSACTION_TYPES))),
    industries: opt(listOf(oneOf(ANZSIC_DIVISION_CODES))),
    asset_ids: opt(listOf(assetRef)),
    rate_bracket_ids: opt(listOf(bracket('organisation_id'))),
  },
};

/** The lower bound paired with an upper-bound field (`max_term` -> `min_term`, `base_max` -> `base_min`). */
function lowerBoundOf(field: string): string | null {
  if (field.startsWith('max_')) return `min_${field.slice(4)}`;
  if (field.endsWith('_max')) return `${field.slice(0, -4)}_min`;
  return null;
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

/** The problem with one field of `item` (sub-path relative to the field), or null. */
function fieldProblem(item: Item, field: string, spec: Field, at: At): { sub: string; message: string } | null {
  const value = item[field];
  if (value === undefined || (value === null && spec.required)) {
    return spec.required ? { sub: '', message: 'is required' } : null;
  }
  const p = spec.check(value, at);
  if (p !== null) return typeof p === 'string' ? { sub: '', message: p } : p;
  const lower = lowerBoundOf(field);
  if (
    lower !== null &&
    value !== null &&
    item[lower] !== undefined &&
    item[lower] !== null &&
    Number(item[lower]) > Number(value)
  ) {
    return { sub: '', message: `must be at least ${lower} (${item[lower]})` };
  }
  return null;
}

function checkItem(item: Item, table: Table, ctx: Ctx, path: string): { path: string; message: string } | null {
  const fields = Object.keys(table);
  for (const key of Object.keys(item)) {
    if (!(key in table)) return { path: `${path}.${key}`, message: `unknown field${suggest(key, fields)}` };
  }
  const at: At = { item, ctx, path: '' };
  for (const field of fields) {
    at.path = `${path}.${field}`;
    const p = fieldProblem(item, field, table[field], at);
    if (p) return { path: at.path + p.sub, message: p.message };
  }
  return null;
}

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
  if (!isObject(json))
    return { ok: false, path: '$', message: 'the file must be a JSON object with the keys ' + list(CATALOGUE_KEYS) };
  for (const key of Object.keys(json)) {
    if (!(CATALOGUE_KEYS as readonly string[]).includes(key)) {
      return {
        ok: false,
        path: key,
        message: `unknown top-level key${suggest(key, [...CATALOGUE_KEYS])}; expected ${list(CATALOGUE_KEYS)}`,
      };
    }
  }
  const ctx: Ctx = { known: gatherKnown(json, existing), existing, firstAt: new Map() };
  for (const key of CATALOGUE_KEYS) {
    const items = json[key];
    if (items === undefined) continue;
    if (!Array.isArray(items)) return { ok: false, path: key, message: 'must be a list' };
    for (let i = 0; i < items.length; i++) {
      const path = `${key}[${i}]`;
      if (!isObject(items[i])) return { ok: false, path, message: 'must be an object' };
      const problem = checkItem(items[i] as Item, TABLES[key], ctx, path);
      if (problem) return { ok: false, ...problem };
    }
  }
  const value = Object.fromEntries(
    CATALOGUE_KEYS.map((k) => [k, ((json[k] as Item[] | undefined) ?? []).map((item) => ({ ...item }))]),
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
