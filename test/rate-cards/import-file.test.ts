/** Rate-card import files (docs/rate-card-import.md): formats, every bad row located, limits. No database. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/lib/errors.ts';
import type { Product, RateBracket } from '../../src/modules/catalogue/model.ts';
import { IMPORT_LIMITS } from '../../src/modules/rate-cards/import/problems.ts';
import { previewImport, readRateCardFile } from '../../src/modules/rate-cards/import/preview.ts';
import { NO_CHANGES } from '../../src/modules/rate-cards/compare.ts';

const CORPUS = path.join(import.meta.dirname, 'import-corpus');
const read = (name: string) => readFileSync(path.join(CORPUS, name), 'utf8');
const formatOf = (name: string) => (name.endsWith('.csv') ? 'csv' : 'json') as 'csv' | 'json';
const EXPECTED: Record<string, { location: string; message: string }> = JSON.parse(read('expected.json'));

/** The problems a refused file answers, as {location: messages}. */
function refusal(format: 'csv' | 'json', content: string): Record<string, string[]> {
  try {
    readRateCardFile(format, content);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    expect(e.message).toBe('The file was refused; nothing was written.');
    return Object.fromEntries(e.fieldErrors.map((f) => [f.field, f.messages]));
  }
  throw new Error('the file was accepted');
}

describe('a malformed file is refused, each problem at its line and column (CSV) or JSON path', () => {
  const files = readdirSync(path.join(CORPUS, 'bad')).sort();

  it('the corpus holds at least 30 malformed files, each with its expected location', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of files) {
    it(`${file}: ${EXPECTED[file]?.location}`, () => {
      const { location, message } = EXPECTED[file];
      const problems = refusal(formatOf(file), read(`bad/${file}`));
      const at = Object.keys(problems).find((l) =>
        location.startsWith('re:') ? new RegExp(`^${location.slice(3)}$`).test(l) : l === location,
      );
      expect(at, `locations: ${JSON.stringify(problems)}`).toBeDefined();
      expect((problems[at as string] ?? []).join(' | ')).toContain(message);
    });
  }
});

describe('every bad row is reported, not only the first', () => {
  it('three bad rows give three locations', () => {
    const csv = [
      'product_name,name,base_min,base_max',
      'Low Doc,A,x,8',
      'Low Doc,B,8,200',
      'Low Doc,C,8,8',
      ',D,8,8',
    ].join('\n');
    expect(Object.keys(refusal('csv', csv))).toEqual([
      'line 2, column base_min',
      'line 3, column base_max',
      'line 5, column product_name',
    ]);
  });
  it('the list is capped, and says how many more there were', () => {
    const rows = Array.from({ length: 150 }, (_, i) => `Low Doc,B${i},x,8`);
    const problems = refusal('csv', ['product_name,name,base_min,base_max', ...rows].join('\n'));
    expect(Object.keys(problems)).toHaveLength(IMPORT_LIMITS.maxProblems + 1);
    expect(problems.file.join(' ')).toMatch(/^and \d+ more problems not listed$/);
  });
});

describe('limits: size, rows, products', () => {
  it('refuses a file over 1 MB before reading it', () => {
    const big = `product_name,name,base_min,base_max\n${'x'.repeat(IMPORT_LIMITS.maxBytes)}`;
    expect(refusal('csv', big)).toEqual({ file: ['must be at most 1,048,576 bytes'] });
  });
  it('counts bytes, not characters', () => {
    const euro = '€'.repeat(IMPORT_LIMITS.maxBytes / 3 + 1); // 3 bytes each
    expect(Object.keys(refusal('json', `"${euro}"`))).toEqual(['file']);
  });
  it(`refuses more than ${IMPORT_LIMITS.maxBrackets} rows`, () => {
    const rows = Array.from({ length: IMPORT_LIMITS.maxBrackets + 1 }, (_, i) => `P,B${i},8,8`);
    expect(refusal('csv', ['product_name,name,base_min,base_max', ...rows].join('\n'))).toEqual({
      file: ['must have at most 5,000 rows below the header'],
    });
  });
  it(`refuses more than ${IMPORT_LIMITS.maxProducts} products`, () => {
    const products = Array.from({ length: IMPORT_LIMITS.maxProducts + 1 }, (_, i) => ({ product_name: `P${i}` }));
    expect(refusal('json', JSON.stringify({ products, rate_brackets: [] }))).toEqual({
      products: ['must hold at most 500 products'],
    });
  });
  it('refuses more columns than any card has', () => {
    const header = Array.from({ length: IMPORT_LIMITS.maxColumns + 1 }, (_, i) => `c${i}`).join(',');
    expect(refusal('csv', `${header}\n`)).toEqual({ 'line 1': ['must have at most 64 columns'] });
  });
  it('refuses a NUL or an unpaired surrogate anywhere in the text, with its line', () => {
    expect(refusal('csv', 'product_name,name,base_min,base_max\nA,B\u0000,8,8')).toEqual({
      'line 2': ['character 4 is a NUL character, which cannot be stored'],
    });
    expect(Object.keys(refusal('json', '{"products": [],\n"rate_brackets": ["\uD800"]}'))).toEqual(['line 2']);
  });
});

/** The card a file describes, ids aside, ordered by name: what two formats must agree on. */
function cardOf(format: 'csv' | 'json', content: string) {
  const { card } = previewImport({ products: [], rate_brackets: [] }, 7, format, content);
  const productName = new Map(card.products.map((p) => [p.id, p.product_name]));
  const strip = <T extends { id: number }>(r: T) => {
    const { id, ...rest } = r;
    return rest;
  };
  return {
    products: card.products.map(strip).sort((a, b) => a.product_name.localeCompare(b.product_name)),
    rate_brackets: card.rate_brackets
      .map((b: RateBracket) => ({ ...strip(b), product_id: productName.get(b.product_id) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

describe('well-formed files: CSV and JSON describe identical cards', () => {
  const csv = cardOf('csv', read('good/card.csv'));

  it('CSV with a BOM, CRLF, a blank line and quoted cells reads as the card', () => {
    expect(csv.products.map((p) => p.product_name)).toEqual(['Full Doc "Premium", Trucks', 'Low Doc', 'Spare']);
    const low = csv.products.find((p) => p.product_name === 'Low Doc') as Omit<Product, 'id'>;
    expect(low).toMatchObject({
      organisation_id: 7,
      monthly_fee: 5,
      documentation_fee: 495,
      min_range: 12,
      max_range: 60,
      min_amount: null,
      max_amount: 250000,
      compounding_frequency: 'm',
      home_owner: null,
    });
    expect(csv.rate_brackets).toEqual([
      {
        name: 'Standard',
        organisation_id: 7,
        product_id: 'Full Doc "Premium", Trucks',
        type: 'commercial',
        min_term: null,
        max_term: null,
        min_amount: null,
        max_amount: null,
        min_asset_age: null,
        max_asset_age: null,
        base_min: 7.5,
        base_max: 8.5,
        max_lvr: null,
      },
      expect.objectContaining({ name: 'Tier A 12–36 months', product_id: 'Low Doc', base_min: 8.45, max_lvr: null }),
      expect.objectContaining({ name: 'Tier B 37–60 months', min_term: 37, max_amount: 150000, max_lvr: 90 }),
    ]);
  });
  it('the JSON file gives the identical card', () => {
    expect(cardOf('json', read('good/card.json'))).toEqual(csv);
  });
  it('columns in any order, every cell quoted, LF line ends: the identical card', () => {
    expect(cardOf('csv', read('good/card-reordered.csv'))).toEqual(csv);
  });
  it('header names are case-insensitive and cells are trimmed', () => {
    const a = cardOf('csv', 'Product_Name , NAME,base_min,base_max\n  Low Doc ,  A ,  8.45 ,9\n');
    const b = cardOf(
      'json',
      JSON.stringify({
        products: [{ product_name: 'Low Doc' }],
        rate_brackets: [{ product_name: 'Low Doc', name: 'A', base_min: 8.45, base_max: 9 }],
      }),
    );
    expect(a).toEqual(b);
  });
});

describe('text that starts like a spreadsheet formula is a name like any other (docs/api-decisions.md)', () => {
  it('=, +, - and @ at the start of a product name, a bracket name or a JSON key are kept as sent', () => {
    const csv = cardOf(
      'csv',
      [
        'product_name,name,base_min,base_max',
        '-Cash Flow,+ balloon 20%,8,8',
        '-Cash Flow,@ 5% floor,8,8',
        '"=HYPERLINK(""http://x.test"")",-2+3,8,8',
      ].join('\n'),
    );
    expect(csv.products.map((p) => p.product_name)).toEqual(['-Cash Flow', '=HYPERLINK("http://x.test")']);
    expect(csv.rate_brackets.map((b) => b.name).sort()).toEqual(['+ balloon 20%', '-2+3', '@ 5% floor']);
    const json = cardOf(
      'json',
      JSON.stringify({
        products: [{ key: '=1+1', product_name: '+61 Finance' }],
        rate_brackets: [{ product: '=1+1', name: '@SUM(A1:A9)', base_min: 8, base_max: 8 }],
      }),
    );
    expect(json.products.map((p) => p.product_name)).toEqual(['+61 Finance']);
    expect(json.rate_brackets).toEqual([expect.objectContaining({ name: '@SUM(A1:A9)', product_id: '+61 Finance' })]);
  });
});

describe('matching: rows match today’s records by name, so an unchanged file changes nothing', () => {
  const today = () => previewImport({ products: [], rate_brackets: [] }, 7, 'csv', read('good/card.csv')).card;
  const realIds = () => {
    const card = today();
    const pid = new Map(card.products.map((p, i) => [p.id, 100 + i]));
    return {
      products: card.products.map((p) => ({ ...p, id: pid.get(p.id) as number })),
      rate_brackets: card.rate_brackets.map((b, i) => ({
        ...b,
        id: 200 + i,
        product_id: pid.get(b.product_id) as number,
      })),
    };
  };

  it('the same file over the card it made: no changes, and every record keeps its id', () => {
    const current = realIds();
    for (const [format, file] of [
      ['csv', 'good/card.csv'],
      ['json', 'good/card.json'],
    ] as const) {
      const { card, comparison } = previewImport(current, 7, format, read(file));
      expect(comparison.summary_lines).toEqual([NO_CHANGES]);
      expect(card.products.map((p) => p.id).sort()).toEqual(current.products.map((p) => p.id).sort());
      expect(card.rate_brackets.map((b) => b.id).sort()).toEqual(current.rate_brackets.map((b) => b.id).sort());
    }
  });
  it('one changed cell gives one sentence', () => {
    const changed = read('good/card.csv').replace('9.10,9.10,90', '9.25,9.25,90');
    expect(previewImport(realIds(), 7, 'csv', changed).comparison.summary_lines).toEqual([
      'Raises base rate of “Tier B 37–60 months” in “Low Doc” from 9.10% to 9.25%.',
    ]);
  });
  it('a row left out is removed, a new row added with a provisional id', () => {
    const content = read('good/card.json').replace('"Standard"', '"Standard 2027"');
    const { card, comparison } = previewImport(realIds(), 7, 'json', content);
    expect(comparison.summary_lines).toEqual([
      'Removes bracket “Standard” from “Full Doc "Premium", Trucks”.',
      'Adds bracket “Standard 2027” to “Full Doc "Premium", Trucks”: term any, amount any, base rate 7.50%–8.50%.',
    ]);
    expect(card.rate_brackets.find((b) => b.name === 'Standard 2027')?.id).toBe(-1);
  });
  it('the whole card is the file: a product the file leaves out is removed', () => {
    const content = JSON.stringify({ products: [{ product_name: 'Spare' }], rate_brackets: [] });
    expect(previewImport(realIds(), 7, 'json', content).comparison.summary_lines).toEqual([
      'Removes product “Full Doc "Premium", Trucks” and its 1 bracket.',
      'Removes product “Low Doc” and its 2 brackets.',
    ]);
  });
  it('a name matched case-insensitively renames to the file’s spelling', () => {
    const content = read('good/card.csv').replaceAll('Spare,', 'SPARE,');
    expect(previewImport(realIds(), 7, 'csv', content).comparison.summary_lines).toEqual([
      'Renames product “Spare” to “SPARE”.',
    ]);
  });
});
