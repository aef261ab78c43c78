/**
 * Judges every record of a parsed rate-card file with the catalogue's own field rules (cardRecordProblems: the same
 * rules the catalogue file uses), plus what an import adds: names within the text limits, unique product names, unique
 * bracket names within a product, every bracket's product found in the file. Every problem is collected.
 *
 * The import's rules are zod schemas (NAME, CELL, KEY, PRODUCT_REF), as the catalogue's are. Records are judged in
 * file order, each by its own rules first, then against the records before it (keys and names unique, the first of
 * each kept; a bracket's product looked up), so a record's problems are reported together and a duplicate names where
 * the first one is. One pass, a constant amount of work per field, capped in what it reports (problems.ts).
 */
import { z } from 'zod';
import {
  CARD_RECORD_FIELDS,
  cardRecordProblems,
  type CardRecordKind,
  type Product,
  type RateBracket,
} from '../../catalogue/index.ts';
import type { FileBracket, FileProduct, ParsedFile } from './file.ts';
import { IMPORT_LIMITS, type Problems, unstorable } from './problems.ts';

type ImportedProduct = Omit<Product, 'id' | 'organisation_id'>;
type ImportedBracket = Omit<RateBracket, 'id' | 'organisation_id' | 'product_id'>;

/** A valid file's card, without ids: brackets name their product by its position in `products`. */
export interface ImportedCard {
  products: ImportedProduct[];
  brackets: { product: number; fields: ImportedBracket }[];
}

/** Names compare trimmed and case-insensitively, as a financier reads them. */
export const nameKey = (name: string) => name.trim().toLowerCase();

// ---------------------------------------------------------------------------------------------
// A record's rules
// ---------------------------------------------------------------------------------------------

const TOO_LONG = `must be at most ${IMPORT_LIMITS.maxTextLength} characters`;
const KEY_TYPE = 'must be a non-empty string or an integer';
const REF_KEY_TYPE = "must be a product's key (a string or an integer)";
const REF_NAME_TYPE = 'must be the product_name of a product in the file';

/**
 * A free-text name (product_name, bracket name, JSON key): storable, at most maxTextLength characters once trimmed.
 * Text that starts like a spreadsheet formula (`-Cash`, `+ balloon`) is a name like any other, as on every write path:
 * the service answers JSON only, and whatever writes a spreadsheet neutralises it there (docs/api-decisions.md).
 */
const NAME = z
  .string()
  .refine((v) => unstorable(v) === null, { error: (issue) => unstorable(issue.input as string) ?? '', abort: true })
  .refine((v) => v.trim().length <= IMPORT_LIMITS.maxTextLength, { error: TOO_LONG });

/** Any other text cell: at most maxTextLength characters as sent. */
const CELL = z.string().refine((v) => v.length <= IMPORT_LIMITS.maxTextLength, { error: TOO_LONG });

/** A product's file-local key. Any integer JSON carries is one (z.int() would stop at 2^53). */
const KEY = z.union(
  [
    z.string().refine((v) => v.trim() !== '', { error: KEY_TYPE, abort: true }),
    z.number().refine(Number.isInteger, { error: KEY_TYPE, abort: true }),
  ],
  { error: KEY_TYPE },
);

/** A bracket's product: by key (a string or an integer) or by product_name (non-empty text). */
const PRODUCT_REF = {
  key: z.union([z.string(), z.number()], { error: REF_KEY_TYPE }),
  name: z.string({ error: REF_NAME_TYPE }).refine((v) => v.trim() !== '', { error: REF_NAME_TYPE }),
};

const NONE: readonly string[] = [];

/** A text value's problems under `rule`; a value of another type has none here (its type is the catalogue rules'). */
function textProblems(rule: z.ZodType<unknown, string>, value: unknown): readonly string[] {
  if (typeof value !== 'string') return NONE;
  const result = rule.safeParse(value);
  return result.success ? NONE : result.error.issues.map((issue) => issue.message);
}

/**
 * Checks one record's own fields: its name by NAME, then the catalogue's rules in their field order (a name already
 * refused is not reported twice), then every other text cell by CELL, in the file's order. Answers the fields with the
 * name trimmed, or null when any was refused.
 */
function judge(
  kind: CardRecordKind,
  record: FileProduct | FileBracket,
  nameField: string,
  problems: Problems,
): Record<string, unknown> | null {
  const fields = { ...record.fields };
  const refused = textProblems(NAME, fields[nameField]);
  for (const message of refused) problems.add(record.at(nameField), message);
  if (!refused.length && typeof fields[nameField] === 'string')
    fields[nameField] = (fields[nameField] as string).trim();
  let ok = !refused.length;
  for (const { field, message } of cardRecordProblems(kind, fields)) {
    if (field === nameField && refused.length) continue;
    problems.add(record.at(field), message);
    ok = false;
  }
  for (const [field, value] of Object.entries(fields)) {
    if (field === nameField) continue;
    for (const message of textProblems(CELL, value)) {
      problems.add(record.at(field), message);
      ok = false;
    }
  }
  return ok ? fields : null;
}

// ---------------------------------------------------------------------------------------------
// The file's rules
// ---------------------------------------------------------------------------------------------

const filled = <T>(fields: Record<string, unknown>, names: readonly string[], defaults: Record<string, unknown> = {}) =>
  Object.fromEntries(names.map((f) => [f, fields[f] ?? defaults[f] ?? null])) as T;

/** The first record holding each value, and where. */
type Firsts = Map<string, { index: number; at: string }>;

export function validateFile(file: ParsedFile, problems: Problems): ImportedCard | null {
  const products: (ImportedProduct | null)[] = [];
  const byName: Firsts = new Map();
  const byKey: Firsts = new Map();

  file.products.forEach((record, index) => {
    const fields = judge('products', record, 'product_name', problems);
    products.push(fields ? filled<ImportedProduct>(fields, CARD_RECORD_FIELDS.products) : null);
    const key = record.key;
    if (key !== undefined) {
      const keyAt = record.at('key');
      const value = KEY.safeParse(key);
      if (!value.success) for (const issue of value.error.issues) problems.add(keyAt, issue.message);
      else {
        for (const message of textProblems(NAME, key)) problems.add(keyAt, message);
        const k = String(key).trim();
        const first = byKey.get(k);
        if (first) problems.add(keyAt, `duplicate key ${JSON.stringify(key)} (first at ${first.at})`);
        else byKey.set(k, { index, at: keyAt });
      }
    }
    const name = record.fields.product_name;
    if (typeof name === 'string' && name.trim() !== '') {
      const first = byName.get(nameKey(name));
      if (first)
        problems.add(record.at('product_name'), `duplicate product name “${name.trim()}” (first at ${first.at})`);
      else byName.set(nameKey(name), { index, at: record.at('product_name') });
    }
  });

  const brackets: { product: number; fields: ImportedBracket }[] = [];
  const bracketAt = new Map<string, string>();
  for (const record of file.brackets) {
    const product = productOf(record, byKey, byName, problems);
    const fields = judge('rate_brackets', record, 'name', problems);
    if (product === null || fields === null) continue;
    const key = `${product}|${nameKey(fields.name as string)}`;
    const first = bracketAt.get(key);
    if (first) {
      problems.add(
        record.at('name'),
        `duplicate bracket name “${fields.name}” in product “${products[product]?.product_name ?? ''}” (first at ${first})`,
      );
      continue;
    }
    bracketAt.set(key, record.at('name'));
    brackets.push({
      product,
      fields: filled<ImportedBracket>(fields, CARD_RECORD_FIELDS.rate_brackets, { type: 'commercial' }),
    });
  }
  if (products.length > IMPORT_LIMITS.maxProducts)
    problems.add('file', `must hold at most ${IMPORT_LIMITS.maxProducts} products`);
  if (problems.any) return null;
  return { products: products as ImportedProduct[], brackets };
}

/** The position in the file of a bracket's product, or null (a problem reported, or no reference to judge). */
function productOf(record: FileBracket, byKey: Firsts, byName: Firsts, problems: Problems): number | null {
  const ref = record.product;
  if (ref === null) return null;
  const value = PRODUCT_REF[ref.by].safeParse(ref.value);
  if (!value.success) {
    problems.add(ref.at, value.error.issues[0].message);
    return null;
  }
  const found = (ref.by === 'key' ? byKey : byName).get(
    ref.by === 'key' ? String(value.data).trim() : nameKey(String(value.data)),
  );
  if (found) return found.index;
  problems.add(
    ref.at,
    ref.by === 'key'
      ? `no product in the file has the key ${JSON.stringify(ref.value)}`
      : `no product in the file is named “${String(ref.value).trim().slice(0, 80)}”`,
  );
  return null;
}
