/**
 * The CSV rate-card file (docs/rate-card-import.md): a header row, then one row per rate bracket with its product's
 * columns repeated on every row of that product. A row with a product and no bracket cells declares a product with
 * no brackets. UTF-8 (a byte-order mark is dropped), quoted cells per RFC 4180, LF or CRLF line ends; parsed by
 * csv-parse, never by splitting on commas. Locations are `line N, column NAME` (lines of the file, from 1, so a
 * quoted cell spanning lines counts them all).
 */
import { parse } from 'csv-parse/sync';
import { CARD_RECORD_FIELDS, NUMERIC_FIELDS, suggest } from '../../catalogue/index.ts';
import type { FileBracket, FileProduct, ParsedFile } from './file.ts';
import { IMPORT_LIMITS, type Problems } from './problems.ts';

/** Product fields a bracket also has take a `product_` prefix as columns; every other column is the field's name. */
const SHARED_WITH_BRACKETS = new Set(CARD_RECORD_FIELDS.rate_brackets);
const PRODUCT_COLUMNS: ReadonlyMap<string, string> = new Map(
  CARD_RECORD_FIELDS.products.map((f) => [SHARED_WITH_BRACKETS.has(f) ? `product_${f}` : f, f]),
);
const BRACKET_COLUMNS: ReadonlyMap<string, string> = new Map(CARD_RECORD_FIELDS.rate_brackets.map((f) => [f, f]));
const ALL_COLUMNS = [...PRODUCT_COLUMNS.keys(), ...BRACKET_COLUMNS.keys()];
const REQUIRED_COLUMNS = ['product_name', 'name', 'base_min', 'base_max'];

const DECIMAL = /^-?(\d+(\.\d+)?|\.\d+)$/;

/** A cell as a field value: blank = absent; a plain decimal in a numeric field = that number; else the text. */
function cellValue(field: string, cell: string): unknown {
  if (cell === '') return undefined;
  if (NUMERIC_FIELDS.has(field) && DECIMAL.test(cell)) return Number(cell);
  return cell;
}

const CSV_MESSAGES: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed (a " is missing)',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote must be followed by a comma or the end of the line',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'a closing quote must be followed by a comma or the end of the line',
  CSV_INVALID_OPENING_QUOTE: 'a quote inside an unquoted cell: quote the whole cell and double the quote ("")',
  CSV_MAX_RECORD_SIZE: 'a row is too long',
};

interface Row {
  cells: string[];
  line: number;
}

function readRows(content: string, problems: Problems): Row[] | null {
  let records: { record: string[]; info: { bytes: number } }[];
  try {
    records = parse(content, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 64 * 1024,
    }) as unknown as { record: string[]; info: { bytes: number } }[];
  } catch (error) {
    const e = error as { code?: string; lines?: number; message?: string };
    problems.add(
      typeof e.lines === 'number' ? `line ${e.lines}` : 'file',
      (e.code && CSV_MESSAGES[e.code.replace(/^(CSV_)?/, 'CSV_')]) ?? 'is not valid CSV',
    );
    return null;
  }
  // A record's first line: count line feeds up to where the previous record ended (csv-parse counts UTF-8 bytes),
  // skipping the blank lines it skipped.
  const bytes = Buffer.from(content, 'utf8');
  let offset = 0;
  let line = 1;
  const rows: Row[] = [];
  for (const { record, info } of records) {
    while (offset < bytes.length && (bytes[offset] === 10 || bytes[offset] === 13)) {
      if (bytes[offset] === 10) line++;
      offset++;
    }
    rows.push({ cells: record, line });
    for (; offset < info.bytes && offset < bytes.length; offset++) if (bytes[offset] === 10) line++;
  }
  return rows;
}

export function parseCsvFile(content: string, problems: Problems): ParsedFile | null {
  const rows = readRows(content, problems);
  if (rows === null) return null;
  if (rows.length === 0) {
    problems.add('file', 'is empty: a header row is required');
    return null;
  }
  if (rows.length - 1 > IMPORT_LIMITS.maxBrackets) {
    problems.add(
      'file',
      `must have at most ${IMPORT_LIMITS.maxBrackets.toLocaleString('en-AU')} rows below the header`,
    );
    return null;
  }
  const [head, ...body] = rows;
  if (head.cells.length > IMPORT_LIMITS.maxColumns) {
    problems.add(`line ${head.line}`, `must have at most ${IMPORT_LIMITS.maxColumns} columns`);
    return null;
  }
  const header = head.cells.map((c) => c.trim().toLowerCase());
  const seen = new Set<string>();
  header.forEach((name, i) => {
    if (name === '') problems.add(`line ${head.line}, column ${i + 1}`, 'the header cell is empty');
    else if (!ALL_COLUMNS.includes(name))
      problems.add(`line ${head.line}, column ${name.slice(0, 64)}`, `unknown column${suggest(name, ALL_COLUMNS)}`);
    else if (seen.has(name)) problems.add(`line ${head.line}, column ${name}`, 'appears twice');
    seen.add(name);
  });
  for (const required of REQUIRED_COLUMNS) {
    if (!seen.has(required)) problems.add(`line ${head.line}`, `the column ${required} is required`);
  }
  if (problems.any) return null;

  const productColumns = header.flatMap((name, i) => (PRODUCT_COLUMNS.has(name) ? [{ name, i }] : []));
  const bracketColumns = header.flatMap((name, i) => (BRACKET_COLUMNS.has(name) ? [{ name, i }] : []));
  const productNameAt = header.indexOf('product_name');
  const products: FileProduct[] = [];
  const firstRowOf = new Map<string, { row: Row; cells: string[] }>();
  const brackets: FileBracket[] = [];

  for (const row of body) {
    const cells = row.cells.map((c) => c.trim());
    if (cells.every((c) => c === '')) continue;
    const at = (column: string) => `line ${row.line}, column ${column}`;
    if (cells.length !== header.length) {
      problems.add(`line ${row.line}`, `has ${cells.length} cells; the header has ${header.length}`);
      continue;
    }
    const productName = cells[productNameAt];
    if (productName === '') {
      problems.add(at('product_name'), 'is required');
      continue;
    }
    const key = productName.toLowerCase();
    const first = firstRowOf.get(key);
    if (first === undefined) {
      firstRowOf.set(key, { row, cells });
      const fields: Record<string, unknown> = {};
      for (const { name, i } of productColumns) {
        const field = PRODUCT_COLUMNS.get(name) as string;
        const value = cellValue(field, cells[i]);
        if (value !== undefined) fields[field] = value;
      }
      const columnOf = new Map([...PRODUCT_COLUMNS].map(([column, field]) => [field, column]));
      products.push({ fields, at: (field) => at(columnOf.get(field) ?? field) });
    } else {
      // One value per product: every row of a product repeats its product columns exactly.
      for (const { name, i } of productColumns) {
        if (name === 'product_name' || cells[i] === first.cells[i]) continue;
        problems.add(
          at(name),
          `differs from line ${first.row.line} (${JSON.stringify(first.cells[i].slice(0, 40))}): repeat the product's values on every row of “${first.cells[productNameAt].slice(0, 80)}”`,
        );
      }
    }
    if (bracketColumns.every(({ i }) => cells[i] === '')) continue; // a product without brackets
    const fields: Record<string, unknown> = {};
    for (const { name, i } of bracketColumns) {
      const value = cellValue(name, cells[i]);
      if (value !== undefined) fields[name] = value;
    }
    brackets.push({ fields, product: { by: 'name', value: productName, at: at('product_name') }, at });
  }
  return { products, brackets };
}
