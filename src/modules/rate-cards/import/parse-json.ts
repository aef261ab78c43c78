/**
 * The JSON rate-card file (docs/rate-card-import.md): `{products: [...], rate_brackets: [...]}`. A product may carry a
 * file-local `key`; a bracket names its product by that `product` key or by `product_name`. Locations are JSON paths
 * (`rate_brackets[3].base_min`); a syntax error is reported at its line and column. Record fields are judged later
 * (validate.ts); here only the file's shape.
 */
import { CARD_RECORD_FIELDS, suggest } from '../../catalogue/index.ts';
import type { FileBracket, FileProduct, ParsedFile } from './file.ts';
import { IMPORT_LIMITS, lineAndColumn, type Problems } from './problems.ts';

const TOP_LEVEL = ['products', 'rate_brackets'] as const;
const PRODUCT_KEYS = ['key', ...CARD_RECORD_FIELDS.products];
const BRACKET_KEYS = ['product', 'product_name', ...CARD_RECORD_FIELDS.rate_brackets];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where JSON.parse stopped, from its message (Node 20: "at position N"; Node 22+: also "(line L column C)"). */
function syntaxLocation(content: string, message: string): string {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return `line ${lc[1]}, column ${lc[2]}`;
  const position = /position (\d+)/.exec(message);
  if (position) {
    const { line, column } = lineAndColumn(content, Number(position[1]));
    return `line ${line}, column ${column}`;
  }
  return 'file';
}

export function parseJsonFile(content: string, problems: Problems): ParsedFile | null {
  let json: unknown;
  try {
    json = JSON.parse(content.startsWith('\uFEFF') ? content.slice(1) : content);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const location = syntaxLocation(content.startsWith('\uFEFF') ? content.slice(1) : content, message);
    problems.add(location, 'is not valid JSON');
    return null;
  }
  if (!isObject(json)) {
    problems.add('file', 'must be a JSON object with the keys products and rate_brackets');
    return null;
  }
  for (const key of Object.keys(json)) {
    if (!(TOP_LEVEL as readonly string[]).includes(key))
      problems.add(key, `unknown top-level key${suggest(key, TOP_LEVEL)}; expected products and rate_brackets`);
  }
  const lists: Record<(typeof TOP_LEVEL)[number], unknown[]> = { products: [], rate_brackets: [] };
  for (const key of TOP_LEVEL) {
    const value = json[key];
    if (value === undefined) problems.add(key, 'is required (a list; empty removes every record)');
    else if (!Array.isArray(value)) problems.add(key, 'must be a list');
    else lists[key] = value;
  }
  if (lists.products.length > IMPORT_LIMITS.maxProducts)
    problems.add('products', `must hold at most ${IMPORT_LIMITS.maxProducts} products`);
  if (lists.rate_brackets.length > IMPORT_LIMITS.maxBrackets)
    problems.add('rate_brackets', `must hold at most ${IMPORT_LIMITS.maxBrackets.toLocaleString('en-AU')} brackets`);
  if (problems.any) return null;

  const records = (key: 'products' | 'rate_brackets', allowed: string[]) =>
    lists[key].flatMap((item, i) => {
      const path = `${key}[${i}]`;
      if (!isObject(item)) {
        problems.add(path, 'must be an object');
        return [];
      }
      for (const field of Object.keys(item)) {
        if (!allowed.includes(field)) problems.add(`${path}.${field}`, `unknown field${suggest(field, allowed)}`);
      }
      return [{ item, path }];
    });

  const products: FileProduct[] = records('products', PRODUCT_KEYS).map(({ item, path }) => {
    const { key, ...fields } = item;
    return { fields, key, at: (field: string) => `${path}.${field}` };
  });
  const brackets: FileBracket[] = records('rate_brackets', BRACKET_KEYS).map(({ item, path }) => {
    const { product, product_name, ...fields } = item;
    const at = (field: string) => `${path}.${field}`;
    let ref: FileBracket['product'] = null;
    if (product !== undefined && product_name !== undefined)
      problems.add(at('product'), 'give the product by its key or by product_name, not both');
    else if (product !== undefined) ref = { by: 'key', value: product, at: at('product') };
    else if (product_name !== undefined) ref = { by: 'name', value: product_name, at: at('product_name') };
    else problems.add(at('product'), "is required: the product's key, or its product_name");
    return { fields, product: ref, at };
  });
  return { products, brackets };
}
