/**
 * The rate-card comparison: what changes between two rate cards, in sentences a financier reads. Pure, no I/O.
 * The import preview and the version diff (GET /rate-card-versions/{id}/diff) both answer with these sentences, so a
 * financier reads the same words whether a change comes from a file or from a restore. docs/rate-card-import.md
 * documents the sentences, `parts`, `subtrees` and every warning.
 *
 * Records match by id first, then (among those left) products by name and brackets by name within their product
 * (names compare trimmed and case-insensitively), so a card rebuilt with new ids still compares as unchanged.
 * Output order never depends on ids: products by name, then brackets by name; ties fall back to id.
 *
 * One file, past the usual size: the matching, the warnings and the sentences all read the same field tables below
 * (which figures a product and a bracket carry, and how each is worded), and a field added to a card is added once.
 */
import { productAsStored, type AssetRateBracketRelation, type Product, type RateBracket } from '../catalogue/index.ts';
import type { AssetMappingCard, RateCard } from './card.ts';

/** Rates that move by more than this many percentage points are warned about, unless the caller says otherwise. */
const DEFAULT_RATE_MOVE_THRESHOLD = 1;

/** Shadowed brackets are looked for in products of at most this many brackets (the check is quadratic). */
export const SHADOW_CHECK_LIMIT = 200;

export interface CompareOptions {
  /** Percentage points; a base rate (either end of the band) moving by more than this is a warning. Default 1.00. */
  rateMoveThreshold?: number;
  /** Bracket id -> names of the approvals linked to it (approval_rate_brackets), for "removed but still linked". */
  approvalLinks?: ReadonlyMap<number, readonly string[]>;
}

export interface Comparison {
  summary_lines: string[];
  warnings: string[];
  parts: Record<string, unknown>;
  subtrees: Record<string, unknown>;
}

interface PartCounts {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

/** The same result under the name the version diff uses. */
export type CardComparison = Comparison;

export const NO_CHANGES = 'No changes.';

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

const EPSILON = 1e-9;
const same = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < EPSILON);

function grouped(n: number, decimals: number): string {
  const fixed = (Math.round(n * 10 ** decimals + (n >= 0 ? EPSILON : -EPSILON)) / 10 ** decimals).toFixed(decimals);
  const [whole, fraction] = fixed.split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  const withCommas = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? sign + withCommas : `${sign}${withCommas}.${fraction}`;
}
/** Dollars to the cent: `$1,234.50`. */
export const money = (n: number) => (n < 0 ? `-$${grouped(-n, 2)}` : `$${grouped(n, 2)}`);
/** Percent to two decimals: `8.45%`. */
export const percent = (n: number) => `${grouped(n, 2)}%`;
const points = (n: number) => `${grouped(n, 2)} ${Math.abs(n - 1) < EPSILON ? 'point' : 'points'}`;
const months = (n: number) => `${grouped(n, 0)} ${n === 1 ? 'month' : 'months'}`;
const plain = (n: number) => grouped(n, Number.isInteger(n) ? 0 : 2);
const quote = (name: string) => `“${name}”`;

type Kind = 'months' | 'money' | 'percent' | 'integer';
const FORMAT: Record<Kind, (n: number) => string> = { months, money, percent, integer: plain };

/** A range as a financier says it: "12–36 months", "up to $50,000.00", "24 months or more", "any". */
export function range(min: number | null, max: number | null, kind: Kind): string {
  const f = FORMAT[kind];
  if (min === null && max === null) return 'any';
  if (min === null) return `up to ${f(max as number)}`;
  if (max === null) return `${f(min)} or more`;
  if (same(min, max)) return f(min);
  if (kind === 'months') return `${plain(min)}–${months(max)}`;
  return `${f(min)}–${f(max)}`;
}

const rateBand = (min: number, max: number) => (same(min, max) ? percent(min) : `${percent(min)}–${percent(max)}`);

// ---------------------------------------------------------------------------------------------
// Field descriptions
// ---------------------------------------------------------------------------------------------

interface RangeField<T> {
  label: string;
  min: keyof T & string;
  max: keyof T & string;
  kind: Kind;
}
const PRODUCT_RANGES: RangeField<Product>[] = [
  { label: 'term', min: 'min_range', max: 'max_range', kind: 'months' },
  { label: 'amount', min: 'min_amount', max: 'max_amount', kind: 'money' },
  { label: 'ABN age', min: 'min_abn_age', max: 'max_abn_age', kind: 'months' },
  { label: 'asset age', min: 'min_asset_age', max: 'max_asset_age', kind: 'months' },
  { label: 'GST age', min: 'min_gst_age', max: 'max_gst_age', kind: 'months' },
  { label: 'asset age plus term', min: 'min_asset_age_plus_term', max: 'max_asset_age_plus_term', kind: 'months' },
  { label: 'credit score', min: 'min_credit_score', max: 'max_credit_score', kind: 'integer' },
];
const BRACKET_RANGES: RangeField<RateBracket>[] = [
  { label: 'term', min: 'min_term', max: 'max_term', kind: 'months' },
  { label: 'amount', min: 'min_amount', max: 'max_amount', kind: 'money' },
  { label: 'asset age', min: 'min_asset_age', max: 'max_asset_age', kind: 'months' },
];
/** The bracket range each product range bounds (a deal must satisfy both). */
const BOUNDED_BY_PRODUCT: [RangeField<RateBracket>, RangeField<Product>][] = [
  [BRACKET_RANGES[0], PRODUCT_RANGES[0]],
  [BRACKET_RANGES[1], PRODUCT_RANGES[1]],
  [BRACKET_RANGES[2], PRODUCT_RANGES[3]],
];

interface ScalarField {
  label: string;
  key: keyof Product & string;
  show: (v: unknown) => string;
  /** Numeric: "Raises"/"Lowers" instead of "Changes". */
  numeric?: true;
}
const COMPOUNDING: Record<string, string> = { w: 'weekly', m: 'monthly', q: 'quarterly', y: 'yearly' };
const TRI: Record<string, string> = { yes: 'yes', no: 'no', both: 'either' };
const tri = (v: unknown) => TRI[v as string];
const num = (f: (n: number) => string) => (v: unknown) => (v === null ? 'none' : f(v as number));
const PRODUCT_SCALARS: ScalarField[] = [
  { label: 'monthly fee', key: 'monthly_fee', show: num(money), numeric: true },
  { label: 'documentation fee', key: 'documentation_fee', show: num(money), numeric: true },
  { label: 'brokerage cap', key: 'brokerage_cap', show: num(percent), numeric: true },
  { label: 'maximum brokerage', key: 'maximum_brokerage_limit', show: num(money), numeric: true },
  {
    label: 'compounding',
    key: 'compounding_frequency',
    show: (v) => COMPOUNDING[v as string] ?? String(v),
  },
  {
    label: 'brokerage treatment',
    key: 'brokerage_loading_treatment',
    show: (v) =>
      v === null || v === 0 ? 'funded into the loan' : `rate-loaded at ${plain(v as number)} per 1% brokerage`,
  },
  { label: 'maximum origination fee', key: 'max_origination_fee_limit', show: num(money), numeric: true },
  { label: 'doc fee financed', key: 'doc_fee_financed', show: tri },
  { label: 'private sale', key: 'private_sale', show: tri },
  { label: 'sale and hire back', key: 'sale_hire_back', show: tri },
  { label: 'home owner', key: 'home_owner', show: tri },
];

const norm = (name: string) => name.trim().toLowerCase();
const byName =
  <T extends { id: number }>(name: (t: T) => string) =>
  (a: T, b: T) =>
    norm(name(a)) < norm(name(b)) ? -1 : norm(name(a)) > norm(name(b)) ? 1 : a.id - b.id;
const byProductName = byName<Product>((p) => p.product_name);
const byBracketName = byName<RateBracket>((b) => b.name);

/** Pairs records by id, then the rest by key; answers [before, after] pairs (one side null when added/removed). */
function pair<T extends { id: number }>(
  before: T[],
  after: T[],
  keyBefore: (t: T) => string,
  keyAfter: (t: T) => string = keyBefore,
): [T | null, T | null][] {
  const pairs: [T | null, T | null][] = [];
  const afterById = new Map(after.map((a) => [a.id, a]));
  const usedAfter = new Set<T>();
  const leftBefore: T[] = [];
  for (const b of before) {
    const a = afterById.get(b.id);
    if (a !== undefined && !usedAfter.has(a) && keyAfter(a) === keyBefore(b)) {
      pairs.push([b, a]);
      usedAfter.add(a);
    } else leftBefore.push(b);
  }
  // Same id, different key (a rename or a move): still the same record.
  const stillLeft: T[] = [];
  for (const b of leftBefore) {
    const a = afterById.get(b.id);
    if (a !== undefined && !usedAfter.has(a)) {
      pairs.push([b, a]);
      usedAfter.add(a);
    } else stillLeft.push(b);
  }
  const afterByKey = new Map<string, T[]>();
  for (const a of after) {
    if (usedAfter.has(a)) continue;
    const list = afterByKey.get(keyAfter(a));
    if (list) list.push(a);
    else afterByKey.set(keyAfter(a), [a]);
  }
  for (const b of stillLeft) {
    const a = afterByKey.get(keyBefore(b))?.shift();
    if (a !== undefined) {
      pairs.push([b, a]);
      usedAfter.add(a);
    } else pairs.push([b, null]);
  }
  for (const a of after) if (!usedAfter.has(a)) pairs.push([null, a]);
  return pairs;
}

// ---------------------------------------------------------------------------------------------
// Problems that make a bracket unreachable (warned when the change introduces them)
// ---------------------------------------------------------------------------------------------

interface Problem {
  /** Identity across the two cards: the same problem in both is not news. */
  key: string;
  sentence: string;
}

function invertedRanges<T>(record: T, fields: RangeField<T>[]): { field: RangeField<T>; min: number; max: number }[] {
  const out: { field: RangeField<T>; min: number; max: number }[] = [];
  for (const field of fields) {
    const min = record[field.min] as number | null;
    const max = record[field.max] as number | null;
    if (min !== null && max !== null && min > max + EPSILON) out.push({ field, min, max });
  }
  return out;
}

const contains = (outerMin: number | null, outerMax: number | null, innerMin: number | null, innerMax: number | null) =>
  (outerMin === null || (innerMin !== null && innerMin >= outerMin - EPSILON)) &&
  (outerMax === null || (innerMax !== null && innerMax <= outerMax + EPSILON));
const disjoint = (aMin: number | null, aMax: number | null, bMin: number | null, bMax: number | null) =>
  (aMin !== null && bMax !== null && aMin > bMax + EPSILON) ||
  (bMin !== null && aMax !== null && bMin > aMax + EPSILON);

function problemsOf(card: RateCard): Problem[] {
  const problems: Problem[] = [];
  const brackets = new Map<number, RateBracket[]>();
  for (const b of card.rate_brackets) {
    const list = brackets.get(b.product_id);
    if (list) list.push(b);
    else brackets.set(b.product_id, [b]);
  }
  for (const product of [...card.products].sort(byProductName)) {
    const p = quote(product.product_name);
    const pk = norm(product.product_name);
    const mine = (brackets.get(product.id) ?? []).sort(byBracketName);
    for (const { field, min, max } of invertedRanges(product, PRODUCT_RANGES)) {
      const f = FORMAT[field.kind];
      problems.push({
        key: `product-inverted|${pk}|${field.label}`,
        sentence: `Product ${p} can price no deal: its minimum ${field.label} (${f(min)}) is above its maximum (${f(max)}).`,
      });
    }
    if (mine.length === 0) {
      problems.push({ key: `product-empty|${pk}`, sentence: `Product ${p} has no brackets, so it prices no deal.` });
    }
    for (const b of mine) {
      const at = `${quote(b.name)} in ${p}`;
      const bk = `${pk}|${norm(b.name)}`;
      const inverted = invertedRanges(b, BRACKET_RANGES);
      for (const { field, min, max } of inverted) {
        const f = FORMAT[field.kind];
        problems.push({
          key: `bracket-inverted|${bk}|${field.label}`,
          sentence: `${at} can never price a deal: its minimum ${field.label} (${f(min)}) is above its maximum (${f(max)}).`,
        });
      }
      if (b.base_min > b.base_max + EPSILON) {
        problems.push({
          key: `bracket-inverted|${bk}|base rate`,
          sentence: `${at} has its minimum base rate (${percent(b.base_min)}) above its maximum (${percent(b.base_max)}).`,
        });
      }
      if (inverted.length > 0) continue;
      for (const [bf, pf] of BOUNDED_BY_PRODUCT) {
        const bMin = b[bf.min] as number | null;
        const bMax = b[bf.max] as number | null;
        const pMin = product[pf.min] as number | null;
        const pMax = product[pf.max] as number | null;
        if (disjoint(bMin, bMax, pMin, pMax)) {
          problems.push({
            key: `bracket-outside|${bk}|${bf.label}`,
            sentence: `${at} can never price a deal: its ${bf.label} (${range(bMin, bMax, bf.kind)}) is outside the product's (${range(pMin, pMax, pf.kind)}).`,
          });
        }
      }
    }
    // Shadowing: within one product and type, a bracket whose deals another accepts at a base_min no higher is never
    // the cheapest (same product, same fees: the lower base_min wins). Equal base_min: the wider one shadows the
    // narrower; of two identical ones, the later in name order is reported.
    // Quadratic in one product's brackets, so bounded: a product of more than SHADOW_CHECK_LIMIT brackets is not
    // checked (no real card has one; a hostile file could otherwise cost seconds of CPU per request).
    const valid =
      mine.length > SHADOW_CHECK_LIMIT ? [] : mine.filter((b) => invertedRanges(b, BRACKET_RANGES).length === 0);
    const flat = valid.map((b, order) => ({
      b,
      order,
      type: b.type ?? 'commercial',
      lo: [b.min_term, b.min_amount, b.min_asset_age],
      hi: [b.max_term, b.max_amount, b.max_asset_age],
    }));
    const coversFlat = (a: (typeof flat)[number], b: (typeof flat)[number]) => {
      for (let k = 0; k < 3; k++) if (!contains(a.lo[k], a.hi[k], b.lo[k], b.hi[k])) return false;
      return a.b.max_lvr === null || (b.b.max_lvr !== null && b.b.max_lvr <= a.b.max_lvr + EPSILON);
    };
    for (const y of flat) {
      const b = y.b;
      let shadow: RateBracket | null = null;
      for (const x of flat) {
        const a = x.b;
        if (x === y || x.type !== y.type || a.base_min > b.base_min + EPSILON || !coversFlat(x, y)) continue;
        // Rule 13 ranks by e_min, which within one product follows base_min; base_max plays no part.
        if (a.base_min < b.base_min - EPSILON || x.order < y.order || !coversFlat(y, x)) {
          shadow = a;
          break;
        }
      }
      if (shadow) {
        problems.push({
          key: `bracket-shadowed|${pk}|${norm(b.name)}`,
          sentence: `${quote(b.name)} in ${p} is never the cheapest: ${quote(shadow.name)} accepts every deal it does at a base rate no higher (${rateBand(shadow.base_min, shadow.base_max)} against ${rateBand(b.base_min, b.base_max)}).`,
        });
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The rate card
// ---------------------------------------------------------------------------------------------

function verb(before: number, after: number): string {
  return after > before ? 'Raises' : 'Lowers';
}

function productChanges(before: Product, after: Product): string[] {
  const lines: string[] = [];
  const p = quote(after.product_name);
  if (before.product_name !== after.product_name) {
    lines.push(`Renames product ${quote(before.product_name)} to ${p}.`);
  }
  for (const f of PRODUCT_RANGES) {
    const b0 = before[f.min] as number | null;
    const b1 = before[f.max] as number | null;
    const a0 = after[f.min] as number | null;
    const a1 = after[f.max] as number | null;
    if (same(b0, a0) && same(b1, a1)) continue;
    lines.push(`Changes ${f.label} of ${p} from ${range(b0, b1, f.kind)} to ${range(a0, a1, f.kind)}.`);
  }
  for (const f of PRODUCT_SCALARS) {
    const b = before[f.key] ?? null;
    const a = after[f.key] ?? null;
    if (f.numeric ? same(b as number | null, a as number | null) : b === a) continue;
    if (f.key === 'brokerage_loading_treatment' && (b ?? 0) === (a ?? 0)) continue;
    if (f.numeric && b !== null && a !== null) {
      lines.push(`${verb(b as number, a as number)} ${f.label} of ${p} from ${f.show(b)} to ${f.show(a)}.`);
    } else if (f.numeric && b === null) {
      lines.push(`Sets ${f.label} of ${p} to ${f.show(a)}.`);
    } else if (f.numeric) {
      lines.push(`Removes ${f.label} of ${p} (was ${f.show(b)}).`);
    } else {
      lines.push(`Changes ${f.label} of ${p} from ${f.show(b)} to ${f.show(a)}.`);
    }
  }
  return lines;
}

/** The figures a new bracket is read by: "term 0–36 months, amount any, base rate 8.45%". */
function bracketFigures(b: RateBracket): string {
  const parts = [
    `term ${range(b.min_term, b.max_term, 'months')}`,
    `amount ${range(b.min_amount, b.max_amount, 'money')}`,
  ];
  if (b.min_asset_age !== null || b.max_asset_age !== null)
    parts.push(`asset age ${range(b.min_asset_age, b.max_asset_age, 'months')}`);
  if (b.max_lvr !== null) parts.push(`LVR up to ${percent(b.max_lvr)}`);
  if ((b.type ?? 'commercial') !== 'commercial') parts.push(`${b.type} card`);
  parts.push(`base rate ${rateBand(b.base_min, b.base_max)}`);
  return parts.join(', ');
}

function bracketChanges(
  before: RateBracket,
  after: RateBracket,
  beforeProduct: string,
  afterProduct: string,
): { lines: string[]; rateMove: number } {
  const lines: string[] = [];
  const p = quote(afterProduct);
  const at = `${quote(after.name)} in ${p}`;
  if (before.product_id !== after.product_id && norm(beforeProduct) !== norm(afterProduct)) {
    lines.push(`Moves bracket ${quote(after.name)} from ${quote(beforeProduct)} to ${p}.`);
  }
  if (before.name !== after.name) lines.push(`Renames bracket ${quote(before.name)} in ${p} to ${quote(after.name)}.`);
  if ((before.type ?? 'commercial') !== (after.type ?? 'commercial')) {
    lines.push(`Changes ${at} from a ${before.type} to a ${after.type} card.`);
  }
  for (const f of BRACKET_RANGES) {
    const b0 = before[f.min] as number | null;
    const b1 = before[f.max] as number | null;
    const a0 = after[f.min] as number | null;
    const a1 = after[f.max] as number | null;
    if (same(b0, a0) && same(b1, a1)) continue;
    lines.push(`Changes ${f.label} of ${at} from ${range(b0, b1, f.kind)} to ${range(a0, a1, f.kind)}.`);
  }
  const dMin = after.base_min - before.base_min;
  const dMax = after.base_max - before.base_max;
  if (!same(before.base_min, after.base_min) || !same(before.base_max, after.base_max)) {
    const up = dMin > EPSILON || dMax > EPSILON;
    const down = dMin < -EPSILON || dMax < -EPSILON;
    const word = up && !down ? 'Raises' : down && !up ? 'Lowers' : 'Changes';
    lines.push(
      `${word} base rate of ${at} from ${rateBand(before.base_min, before.base_max)} to ${rateBand(after.base_min, after.base_max)}.`,
    );
  }
  if (!same(before.max_lvr, after.max_lvr)) {
    const show = (v: number | null) => (v === null ? 'no limit' : percent(v));
    lines.push(`Changes maximum LVR of ${at} from ${show(before.max_lvr)} to ${show(after.max_lvr)}.`);
  }
  return { lines, rateMove: Math.max(Math.abs(dMin), Math.abs(dMax)) };
}

const counts = (): PartCounts => ({ added: 0, changed: 0, removed: 0, unchanged: 0 });
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const listNames = (names: readonly string[]) => {
  const quoted = [...names].sort((a, b) => (norm(a) < norm(b) ? -1 : norm(a) > norm(b) ? 1 : 0)).map(quote);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
};

interface ProductSubtree {
  status: 'added' | 'changed' | 'removed';
  product_id: number;
  changes: string[];
  rate_brackets: { added: string[]; changed: string[]; removed: string[] };
}

/**
 * What replacing `before` with `after` changes. `summary_lines` are the changes, `warnings` what a financier should
 * check before applying: brackets that become unreachable or never the cheapest, products left pricing nothing, rates
 * that move by more than the threshold, and removed brackets that approvals still link to.
 */
export function compareRateCards(before: RateCard, after: RateCard, options: CompareOptions = {}): Comparison {
  // A version saved while these could be null says with null what is now stored as the default: no change.
  before = { ...before, products: before.products.map(productAsStored) };
  after = { ...after, products: after.products.map(productAsStored) };
  const threshold = options.rateMoveThreshold ?? DEFAULT_RATE_MOVE_THRESHOLD;
  const productPairs = pair(before.products, after.products, (p) => norm(p.product_name));
  // Brackets pair by id, then by (paired product, name): the product key is the after product's id when paired.
  const productKeyOfBefore = new Map<number, string>();
  const productKeyOfAfter = new Map<number, string>();
  productPairs.forEach(([b, a], i) => {
    if (b) productKeyOfBefore.set(b.id, String(i));
    if (a) productKeyOfAfter.set(a.id, String(i));
  });
  const bracketKey = (side: Map<number, string>) => (r: RateBracket) =>
    `${side.get(r.product_id) ?? `?${r.product_id}`}|${norm(r.name)}`;
  const bracketPairs = pair(
    before.rate_brackets,
    after.rate_brackets,
    bracketKey(productKeyOfBefore),
    bracketKey(productKeyOfAfter),
  );
  const beforeName = new Map(before.products.map((p) => [p.id, p.product_name]));
  const afterName = new Map(after.products.map((p) => [p.id, p.product_name]));
  const nameAfter = (id: number) => afterName.get(id) ?? `product ${id}`;
  const nameBefore = (id: number) => beforeName.get(id) ?? `product ${id}`;

  const parts = { products: counts(), rate_brackets: counts() };
  const summary: string[] = [];
  const warnings: string[] = [];
  const subtrees: Record<string, ProductSubtree> = {};

  // Group the bracket pairs under the product pair they end up in (the after product; the before one when removed).
  const pairIndexOfBracket = (b: RateBracket | null, a: RateBracket | null) =>
    a ? productKeyOfAfter.get(a.product_id) : b ? productKeyOfBefore.get(b.product_id) : undefined;
  const bracketsOfPair = new Map<string, [RateBracket | null, RateBracket | null][]>();
  for (const bp of bracketPairs) {
    const k = pairIndexOfBracket(bp[0], bp[1]) ?? '?';
    const list = bracketsOfPair.get(k);
    if (list) list.push(bp);
    else bracketsOfPair.set(k, [bp]);
  }

  const orderedPairs = productPairs
    .map((pp, i) => ({ pp, i }))
    .sort((x, y) => byProductName((x.pp[1] ?? x.pp[0]) as Product, (y.pp[1] ?? y.pp[0]) as Product));
  const rateWarnings: string[] = [];
  const linkWarnings: string[] = [];
  const links = options.approvalLinks;
  const linkWarning = (b: RateBracket, productName: string) => {
    const names = links?.get(b.id);
    if (names && names.length > 0) {
      linkWarnings.push(
        `Removing ${quote(b.name)} from ${quote(productName)} unlinks it from ${names.length === 1 ? 'approval' : 'approvals'} ${listNames(names)}.`,
      );
    }
  };

  for (const { pp, i } of orderedPairs) {
    const [pb, pa] = pp;
    const product = (pa ?? pb) as Product;
    const brackets = (bracketsOfPair.get(String(i)) ?? []).sort((x, y) =>
      byBracketName((x[1] ?? x[0]) as RateBracket, (y[1] ?? y[0]) as RateBracket),
    );
    const subtree: ProductSubtree = {
      status: 'changed',
      product_id: product.id,
      changes: [],
      rate_brackets: { added: [], changed: [], removed: [] },
    };
    if (pb === null) {
      parts.products.added++;
      subtree.status = 'added';
      const added = brackets.filter(([, a]) => a !== null).map(([, a]) => a as RateBracket);
      const line = `Adds product ${quote(product.product_name)} with ${added.length === 0 ? 'no brackets' : plural(added.length, 'bracket', 'brackets')}.`;
      summary.push(line);
      subtree.changes.push(line);
      for (const a of added) {
        parts.rate_brackets.added++;
        subtree.rate_brackets.added.push(a.name);
        subtree.changes.push(`Adds bracket ${quote(a.name)}: ${bracketFigures(a)}.`);
      }
    } else if (pa === null) {
      parts.products.removed++;
      subtree.status = 'removed';
      const removed = brackets.filter(([b]) => b !== null).map(([b]) => b as RateBracket);
      const line =
        removed.length === 0
          ? `Removes product ${quote(product.product_name)}.`
          : `Removes product ${quote(product.product_name)} and its ${plural(removed.length, 'bracket', 'brackets')}.`;
      summary.push(line);
      subtree.changes.push(line);
      for (const b of removed) {
        parts.rate_brackets.removed++;
        subtree.rate_brackets.removed.push(b.name);
        linkWarning(b, product.product_name);
      }
    } else {
      const lines = productChanges(pb, pa);
      if (lines.length > 0) parts.products.changed++;
      subtree.changes.push(...lines);
      for (const [b, a] of brackets) {
        if (b === null && a !== null) {
          parts.rate_brackets.added++;
          subtree.rate_brackets.added.push(a.name);
          subtree.changes.push(`Adds bracket ${quote(a.name)} to ${quote(pa.product_name)}: ${bracketFigures(a)}.`);
        } else if (a === null && b !== null) {
          parts.rate_brackets.removed++;
          subtree.rate_brackets.removed.push(b.name);
          subtree.changes.push(`Removes bracket ${quote(b.name)} from ${quote(pa.product_name)}.`);
          linkWarning(b, pa.product_name);
        } else if (a !== null && b !== null) {
          const { lines: bl, rateMove } = bracketChanges(b, a, nameBefore(b.product_id), nameAfter(a.product_id));
          if (bl.length === 0) {
            parts.rate_brackets.unchanged++;
            continue;
          }
          parts.rate_brackets.changed++;
          subtree.rate_brackets.changed.push(a.name);
          subtree.changes.push(...bl);
          if (rateMove > threshold + EPSILON) {
            const moved = Math.abs(a.base_min - b.base_min) >= Math.abs(a.base_max - b.base_max) ? 'min' : 'max';
            const from = moved === 'min' ? b.base_min : b.base_max;
            const to = moved === 'min' ? a.base_min : a.base_max;
            rateWarnings.push(
              `Base rate of ${quote(a.name)} in ${quote(pa.product_name)} moves by ${points(rateMove)} (${moved === 'min' ? 'minimum' : 'maximum'} from ${percent(from)} to ${percent(to)}), more than the ${grouped(threshold, 2)}-point threshold.`,
            );
          }
        }
      }
      if (subtree.changes.length === 0) {
        parts.products.unchanged++;
        continue;
      }
      if (lines.length === 0) parts.products.unchanged++;
      summary.push(...subtree.changes);
    }
    let key = product.product_name;
    if (key in subtrees) key = `${key} (#${product.id})`;
    subtrees[key] = subtree;
  }

  // Warnings: problems the change introduces (present after, absent before), then rate moves, then approval links.
  const known = new Set(problemsOf(before).map((p) => p.key));
  for (const problem of problemsOf(after)) if (!known.has(problem.key)) warnings.push(problem.sentence);
  warnings.push(...rateWarnings, ...linkWarnings);

  return {
    summary_lines: summary.length === 0 ? [NO_CHANGES] : summary,
    warnings,
    parts,
    subtrees,
  };
}

// ---------------------------------------------------------------------------------------------
// The asset mapping
// ---------------------------------------------------------------------------------------------

/** Names for the sentences; an id without a name reads "asset 12", "product 3", "bracket 40". */
export interface MappingNames {
  assets?: ReadonlyMap<number, string>;
  products?: ReadonlyMap<number, string>;
  rate_brackets?: ReadonlyMap<number, string>;
}

/** What replacing one asset mapping with another changes. Mappings match by what they map, not by id. */
export function compareAssetMappings(
  before: AssetMappingCard,
  after: AssetMappingCard,
  names: MappingNames = {},
): Comparison {
  const asset = (id: number) => quote(names.assets?.get(id) ?? `asset ${id}`);
  const productOf = (id: number | null) => (id === null ? 'no product' : (names.products?.get(id) ?? `product ${id}`));
  const bracket = (id: number) => quote(names.rate_brackets?.get(id) ?? `bracket ${id}`);
  const key = (m: AssetRateBracketRelation) => `${m.asset_id}|${m.product_id ?? ''}|${m.rate_bracket_id ?? ''}`;
  const beforeKeys = new Set(before.asset_rate_brackets.map(key));
  const afterKeys = new Set(after.asset_rate_brackets.map(key));
  const target = (m: AssetRateBracketRelation) =>
    m.rate_bracket_id === null
      ? `every bracket of ${quote(productOf(m.product_id))}`
      : `${bracket(m.rate_bracket_id)} of ${quote(productOf(m.product_id))}`;
  const describe = (m: AssetRateBracketRelation) => ({ asset: asset(m.asset_id), target: target(m) });
  const dedupe = (list: AssetRateBracketRelation[], other: Set<string>) => {
    const seen = new Set<string>();
    return list.filter((m) => {
      const k = key(m);
      if (other.has(k) || seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };
  const added = dedupe(after.asset_rate_brackets, beforeKeys);
  const removed = dedupe(before.asset_rate_brackets, afterKeys);
  const unchanged = new Set([...afterKeys].filter((k) => beforeKeys.has(k))).size;

  type Entry = { product: string; sortKey: string; line: string; kind: 'added' | 'removed' };
  const entries: Entry[] = [
    ...added.map((m): Entry => {
      const d = describe(m);
      return {
        product: productOf(m.product_id),
        sortKey: `${d.asset}|${d.target}`,
        line: `Maps ${d.asset} to ${d.target}.`,
        kind: 'added',
      };
    }),
    ...removed.map((m): Entry => {
      const d = describe(m);
      return {
        product: productOf(m.product_id),
        sortKey: `${d.asset}|${d.target}`,
        line: `Stops mapping ${d.asset} to ${d.target}.`,
        kind: 'removed',
      };
    }),
  ];
  const cmp = (a: string, b: string) => (norm(a) < norm(b) ? -1 : norm(a) > norm(b) ? 1 : a < b ? -1 : a > b ? 1 : 0);
  entries.sort(
    (x, y) =>
      cmp(x.product, y.product) || cmp(x.sortKey, y.sortKey) || (x.kind === y.kind ? 0 : x.kind === 'added' ? -1 : 1),
  );

  const subtrees: Record<string, { added: number; removed: number; changes: string[] }> = {};
  for (const e of entries) {
    const s = (subtrees[e.product] ??= { added: 0, removed: 0, changes: [] });
    s[e.kind]++;
    s.changes.push(e.line);
  }
  // A product that had mappings and has none after prices nothing.
  const warnings: string[] = [];
  const mappedProducts = (card: AssetMappingCard) =>
    new Set(card.asset_rate_brackets.map((m) => m.product_id).filter((p): p is number => p !== null));
  const afterProducts = mappedProducts(after);
  const lost = [...mappedProducts(before)].filter((p) => !afterProducts.has(p)).map(productOf);
  for (const name of lost.sort(cmp)) {
    warnings.push(`Product ${quote(name)} is no longer mapped to any asset, so it prices no deal.`);
  }
  return {
    summary_lines: entries.length === 0 ? [NO_CHANGES] : entries.map((e) => e.line),
    warnings,
    parts: { asset_rate_brackets: { added: added.length, changed: 0, removed: removed.length, unchanged } },
    subtrees,
  };
}
