/**
 * Judges every record of a parsed rate-card file with the catalogue's own field rules (cardRecordProblems: the same
 * rules the catalogue file uses), plus what an import adds: names within the text limits, unique product names, unique
 * bracket names within a product, every bracket's product found in the file. Every problem is collected.
 */
import type { Product, RateBracket } from '../../catalogue/model.ts';
import { CARD_RECORD_FIELDS, cardRecordProblems } from '../../catalogue/catalogue-file.ts';
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

/**
 * Problem with a free-text name (product_name, bracket name, JSON key), or null. Type errors are left to the rules.
 * Text that starts like a spreadsheet formula (`-Cash`, `+ balloon`) is a name like any other, as on every write path:
 * the service answers JSON only, and whatever writes a spreadsheet neutralises it there (docs/api-decisions.md).
 */
function nameProblem(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const bad = unstorable(value);
  if (bad) return bad;
  if (value.trim().length > IMPORT_LIMITS.maxTextLength)
    return `must be at most ${IMPORT_LIMITS.maxTextLength} characters`;
  return null;
}

/** Checks one record: its name, then its fields by the shared rules. Answers the fields with names trimmed. */
function judge(
  kind: 'products' | 'rate_brackets',
  record: FileProduct | FileBracket,
  nameField: string,
  problems: Problems,
): Record<string, unknown> | null {
  const fields = { ...record.fields };
  let ok = true;
  const bad = nameProblem(fields[nameField]);
  if (bad) {
    problems.add(record.at(nameField), bad);
    ok = false;
  } else if (typeof fields[nameField] === 'string') fields[nameField] = (fields[nameField] as string).trim();
  for (const { field, message } of cardRecordProblems(kind, fields)) {
    if (field === nameField && !ok) continue;
    problems.add(record.at(field), message);
    ok = false;
  }
  for (const [field, value] of Object.entries(fields)) {
    if (field !== nameField && typeof value === 'string' && value.length > IMPORT_LIMITS.maxTextLength) {
      problems.add(record.at(field), `must be at most ${IMPORT_LIMITS.maxTextLength} characters`);
      ok = false;
    }
  }
  return ok ? fields : null;
}

const filled = <T>(fields: Record<string, unknown>, names: readonly string[], defaults: Record<string, unknown> = {}) =>
  Object.fromEntries(names.map((f) => [f, fields[f] ?? defaults[f] ?? null])) as T;

export function validateFile(file: ParsedFile, problems: Problems): ImportedCard | null {
  const products: (ImportedProduct | null)[] = [];
  const byName = new Map<string, { index: number; at: string }>();
  const byKey = new Map<string, { index: number; at: string }>();

  file.products.forEach((record, index) => {
    const fields = judge('products', record, 'product_name', problems);
    products.push(fields ? filled<ImportedProduct>(fields, CARD_RECORD_FIELDS.products) : null);
    if (record.key !== undefined) {
      const key = record.key;
      const keyAt = record.at('key');
      if (!(typeof key === 'string' && key.trim() !== '') && !(typeof key === 'number' && Number.isInteger(key)))
        problems.add(keyAt, 'must be a non-empty string or an integer');
      else {
        const bad = nameProblem(key);
        if (bad) problems.add(keyAt, bad);
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
    let product: number | null = null;
    const ref = record.product;
    if (ref !== null) {
      if (ref.by === 'key') {
        if (typeof ref.value !== 'string' && typeof ref.value !== 'number')
          problems.add(ref.at, "must be a product's key (a string or an integer)");
        else {
          const found = byKey.get(String(ref.value).trim());
          if (found) product = found.index;
          else problems.add(ref.at, `no product in the file has the key ${JSON.stringify(ref.value)}`);
        }
      } else if (typeof ref.value !== 'string' || ref.value.trim() === '') {
        problems.add(ref.at, 'must be the product_name of a product in the file');
      } else {
        const found = byName.get(nameKey(ref.value));
        if (found) product = found.index;
        else problems.add(ref.at, `no product in the file is named “${ref.value.trim().slice(0, 80)}”`);
      }
    }
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
