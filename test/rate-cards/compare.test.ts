import { describe, expect, it } from 'vitest';
import type { Product, RateBracket } from '../../src/modules/catalogue/model.ts';
import type { RateCard } from '../../src/modules/rate-cards/card.ts';
import {
  compareAssetMappings,
  compareRateCards,
  money,
  NO_CHANGES,
  percent,
  range,
  SHADOW_CHECK_LIMIT,
} from '../../src/modules/rate-cards/compare.ts';
import { makeBracket, makeProduct } from '../pricing/fixtures.ts';

const ORG = 7;
// The engines' record builders (test/pricing/fixtures.ts), with this file's organisation and default rate.
const product = (id: number, product_name: string, fields: Partial<Product> = {}): Product =>
  makeProduct({ id, product_name, organisation_id: ORG, ...fields });
const bracket = (id: number, product_id: number, name: string, fields: Partial<RateBracket> = {}): RateBracket =>
  makeBracket({ id, product_id, name, organisation_id: ORG, base_min: 8.45, base_max: 8.45, ...fields });
const card = (products: Product[], rate_brackets: RateBracket[]): RateCard => ({ products, rate_brackets });

/** A small card: "Low Doc" with two term tiers, "Full Doc" with one. */
function base(): RateCard {
  return card(
    [product(1, 'Low Doc', { min_range: 12, max_range: 60 }), product(2, 'Full Doc')],
    [
      bracket(10, 1, 'Tier A 12–36 months', { min_term: 12, max_term: 36, base_min: 8.45, base_max: 8.45 }),
      bracket(11, 1, 'Tier B 37–60 months', { min_term: 37, max_term: 60, base_min: 9.1, base_max: 9.1 }),
      bracket(20, 2, 'Standard', { base_min: 7.5, base_max: 8.5 }),
    ],
  );
}

describe('figures: money to the cent, rates to two decimals, ranges as a financier says them', () => {
  it('formats money with thousands separators and cents', () => {
    expect(money(0)).toBe('$0.00');
    expect(money(1234.5)).toBe('$1,234.50');
    expect(money(1_000_000)).toBe('$1,000,000.00');
    expect(money(0.005)).toBe('$0.01');
    expect(money(2.675)).toBe('$2.68');
  });
  it('formats rates to two decimals', () => {
    expect(percent(8.45)).toBe('8.45%');
    expect(percent(9.1)).toBe('9.10%');
    expect(percent(12.345)).toBe('12.35%');
  });
  it('formats open and closed ranges', () => {
    expect(range(null, null, 'months')).toBe('any');
    expect(range(12, 36, 'months')).toBe('12–36 months');
    expect(range(null, 36, 'months')).toBe('up to 36 months');
    expect(range(24, null, 'months')).toBe('24 months or more');
    expect(range(1, 1, 'months')).toBe('1 month');
    expect(range(5000, 100000, 'money')).toBe('$5,000.00–$100,000.00');
  });
});

describe('compareRateCards: identical cards change nothing', () => {
  it('answers one "No changes." line, no warnings, zero counts', () => {
    const r = compareRateCards(base(), base());
    expect(r.summary_lines).toEqual([NO_CHANGES]);
    expect(r.warnings).toEqual([]);
    expect(r.parts).toEqual({
      products: { added: 0, changed: 0, removed: 0, unchanged: 2 },
      rate_brackets: { added: 0, changed: 0, removed: 0, unchanged: 3 },
    });
    expect(r.subtrees).toEqual({});
  });
  it('cards with other ids but the same names are the same card (records match by name)', () => {
    const after = base();
    after.products = after.products.map((p) => ({ ...p, id: p.id + 100 }));
    after.rate_brackets = after.rate_brackets.map((b) => ({ ...b, id: b.id + 100, product_id: b.product_id + 100 }));
    expect(compareRateCards(base(), after).summary_lines).toEqual([NO_CHANGES]);
  });
  it('names match trimmed and case-insensitively', () => {
    const after = base();
    after.products[0] = { ...after.products[0], id: 99, product_name: 'low doc' };
    after.rate_brackets = after.rate_brackets.map((b) =>
      b.product_id === 1 ? { ...b, product_id: 99, id: b.id + 50 } : b,
    );
    const r = compareRateCards(base(), after);
    expect(r.parts).toMatchObject({ products: { added: 0, removed: 0 }, rate_brackets: { added: 0, removed: 0 } });
  });
  it('input order does not matter', () => {
    const after = base();
    after.products.reverse();
    after.rate_brackets.reverse();
    expect(compareRateCards(base(), after).summary_lines).toEqual([NO_CHANGES]);
  });
});

describe('compareRateCards: products added and removed', () => {
  it('adds a product with its brackets in one line; the subtree lists each bracket with its figures', () => {
    const after = base();
    after.products.push(product(-1, 'Low Doc Plus'));
    after.rate_brackets.push(
      bracket(-1, -1, 'Plus A', { max_term: 36, base_min: 9, base_max: 9 }),
      bracket(-2, -1, 'Plus B', { min_term: 37, max_term: 48, base_min: 9.5, base_max: 9.5 }),
      bracket(-3, -1, 'Plus C', { min_term: 49, base_min: 10, base_max: 10 }),
    );
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual(['Adds product “Low Doc Plus” with 3 brackets.']);
    expect(r.parts).toEqual({
      products: { added: 1, changed: 0, removed: 0, unchanged: 2 },
      rate_brackets: { added: 3, changed: 0, removed: 0, unchanged: 3 },
    });
    expect(r.subtrees['Low Doc Plus']).toEqual({
      status: 'added',
      product_id: -1,
      changes: [
        'Adds product “Low Doc Plus” with 3 brackets.',
        'Adds bracket “Plus A”: term up to 36 months, amount any, base rate 9.00%.',
        'Adds bracket “Plus B”: term 37–48 months, amount any, base rate 9.50%.',
        'Adds bracket “Plus C”: term 49 months or more, amount any, base rate 10.00%.',
      ],
      rate_brackets: { added: ['Plus A', 'Plus B', 'Plus C'], changed: [], removed: [] },
    });
  });
  it('singular bracket, and a product with none is added with a warning', () => {
    const after = base();
    after.products.push(product(-1, 'Alpha'), product(-2, 'Beta'));
    after.rate_brackets.push(bracket(-1, -1, 'Only'));
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual(['Adds product “Alpha” with 1 bracket.', 'Adds product “Beta” with no brackets.']);
    expect(r.warnings).toContain('Product “Beta” has no brackets, so it prices no deal.');
  });
  it('removes a product and its brackets in one line', () => {
    const after = base();
    after.products = after.products.filter((p) => p.id !== 1);
    after.rate_brackets = after.rate_brackets.filter((b) => b.product_id !== 1);
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual(['Removes product “Low Doc” and its 2 brackets.']);
    expect(r.parts).toMatchObject({ products: { removed: 1 }, rate_brackets: { removed: 2 } });
    expect(r.subtrees['Low Doc']).toMatchObject({
      status: 'removed',
      rate_brackets: { removed: ['Tier A 12–36 months', 'Tier B 37–60 months'] },
    });
  });
  it('everything removed: one line per product, in name order', () => {
    const r = compareRateCards(base(), card([], []));
    expect(r.summary_lines).toEqual([
      'Removes product “Full Doc” and its 1 bracket.',
      'Removes product “Low Doc” and its 2 brackets.',
    ]);
  });
  it('from an empty card: every product is added', () => {
    const r = compareRateCards(card([], []), base());
    expect(r.summary_lines).toEqual([
      'Adds product “Full Doc” with 1 bracket.',
      'Adds product “Low Doc” with 2 brackets.',
    ]);
  });
});

describe('compareRateCards: product fields', () => {
  it('renames a product matched by id', () => {
    const after = base();
    after.products[1] = { ...after.products[1], product_name: 'Full Doc 2027' };
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual(['Renames product “Full Doc” to “Full Doc 2027”.']);
    expect(r.parts).toMatchObject({ products: { changed: 1, added: 0, removed: 0 } });
  });
  it('describes fees raised, lowered, set and removed to the cent', () => {
    const before = base();
    before.products[0] = {
      ...before.products[0],
      monthly_fee: 5,
      documentation_fee: 495,
      maximum_brokerage_limit: 3000,
    };
    const after = base();
    after.products[0] = {
      ...after.products[0],
      monthly_fee: 7.5,
      documentation_fee: 395.5,
      brokerage_cap: 6,
      maximum_brokerage_limit: null,
    };
    const r = compareRateCards(before, after);
    expect(r.summary_lines).toEqual([
      'Raises monthly fee of “Low Doc” from $5.00 to $7.50.',
      'Lowers documentation fee of “Low Doc” from $495.00 to $395.50.',
      'Sets brokerage cap of “Low Doc” to 6.00%.',
      'Removes maximum brokerage of “Low Doc” (was $3,000.00).',
    ]);
  });
  it('describes ranges, compounding, brokerage treatment and tri-state flags', () => {
    const after = base();
    after.products[0] = {
      ...after.products[0],
      max_range: 84,
      min_credit_score: 500,
      compounding_frequency: 'q',
      brokerage_loading_treatment: 0.4,
      home_owner: 'yes',
    };
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual([
      'Changes term of “Low Doc” from 12–60 months to 12–84 months.',
      'Changes credit score of “Low Doc” from any to 500 or more.',
      'Changes compounding of “Low Doc” from monthly to quarterly.',
      'Changes brokerage treatment of “Low Doc” from funded into the loan to rate-loaded at 0.40 per 1% brokerage.',
      'Changes home owner of “Low Doc” from either to yes.',
    ]);
  });
  it('null and 0 brokerage treatment are the same (both funded)', () => {
    const after = base();
    after.products[0] = { ...after.products[0], brokerage_loading_treatment: 0 };
    expect(compareRateCards(base(), after).summary_lines).toEqual([NO_CHANGES]);
  });
  it('floating-point noise is not a change', () => {
    const before = base();
    before.rate_brackets[0] = { ...before.rate_brackets[0], base_min: 0.1 + 0.2, base_max: 0.1 + 0.2 };
    const after = base();
    after.rate_brackets[0] = { ...after.rate_brackets[0], base_min: 0.3, base_max: 0.3 };
    expect(compareRateCards(before, after).summary_lines).toEqual([NO_CHANGES]);
  });
});

describe('compareRateCards: bracket changes', () => {
  it('raises a single base rate', () => {
    const after = base();
    after.rate_brackets[0] = { ...after.rate_brackets[0], base_min: 9.1, base_max: 9.1 };
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual(['Raises base rate of “Tier A 12–36 months” in “Low Doc” from 8.45% to 9.10%.']);
    expect(r.parts).toMatchObject({
      rate_brackets: { changed: 1, unchanged: 2 },
      products: { changed: 0, unchanged: 2 },
    });
    expect(r.subtrees['Low Doc']).toMatchObject({
      status: 'changed',
      rate_brackets: { changed: ['Tier A 12–36 months'] },
    });
  });
  it('lowers a band, and a band moving both ways is a change', () => {
    const after = base();
    after.rate_brackets[2] = { ...after.rate_brackets[2], base_min: 7.25, base_max: 8.25 };
    expect(compareRateCards(base(), after).summary_lines).toEqual([
      'Lowers base rate of “Standard” in “Full Doc” from 7.50%–8.50% to 7.25%–8.25%.',
    ]);
    after.rate_brackets[2] = { ...after.rate_brackets[2], base_min: 7.25, base_max: 8.75 };
    expect(compareRateCards(base(), after).summary_lines).toEqual([
      'Changes base rate of “Standard” in “Full Doc” from 7.50%–8.50% to 7.25%–8.75%.',
    ]);
  });
  it('describes term, amount, asset age, LVR and type changes', () => {
    const after = base();
    after.rate_brackets[2] = {
      ...after.rate_brackets[2],
      min_term: 12,
      max_amount: 250000,
      max_asset_age: 120,
      max_lvr: 80,
      type: 'consumer',
    };
    expect(compareRateCards(base(), after).summary_lines).toEqual([
      'Changes “Standard” in “Full Doc” from a commercial to a consumer card.',
      'Changes term of “Standard” in “Full Doc” from any to 12 months or more.',
      'Changes amount of “Standard” in “Full Doc” from any to up to $250,000.00.',
      'Changes asset age of “Standard” in “Full Doc” from any to up to 120 months.',
      'Changes maximum LVR of “Standard” in “Full Doc” from no limit to 80.00%.',
    ]);
  });
  it('adds and removes brackets of an existing product, in name order', () => {
    const after = base();
    after.rate_brackets = after.rate_brackets.filter((b) => b.id !== 11);
    after.rate_brackets.push(
      bracket(-1, 1, 'Tier C 37–60 months', {
        min_term: 37,
        max_term: 60,
        base_min: 9.25,
        base_max: 9.75,
        max_lvr: 90,
      }),
    );
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual([
      'Removes bracket “Tier B 37–60 months” from “Low Doc”.',
      'Adds bracket “Tier C 37–60 months” to “Low Doc”: term 37–60 months, amount any, LVR up to 90.00%, base rate 9.25%–9.75%.',
    ]);
    expect(r.parts).toMatchObject({ rate_brackets: { added: 1, removed: 1, changed: 0, unchanged: 2 } });
  });
  it('renames a bracket matched by id', () => {
    const after = base();
    after.rate_brackets[2] = { ...after.rate_brackets[2], name: 'Standard 2027' };
    expect(compareRateCards(base(), after).summary_lines).toEqual([
      'Renames bracket “Standard” in “Full Doc” to “Standard 2027”.',
    ]);
  });
  it('moves a bracket to another product (matched by id)', () => {
    const after = base();
    after.rate_brackets[2] = { ...after.rate_brackets[2], product_id: 1 };
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toContain('Moves bracket “Standard” from “Full Doc” to “Low Doc”.');
  });
  it('brackets of the same name under different products are different brackets', () => {
    const before = card(
      [product(1, 'A'), product(2, 'B')],
      [bracket(1, 1, 'Std'), bracket(2, 2, 'Std', { base_min: 9, base_max: 9 })],
    );
    const after = card(
      [product(1, 'A'), product(2, 'B')],
      [bracket(5, 1, 'Std'), bracket(6, 2, 'Std', { base_min: 9.5, base_max: 9.5 })],
    );
    expect(compareRateCards(before, after).summary_lines).toEqual([
      'Raises base rate of “Std” in “B” from 9.00% to 9.50%.',
    ]);
  });
  it('products come in name order, product lines before their brackets', () => {
    const after = base();
    after.products[0] = { ...after.products[0], monthly_fee: 10 };
    after.rate_brackets[0] = { ...after.rate_brackets[0], base_min: 8.5, base_max: 8.5 };
    after.rate_brackets[2] = { ...after.rate_brackets[2], base_min: 7.6, base_max: 8.6 };
    expect(compareRateCards(base(), after).summary_lines).toEqual([
      'Raises base rate of “Standard” in “Full Doc” from 7.50%–8.50% to 7.60%–8.60%.',
      'Sets monthly fee of “Low Doc” to $10.00.',
      'Raises base rate of “Tier A 12–36 months” in “Low Doc” from 8.45% to 8.50%.',
    ]);
  });
});

describe('compareRateCards: warnings for brackets that become unreachable', () => {
  it('a bracket whose minimum term is above its maximum', () => {
    const after = base();
    after.rate_brackets[0] = { ...after.rate_brackets[0], min_term: 48, max_term: 36 };
    expect(compareRateCards(base(), after).warnings).toEqual([
      '“Tier A 12–36 months” in “Low Doc” can never price a deal: its minimum term (48 months) is above its maximum (36 months).',
    ]);
  });
  it('a bracket whose amount range is above its maximum', () => {
    const after = base();
    after.rate_brackets[2] = { ...after.rate_brackets[2], min_amount: 50000, max_amount: 20000 };
    expect(compareRateCards(base(), after).warnings[0]).toBe(
      '“Standard” in “Full Doc” can never price a deal: its minimum amount ($50,000.00) is above its maximum ($20,000.00).',
    );
  });
  it('a base rate band upside down', () => {
    const after = base();
    after.rate_brackets[2] = { ...after.rate_brackets[2], base_min: 9, base_max: 8 };
    expect(compareRateCards(base(), after).warnings).toContain(
      '“Standard” in “Full Doc” has its minimum base rate (9.00%) above its maximum (8.00%).',
    );
  });
  it('a term range the product does not allow', () => {
    const after = base();
    after.rate_brackets[1] = { ...after.rate_brackets[1], min_term: 61, max_term: 84 };
    expect(compareRateCards(base(), after).warnings).toEqual([
      "“Tier B 37–60 months” in “Low Doc” can never price a deal: its term (61–84 months) is outside the product's (12–60 months).",
    ]);
  });
  it('a product whose term range shrinks away from its brackets', () => {
    const after = base();
    after.products[0] = { ...after.products[0], max_range: 36 };
    expect(compareRateCards(base(), after).warnings).toEqual([
      "“Tier B 37–60 months” in “Low Doc” can never price a deal: its term (37–60 months) is outside the product's (12–36 months).",
    ]);
  });
  it('an amount range the product does not allow', () => {
    const before = base();
    before.products[1] = { ...before.products[1], max_amount: 100000 };
    const after = structuredClone(before);
    after.rate_brackets[2] = { ...after.rate_brackets[2], min_amount: 150000 };
    expect(compareRateCards(before, after).warnings).toEqual([
      "“Standard” in “Full Doc” can never price a deal: its amount ($150,000.00 or more) is outside the product's (up to $100,000.00).",
    ]);
  });
  it('a product whose own range is upside down', () => {
    const after = base();
    after.products[0] = { ...after.products[0], min_range: 72 };
    expect(compareRateCards(base(), after).warnings[0]).toBe(
      'Product “Low Doc” can price no deal: its minimum term (72 months) is above its maximum (60 months).',
    );
  });
  it('a bracket fully shadowed by a cheaper one of the same product and type', () => {
    const after = base();
    after.rate_brackets.push(
      bracket(-1, 1, 'Tier A special', { min_term: 24, max_term: 36, base_min: 8.95, base_max: 8.95 }),
    );
    expect(compareRateCards(base(), after).warnings).toEqual([
      '“Tier A special” in “Low Doc” is never the cheapest: “Tier A 12–36 months” accepts every deal it does at a base rate no higher (8.45% against 8.95%).',
    ]);
  });
  it('a cheaper bracket that covers less is not shadowed; nor is one of another type', () => {
    const after = base();
    after.rate_brackets.push(
      bracket(-1, 1, 'Narrow cheap', { min_term: 24, max_term: 36, base_min: 7, base_max: 7 }),
      bracket(-2, 1, 'Consumer', { min_term: 12, max_term: 36, base_min: 12, base_max: 12, type: 'consumer' }),
    );
    expect(compareRateCards(base(), after).warnings).toEqual([]);
  });
  it('an LVR limit makes a bracket narrower: the wider-LVR one shadows it, not the reverse', () => {
    const after = base();
    after.rate_brackets.push(
      bracket(-1, 1, 'Tier A LVR', { min_term: 12, max_term: 36, base_min: 8.45, base_max: 8.45, max_lvr: 80 }),
    );
    const w = compareRateCards(base(), after).warnings;
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^“Tier A LVR” in “Low Doc” is never the cheapest: “Tier A 12–36 months”/);
  });
  it('two identical brackets: only one is reported', () => {
    const after = base();
    after.rate_brackets.push(bracket(-1, 2, 'Standard copy', { base_min: 7.5, base_max: 8.5 }));
    const w = compareRateCards(base(), after).warnings;
    expect(w).toEqual([
      '“Standard copy” in “Full Doc” is never the cheapest: “Standard” accepts every deal it does at a base rate no higher (7.50%–8.50% against 7.50%–8.50%).',
    ]);
  });
  it(`shadowing is looked for in products of up to ${SHADOW_CHECK_LIMIT} brackets (the check is quadratic)`, () => {
    const many = (n: number) =>
      card(
        [product(1, 'Big')],
        Array.from({ length: n }, (_, i) => bracket(i + 1, 1, `B${i}`, { min_term: i, max_term: i })),
      );
    for (const n of [SHADOW_CHECK_LIMIT - 1, SHADOW_CHECK_LIMIT + 1]) {
      const after = many(n);
      after.rate_brackets.push(bracket(-1, 1, 'Copy of B0', { min_term: 0, max_term: 0 }));
      expect(compareRateCards(many(n), after).warnings.length).toBe(n < SHADOW_CHECK_LIMIT ? 1 : 0);
    }
  });
  it('a product left with no brackets', () => {
    const after = base();
    after.rate_brackets = after.rate_brackets.filter((b) => b.product_id !== 2);
    const r = compareRateCards(base(), after);
    expect(r.summary_lines).toEqual(['Removes bracket “Standard” from “Full Doc”.']);
    expect(r.warnings).toEqual(['Product “Full Doc” has no brackets, so it prices no deal.']);
  });
  it('a problem the card already had is not news', () => {
    const before = base();
    before.rate_brackets[0] = { ...before.rate_brackets[0], min_term: 48, max_term: 36 };
    const after = structuredClone(before);
    after.rate_brackets[2] = { ...after.rate_brackets[2], base_min: 7.6 };
    expect(compareRateCards(before, after).warnings).toEqual([]);
  });
});

describe('compareRateCards: rates that move by more than the threshold', () => {
  it('default threshold is 1.00 point: 1.00 exactly is not warned, 1.01 is', () => {
    const after = base();
    after.rate_brackets[0] = { ...after.rate_brackets[0], base_min: 9.45, base_max: 9.45 };
    expect(compareRateCards(base(), after).warnings).toEqual([]);
    after.rate_brackets[0] = { ...after.rate_brackets[0], base_min: 9.46, base_max: 9.46 };
    expect(compareRateCards(base(), after).warnings).toEqual([
      'Base rate of “Tier A 12–36 months” in “Low Doc” moves by 1.01 points (minimum from 8.45% to 9.46%), more than the 1.00-point threshold.',
    ]);
  });
  it('a fall counts as much as a rise; the caller sets the threshold', () => {
    const after = base();
    after.rate_brackets[2] = { ...after.rate_brackets[2], base_max: 8.0 };
    expect(compareRateCards(base(), after, { rateMoveThreshold: 0.25 }).warnings).toEqual([
      'Base rate of “Standard” in “Full Doc” moves by 0.50 points (maximum from 8.50% to 8.00%), more than the 0.25-point threshold.',
    ]);
    expect(compareRateCards(base(), after, { rateMoveThreshold: 0.5 }).warnings).toEqual([]);
  });
});

describe('compareRateCards: removed brackets that approvals still link to', () => {
  it('names the approvals, in name order', () => {
    const after = base();
    after.rate_brackets = after.rate_brackets.filter((b) => b.id !== 10);
    const links = new Map([[10, ['Low doc up to $150k', 'Full doc A']]]);
    expect(compareRateCards(base(), after, { approvalLinks: links }).warnings).toEqual([
      'Removing “Tier A 12–36 months” from “Low Doc” unlinks it from approvals “Full doc A” and “Low doc up to $150k”.',
    ]);
  });
  it('a removed product takes its linked brackets with it', () => {
    const after = base();
    after.products = after.products.filter((p) => p.id !== 2);
    after.rate_brackets = after.rate_brackets.filter((b) => b.product_id !== 2);
    expect(compareRateCards(base(), after, { approvalLinks: new Map([[20, ['Full doc A']]]) }).warnings).toEqual([
      'Removing “Standard” from “Full Doc” unlinks it from approval “Full doc A”.',
    ]);
  });
  it('a kept bracket is not warned about', () => {
    expect(compareRateCards(base(), base(), { approvalLinks: new Map([[10, ['X']]]) }).warnings).toEqual([]);
  });
});

describe('compareRateCards: deterministic', () => {
  it('the same inputs give the same output, whatever the input order', () => {
    const after = base();
    after.products.push(product(-1, 'Zeta'), product(-2, 'Alpha'));
    after.rate_brackets.push(
      bracket(-1, -1, 'Z1'),
      bracket(-2, -2, 'A1'),
      bracket(-3, 1, 'Tier 0', { min_term: 1, max_term: 11 }),
    );
    const first = compareRateCards(base(), after);
    const shuffled = structuredClone(after);
    shuffled.products.reverse();
    shuffled.rate_brackets.reverse();
    expect(compareRateCards(base(), shuffled)).toEqual(first);
    expect(first.summary_lines[0]).toBe('Adds product “Alpha” with 1 bracket.');
  });
});

describe('compareAssetMappings', () => {
  const names = {
    assets: new Map([
      [1, 'Excavators'],
      [2, 'Trucks'],
    ]),
    products: new Map([
      [1, 'Low Doc'],
      [2, 'Full Doc'],
    ]),
    rate_brackets: new Map([[10, 'Tier A']]),
  };
  const m = (id: number, asset_id: number, product_id: number, rate_bracket_id: number | null = null) => ({
    id,
    asset_id,
    organisation_id: ORG,
    product_id,
    rate_bracket_id,
  });
  it('no changes', () => {
    const r = compareAssetMappings({ asset_rate_brackets: [m(1, 1, 1)] }, { asset_rate_brackets: [m(9, 1, 1)] }, names);
    expect(r.summary_lines).toEqual([NO_CHANGES]);
    expect(r.parts).toEqual({ asset_rate_brackets: { added: 0, changed: 0, removed: 0, unchanged: 1 } });
  });
  it('adds and removes mappings, by product then asset', () => {
    const r = compareAssetMappings(
      { asset_rate_brackets: [m(1, 1, 1), m(2, 2, 2)] },
      { asset_rate_brackets: [m(1, 1, 1), m(3, 2, 1, 10)] },
      names,
    );
    expect(r.summary_lines).toEqual([
      'Stops mapping “Trucks” to every bracket of “Full Doc”.',
      'Maps “Trucks” to “Tier A” of “Low Doc”.',
    ]);
    expect(r.warnings).toEqual(['Product “Full Doc” is no longer mapped to any asset, so it prices no deal.']);
    expect(r.parts).toEqual({ asset_rate_brackets: { added: 1, changed: 0, removed: 1, unchanged: 1 } });
    expect(r.subtrees).toEqual({
      'Full Doc': { added: 0, removed: 1, changes: ['Stops mapping “Trucks” to every bracket of “Full Doc”.'] },
      'Low Doc': { added: 1, removed: 0, changes: ['Maps “Trucks” to “Tier A” of “Low Doc”.'] },
    });
  });
  it('names what it cannot name by id', () => {
    const r = compareAssetMappings({ asset_rate_brackets: [] }, { asset_rate_brackets: [m(1, 5, 6, 7)] });
    expect(r.summary_lines).toEqual(['Maps “asset 5” to “bracket 7” of “product 6”.']);
  });
});
