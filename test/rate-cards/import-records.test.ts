/**
 * Rate-card import: the records' rules (docs/rate-card-import.md, "Problems"). Every message a file's records can
 * earn, at its location, in the order a financier reads them, and how many there were: the whole answer is pinned,
 * not a fragment of it. No database.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/lib/errors.ts';
import { readRateCardFile } from '../../src/modules/rate-cards/import/preview.ts';

/** The problems a refused file answers, in the answer's order. */
function refusal(format: 'csv' | 'json', content: string): { field: string; messages: string[] }[] {
  try {
    readRateCardFile(format, content);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).fieldErrors.map(({ field, messages }) => ({ field, messages }));
  }
  throw new Error('the file was accepted');
}

const json = (products: unknown[], rate_brackets: unknown[] = []) =>
  refusal('json', JSON.stringify({ products, rate_brackets }));
const bracket = (fields: Record<string, unknown>) => ({ product: 'a', base_min: 5, base_max: 6, ...fields });
const long = (n: number) => 'x'.repeat(n);

describe('a name is storable text of at most 200 characters, trimmed; its type is the catalogue rules’', () => {
  it('NUL, unpaired surrogate, too long, not text, empty, missing: one message each', () => {
    expect(
      json([
        { product_name: 'Beta\u0000' },
        { product_name: '\uD800x' },
        { product_name: `  ${long(200)}  ` },
        { product_name: long(201) },
        { product_name: 5 },
        { product_name: '   ' },
        { product_name: null },
        {},
      ]),
    ).toEqual([
      { field: 'products[0].product_name', messages: ['must not contain NUL characters'] },
      { field: 'products[1].product_name', messages: ['must not contain unpaired surrogate characters'] },
      { field: 'products[3].product_name', messages: ['must be at most 200 characters'] },
      { field: 'products[4].product_name', messages: ['must be a string'] },
      { field: 'products[5].product_name', messages: ['must not be empty'] },
      { field: 'products[6].product_name', messages: ['is required'] },
      { field: 'products[7].product_name', messages: ['is required'] },
    ]);
  });

  it('a bracket name follows the same rules', () => {
    expect(
      json(
        [{ key: 'a', product_name: 'Alpha' }],
        [bracket({ name: 'H\u0000' }), bracket({ name: long(201) }), bracket({ name: 3 }), bracket({ name: '' })],
      ),
    ).toEqual([
      { field: 'rate_brackets[0].name', messages: ['must not contain NUL characters'] },
      { field: 'rate_brackets[1].name', messages: ['must be at most 200 characters'] },
      { field: 'rate_brackets[2].name', messages: ['must be a string'] },
      { field: 'rate_brackets[3].name', messages: ['must not be empty'] },
    ]);
  });
});

describe('every other text cell is at most 200 characters, beside the catalogue rules for the field', () => {
  it('the name first, then the fields in the catalogue’s order, then over-long cells in the file’s order', () => {
    expect(
      json([
        {
          compounding_frequency: long(201),
          product_name: '',
          monthly_fee: -1,
          max_range: 5,
          min_range: 10,
          private_sale: 'maybe',
        },
      ]),
    ).toEqual([
      { field: 'products[0].product_name', messages: ['must not be empty'] },
      { field: 'products[0].max_range', messages: ['must be at least min_range (10)'] },
      { field: 'products[0].monthly_fee', messages: ['must be a number >= 0'] },
      {
        field: 'products[0].compounding_frequency',
        messages: ['must be one of w, m, q, y', 'must be at most 200 characters'],
      },
      { field: 'products[0].private_sale', messages: ['must be one of yes, no, both'] },
    ]);
  });

  it('an unknown field is reported by the file’s shape, and its over-long text by the cell rule', () => {
    expect(json([{ key: 'a', product_name: 'Alpha' }], [bracket({ name: 'L', note: long(300) })])).toEqual([
      {
        field: 'rate_brackets[0].note',
        messages: ['unknown field (did you mean "name"?)', 'must be at most 200 characters'],
      },
    ]);
  });

  it('a bracket’s fields: type, range, and an over-long cell', () => {
    expect(
      json(
        [{ key: 'a', product_name: 'Alpha' }],
        [bracket({ name: 'I', base_min: 200, type: 'q' }), bracket({ name: 'J', base_min: 7, max_lvr: long(300) })],
      ),
    ).toEqual([
      { field: 'rate_brackets[0].type', messages: ['must be one of commercial, consumer'] },
      { field: 'rate_brackets[0].base_min', messages: ['must be a number from 0 to 100'] },
      { field: 'rate_brackets[0].base_max', messages: ['must be at least base_min (200)'] },
      { field: 'rate_brackets[1].base_max', messages: ['must be at least base_min (7)'] },
      {
        field: 'rate_brackets[1].max_lvr',
        messages: ['must be a number >= 0', 'must be at most 200 characters'],
      },
    ]);
  });
});

describe('a product’s key is a non-empty string or an integer, storable, unique in the file', () => {
  it('every key problem, and duplicates named with the first’s location', () => {
    expect(
      json([
        { key: 'a', product_name: 'A' },
        { key: ' a ', product_name: 'B' },
        { key: '', product_name: 'C' },
        { key: 1.5, product_name: 'D' },
        { key: null, product_name: 'E' },
        { key: {}, product_name: 'F' },
        { key: 'k\u0000', product_name: 'G' },
        { key: 'k\u0000', product_name: 'H' },
        { key: `  ${long(201)}`, product_name: 'I' },
        { key: 7, product_name: 'J' },
        { key: '7', product_name: 'K' },
        { key: 1e20, product_name: 'L' },
      ]),
    ).toEqual([
      { field: 'products[1].key', messages: ['duplicate key " a " (first at products[0].key)'] },
      { field: 'products[2].key', messages: ['must be a non-empty string or an integer'] },
      { field: 'products[3].key', messages: ['must be a non-empty string or an integer'] },
      { field: 'products[4].key', messages: ['must be a non-empty string or an integer'] },
      { field: 'products[5].key', messages: ['must be a non-empty string or an integer'] },
      { field: 'products[6].key', messages: ['must not contain NUL characters'] },
      {
        field: 'products[7].key',
        messages: ['must not contain NUL characters', 'duplicate key "k\\u0000" (first at products[6].key)'],
      },
      { field: 'products[8].key', messages: ['must be at most 200 characters'] },
      { field: 'products[10].key', messages: ['duplicate key "7" (first at products[9].key)'] },
    ]);
  });
});

describe('product names are unique in the file, trimmed and case-insensitively', () => {
  it('a duplicate names the first, whatever else is wrong with either', () => {
    expect(
      json([
        { product_name: 'Alpha' },
        { product_name: ' alpha ' },
        { product_name: long(201), monthly_fee: -1 },
        { product_name: long(201).toUpperCase() },
      ]),
    ).toEqual([
      {
        field: 'products[1].product_name',
        messages: ['duplicate product name “alpha” (first at products[0].product_name)'],
      },
      { field: 'products[2].product_name', messages: ['must be at most 200 characters'] },
      { field: 'products[2].monthly_fee', messages: ['must be a number >= 0'] },
      {
        field: 'products[3].product_name',
        messages: [
          'must be at most 200 characters',
          `duplicate product name “${long(201).toUpperCase()}” (first at products[2].product_name)`,
        ],
      },
    ]);
  });
});

describe('a bracket names a product of the file, by its key or its product_name', () => {
  it('unknown keys and names, values of the wrong type', () => {
    expect(
      json(
        [
          { key: 'a', product_name: 'Alpha' },
          { key: 7, product_name: 'Seven' },
        ],
        [
          bracket({ product: 'zz', name: 'B' }),
          bracket({ product: true, name: 'C' }),
          bracket({ product: null, name: 'C2' }),
          bracket({ product: ' a ', name: 'D' }),
          bracket({ product: '7', name: 'E' }),
          bracket({ product: 8, name: 'F' }),
          { product_name: ' alpha ', name: 'G', base_min: 5, base_max: 6 },
          { product_name: '', name: 'H', base_min: 5, base_max: 6 },
          { product_name: 3, name: 'I', base_min: 5, base_max: 6 },
          { product_name: `  ${'Nope'.repeat(30)}`, name: 'J', base_min: 5, base_max: 6 },
          { product_name: 'Nope', name: '', base_min: 5, base_max: 6 },
        ],
      ),
    ).toEqual([
      { field: 'rate_brackets[0].product', messages: ['no product in the file has the key "zz"'] },
      { field: 'rate_brackets[1].product', messages: ["must be a product's key (a string or an integer)"] },
      { field: 'rate_brackets[2].product', messages: ["must be a product's key (a string or an integer)"] },
      { field: 'rate_brackets[5].product', messages: ['no product in the file has the key 8'] },
      { field: 'rate_brackets[7].product_name', messages: ['must be the product_name of a product in the file'] },
      { field: 'rate_brackets[8].product_name', messages: ['must be the product_name of a product in the file'] },
      {
        field: 'rate_brackets[9].product_name',
        messages: [`no product in the file is named “${'Nope'.repeat(20)}”`],
      },
      { field: 'rate_brackets[10].product_name', messages: ['no product in the file is named “Nope”'] },
      { field: 'rate_brackets[10].name', messages: ['must not be empty'] },
    ]);
  });
});

describe('bracket names are unique within their product, trimmed and case-insensitively', () => {
  it('a duplicate names its product and the first; a bracket that is wrong otherwise is not compared', () => {
    expect(
      json(
        [
          { key: 'a', product_name: ' Alpha ' },
          { key: 'b', product_name: 'Beta', monthly_fee: -1 },
        ],
        [
          bracket({ name: 'A1' }),
          bracket({ name: ' a1 ' }),
          { product_name: 'ALPHA', name: 'a1', base_min: 5, base_max: 6 },
          bracket({ product: 'b', name: 'A1' }),
          bracket({ product: 'b', name: 'a1 ' }),
          bracket({ name: 'Z', base_min: 'x' }),
          bracket({ name: 'z' }),
          bracket({ product: 'nope', name: 'Y' }),
          bracket({ name: 'y' }),
          bracket({ name: 'Y' }),
        ],
      ),
    ).toEqual([
      { field: 'products[1].monthly_fee', messages: ['must be a number >= 0'] },
      {
        field: 'rate_brackets[1].name',
        messages: ['duplicate bracket name “a1” in product “Alpha” (first at rate_brackets[0].name)'],
      },
      {
        field: 'rate_brackets[2].name',
        messages: ['duplicate bracket name “a1” in product “Alpha” (first at rate_brackets[0].name)'],
      },
      {
        field: 'rate_brackets[4].name',
        messages: ['duplicate bracket name “a1” in product “” (first at rate_brackets[3].name)'],
      },
      { field: 'rate_brackets[5].base_min', messages: ['must be a number from 0 to 100'] },
      { field: 'rate_brackets[7].product', messages: ['no product in the file has the key "nope"'] },
      {
        field: 'rate_brackets[9].name',
        messages: ['duplicate bracket name “Y” in product “Alpha” (first at rate_brackets[8].name)'],
      },
    ]);
  });
});

describe('CSV: the same rules, each problem at its line and column, in line order', () => {
  it('names, cells, duplicates and references by product_name', () => {
    const csv = [
      'product_name,name,base_min,base_max,monthly_fee,type',
      `Low Doc,A,5,6,,`,
      ` low doc ,a,5,6,,`,
      `Low Doc,${long(201)},5,6,,`,
      `Full Doc,B,5,6,-1,${long(201)}`,
      `,C,5,6,,`,
    ].join('\n');
    expect(refusal('csv', csv)).toEqual([
      {
        field: 'line 3, column name',
        messages: ['duplicate bracket name “a” in product “Low Doc” (first at line 2, column name)'],
      },
      { field: 'line 4, column name', messages: ['must be at most 200 characters'] },
      { field: 'line 5, column monthly_fee', messages: ['must be a number >= 0'] },
      {
        field: 'line 5, column type',
        messages: ['must be one of commercial, consumer', 'must be at most 200 characters'],
      },
      { field: 'line 6, column product_name', messages: ['is required'] },
    ]);
  });

  it(`more than 500 products: one problem for the file`, () => {
    const rows = Array.from({ length: 501 }, (_, i) => `P${i},B,5,6`);
    expect(refusal('csv', ['product_name,name,base_min,base_max', ...rows].join('\n'))).toEqual([
      { field: 'file', messages: ['must hold at most 500 products'] },
    ]);
  });
});

describe('problems are capped at 100 locations, and the answer says how many more there were', () => {
  it('every problem counts, listed or not', () => {
    const products = Array.from({ length: 60 }, (_, i) => ({ key: '', product_name: i % 2 ? '' : `P${i % 7}` }));
    const problems = json(products);
    expect(problems).toHaveLength(101);
    expect(problems.slice(0, 3)).toEqual([
      { field: 'products[0].key', messages: ['must be a non-empty string or an integer'] },
      { field: 'products[1].product_name', messages: ['must not be empty'] },
      { field: 'products[1].key', messages: ['must be a non-empty string or an integer'] },
    ]);
    expect(problems.at(-1)).toEqual({ field: 'file', messages: ['and 13 more problems not listed'] });
  });
});
