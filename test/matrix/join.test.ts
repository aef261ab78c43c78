import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../src/modules/catalogue/model.ts';
import type { ApprovalOutcome } from '../../src/modules/matrix/criteria.ts';
import type { PricedBracket } from '../../src/modules/pricing/index.ts';
import { buildPricingIndex, priceDeal, sortCheapestFirst } from '../../src/modules/pricing/engine.ts';
import { seededRandom } from '../../testkit/random.ts';
import { makeDeal, syntheticCatalogue } from '../pricing/fixtures.ts';
import {
  compareJoinedRows,
  FREE_TIER_VISIBLE_ROWS,
  joinMatrixCalculator,
  type JoinedRow,
} from '../../src/modules/matrix/join.ts';
import { approval, outcome, pricedBracket } from './fixtures.ts';
import { matrixCalculatorRow, matrixCalculatorRows } from '../../src/modules/matrix/rows.ts';

const NAMES = new Map([
  [100, 'Acme Finance'],
  [200, 'Bolt Capital'],
  [300, 'Crest Leasing'],
]);

const join = (outcomes: ApprovalOutcome[], priced: PricedBracket[]) => joinMatrixCalculator(outcomes, priced, NAMES);
/** An approval of organisation 100 linked to the given brackets, as a confirmed outcome. */
const linked = (id: number, rate_bracket_ids: number[], extra: Partial<Approval> = {}) =>
  outcome(approval({ id, name: `Approval ${id}`, rate_bracket_ids, ...extra }));
const bracket = (rate_bracket_id: number, e_min: number, extra: Partial<PricedBracket> = {}) =>
  pricedBracket({ rate_bracket_id, e_min, ...extra });

describe('POST /matrix-calculator/ rule 4: the rate bracket is the join key', () => {
  it('one row per approval with at least one priced bracket, carrying that bracket and the organisation name', () => {
    const a = linked(1, [10]);
    const b = bracket(10, 8.5);
    expect(join([a], [b]).rows).toEqual([
      { outcome: a, bracket: b, priced_bracket_count: 1, organisation_name: 'Acme Finance' },
    ]);
  });

  it('an approval whose brackets were all filtered out by pricing is omitted from results, but destination_count counts it', () => {
    const result = join([linked(1, [10]), linked(2, [20, 21]), linked(3, [])], [bracket(10, 8.5)]);
    expect(result.rows.map((r) => r.outcome.approval.id)).toEqual([1]);
    expect(result.destination_count).toBe(3);
    expect(result.destination_count).toBeGreaterThan(result.rows.length);
  });

  it('priced_count = rate cards that survived pricing, whether or not any approval links them', () => {
    const result = join([linked(1, [10])], [bracket(10, 8.5), bracket(11, 8.6), bracket(99, 7)]);
    expect(result.priced_count).toBe(3);
  });

  it('no approvals, no priced brackets: empty results and zero counts', () => {
    expect(join([], [])).toEqual({ rows: [], priced_count: 0, destination_count: 0 });
    expect(join([], [bracket(10, 8)])).toEqual({ rows: [], priced_count: 1, destination_count: 0 });
  });

  it('a bracket shared by several approvals joins each of them', () => {
    const { rows } = join([linked(1, [10]), linked(2, [10, 11])], [bracket(10, 8.5), bracket(11, 9)]);
    expect(rows.map((r) => [r.outcome.approval.id, r.bracket.rate_bracket_id, r.priced_bracket_count])).toEqual([
      [1, 10, 1],
      [2, 10, 2],
    ]);
  });

  it('joins 5,000 approvals x 20 links against 20,000 priced brackets (speed: npm run bench)', () => {
    const priced = Array.from({ length: 20_000 }, (_, i) => bracket(i, 5 + (i % 97) / 10));
    const outcomes = Array.from({ length: 5_000 }, (_, i) =>
      linked(
        i,
        Array.from({ length: 20 }, (_, k) => (i * 7 + k * 997) % 25_000),
      ),
    );
    // Speed is `npm run bench`'s job; here the large join must simply be right.
    const result = join(outcomes, priced);
    expect(result.destination_count).toBe(5_000);
    expect(result.rows.length).toBeGreaterThan(4_000);
    expect(result.priced_count).toBe(20_000);
  });
});

describe("MatrixCalculatorRow priced_bracket_count: how many of the approval's brackets survived pricing, not how many it has configured", () => {
  it('counts linked brackets that priced', () => {
    const { rows } = join([linked(1, [10, 11, 12, 13, 14])], [bracket(10, 9), bracket(12, 8), bracket(14, 8.5)]);
    expect(rows[0].priced_bracket_count).toBe(3);
  });
  it('a bracket linked twice counts once', () => {
    const { rows } = join([linked(1, [10, 10, 11])], [bracket(10, 9), bracket(11, 8)]);
    expect(rows[0].priced_bracket_count).toBe(2);
  });
  it('a bracket priced twice (should not happen) keeps the cheaper and counts once', () => {
    const result = join([linked(1, [10])], [bracket(10, 9), bracket(10, 8)]);
    expect(result.rows[0]).toMatchObject({ priced_bracket_count: 1, bracket: { e_min: 8 } });
    expect(result.priced_count).toBe(1);
  });
});

describe("Cross-organisation guard: only brackets of the approval's own organisation join", () => {
  it("a link to another financier's bracket is ignored, neither priced nor counted", () => {
    const a = linked(1, [10, 20]); // organisation 100
    const { rows } = join([a], [bracket(10, 9, { organisation_id: 100 }), bracket(20, 5, { organisation_id: 200 })]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ priced_bracket_count: 1, bracket: { rate_bracket_id: 10 } });
  });
  it("an approval linked only to another financier's brackets is omitted", () => {
    const result = join([linked(1, [20])], [bracket(20, 5, { organisation_id: 200 })]);
    expect(result.rows).toEqual([]);
    expect(result.destination_count).toBe(1);
  });
});

describe('Matrix Calculator row order: confirmed before possible, then least-onerous doc level, then e_min ascending, then financier name, then approval id', () => {
  const row = (
    id: number,
    e_min: number,
    {
      status = 'confirmed',
      doc_level = 'low_doc',
      organisation_id = 100,
    }: Partial<{ status: 'confirmed' | 'possible'; doc_level: Approval['doc_level']; organisation_id: number }> = {},
  ) => ({
    outcome: outcome(approval({ id, doc_level, organisation_id, rate_bracket_ids: [id] }), {
      status,
      missing_fields: status === 'possible' ? ['term'] : [],
    }),
    bracket: bracket(id, e_min, { organisation_id }),
  });
  const order = (rows: ReturnType<typeof row>[]) =>
    join(
      rows.map((r) => r.outcome),
      rows.map((r) => r.bracket),
    ).rows.map((r) => r.outcome.approval.id);

  it('confirmed rows come before possible rows, even when dearer', () => {
    expect(order([row(1, 5, { status: 'possible' }), row(2, 12)])).toEqual([2, 1]);
  });
  it('within a status, the least-onerous doc level first, even when dearer', () => {
    expect(
      order([
        row(1, 5, { doc_level: 'full_doc' }),
        row(2, 9, { doc_level: 'lite_doc' }),
        row(3, 12, { doc_level: 'low_doc' }),
      ]),
    ).toEqual([3, 2, 1]);
  });
  it('within a doc level, e_min ascending (numeric)', () => {
    expect(order([row(1, 10.25), row(2, 9.75), row(3, 100)])).toEqual([2, 1, 3]);
  });
  it('equal e_min: financier name, then approval id', () => {
    expect(
      order([
        row(4, 8, { organisation_id: 300 }),
        row(3, 8, { organisation_id: 100 }),
        row(2, 8, { organisation_id: 200 }),
        row(1, 8, { organisation_id: 300 }),
      ]),
    ).toEqual([3, 2, 1, 4]);
  });
  it('all keys together', () => {
    expect(
      order([
        row(1, 7, { status: 'possible', doc_level: 'low_doc' }),
        row(2, 9, { doc_level: 'full_doc' }),
        row(3, 11, { doc_level: 'low_doc' }),
        row(4, 8, { doc_level: 'low_doc', organisation_id: 200 }),
        row(5, 8, { doc_level: 'low_doc', organisation_id: 100 }),
        row(6, 6, { status: 'possible', doc_level: 'full_doc' }),
      ]),
    ).toEqual([5, 4, 3, 2, 1, 6]);
  });
});

describe('Matrix Calculator row order holds for hundreds of rows (the order a large catalogue sorts)', () => {
  /** One approval per row, each linked to its own bracket; few distinct keys, so ties reach every tie-break. */
  const rows = fc.array(
    fc.record({
      status: fc.constantFrom('confirmed' as const, 'possible' as const),
      doc_level: fc.constantFrom('low_doc' as const, 'lite_doc' as const, 'full_doc' as const),
      organisation_id: fc.constantFrom(100, 200, 300),
      e_min: fc.constantFrom(6.5, 7, 7.00000001, 7.5, Number.NaN, Number.POSITIVE_INFINITY, -1),
    }),
    { maxLength: 400, size: 'max' },
  );

  it('the join answers its rows in compareJoinedRows order, whatever order the approvals come in', () => {
    fc.assert(
      fc.property(rows, (specs) => {
        const outcomes = specs.map((r, k) =>
          outcome(
            approval({
              id: specs.length - k,
              organisation_id: r.organisation_id,
              doc_level: r.doc_level,
              rate_bracket_ids: [k + 1],
            }),
            { status: r.status, missing_fields: r.status === 'possible' ? ['term'] : [] },
          ),
        );
        const priced = specs.map((r, k) => bracket(k + 1, r.e_min, { organisation_id: r.organisation_id }));
        const joined = join(outcomes, priced).rows;
        expect(joined).toHaveLength(specs.length);
        expect(joined).toEqual([...joined].sort(compareJoinedRows));
      }),
      { seed: 20_261_126, numRuns: 200 },
    );
  });
});

describe('Limits: Free-tier paywall — the cheapest three rows stay visible; further rows have figures nulled and masked true', () => {
  /** Rows already in row order, with the given e_min values. */
  const rowsWith = (...eMins: number[]): JoinedRow[] =>
    eMins.map((e_min, i) => ({
      outcome: outcome(approval({ id: i + 1 })),
      bracket: bracket(i + 1, e_min),
      priced_bracket_count: 1,
      organisation_name: 'Acme Finance',
    }));
  const maskedFlags = (rows: JoinedRow[]) => matrixCalculatorRows(rows, { masked: true }).map((r) => r.masked);

  it('keeps the three lowest e_min, wherever they sit in the row order, and masks the rest', () => {
    // Row order puts confirmed first, so the cheapest rows can be anywhere.
    expect(maskedFlags(rowsWith(9, 7.5, 12, 6, 8, 10))).toEqual([true, false, true, false, false, true]);
  });
  it('ties on e_min go to the earlier row in the row order', () => {
    expect(maskedFlags(rowsWith(8, 8, 8, 8, 8))).toEqual([false, false, false, true, true]);
    expect(maskedFlags(rowsWith(9, 8, 7, 8, 8))).toEqual([true, false, false, false, true]);
  });
  it(`${FREE_TIER_VISIBLE_ROWS} rows or fewer: nothing is masked`, () => {
    expect(maskedFlags(rowsWith(9, 8, 7))).toEqual([false, false, false]);
    expect(maskedFlags(rowsWith(9))).toEqual([false]);
    expect(maskedFlags([])).toEqual([]);
  });
  it('no paywall when not masked: every row keeps its figures', () => {
    expect(matrixCalculatorRows(rowsWith(9, 8, 7, 6, 5), { masked: false }).map((r) => r.masked)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
  it('keeps the row order and the row contents; does not mutate the inputs', () => {
    const rows = rowsWith(9, 7, 8, 6);
    const snapshot = structuredClone(rows);
    const paywalled = matrixCalculatorRows(rows, { masked: true });
    expect(paywalled.map((r) => r.approval_id)).toEqual(rows.map((r) => r.outcome.approval.id));
    expect(paywalled).toEqual(rows.map((row, i) => matrixCalculatorRow(row, paywalled[i].masked)));
    expect(rows).toEqual(snapshot);
    expect(rows.every((r) => !('masked' in r))).toBe(true);
  });
  it('applied to a joined, sorted result: the cheapest three by e_min across statuses stay visible', () => {
    const possible = (id: number, e: number) => ({
      o: outcome(approval({ id, rate_bracket_ids: [id] }), { status: 'possible', missing_fields: ['abn_age'] }),
      b: bracket(id, e),
    });
    const confirmed = (id: number, e: number) => ({
      o: outcome(approval({ id, rate_bracket_ids: [id] })),
      b: bracket(id, e),
    });
    const parts = [confirmed(1, 9), confirmed(2, 10), possible(3, 6), possible(4, 7), possible(5, 11)];
    const { rows } = join(
      parts.map((p) => p.o),
      parts.map((p) => p.b),
    );
    const visible = matrixCalculatorRows(rows, { masked: true })
      .filter((r) => !r.masked)
      .map((r) => r.approval_id);
    expect(rows.map((r) => r.outcome.approval.id)).toEqual([1, 2, 3, 4, 5]);
    expect(visible).toEqual([1, 3, 4]);
  });
});

describe('Row order and paywall compare e_min as the row shows it (4 dp)', () => {
  it('two rows reading the same e_min fall through to the financier name, and the paywall follows that order', async () => {
    const { joinMatrixCalculator } = await import('../../src/modules/matrix/join.ts');
    const { approval, outcome, pricedBracket: priced } = await import('./fixtures.ts');
    const names = new Map([
      [1, 'Zeta Finance'],
      [2, 'Alpha Finance'],
      [3, 'Mid Finance'],
      [4, 'Last Finance'],
    ]);
    const outcomes = [1, 2, 3, 4].map((org) =>
      outcome(approval({ id: org, organisation_id: org, rate_bracket_ids: [org * 10] })),
    );
    const brackets = [
      priced({ rate_bracket_id: 10, organisation_id: 1, e_min: 7.00000001 }),
      priced({ rate_bracket_id: 20, organisation_id: 2, e_min: 7.00000002 }),
      priced({ rate_bracket_id: 30, organisation_id: 3, e_min: 7.00000003 }),
      priced({ rate_bracket_id: 40, organisation_id: 4, e_min: 6.99999999 }),
    ];
    const rows = joinMatrixCalculator(outcomes, brackets, names).rows;
    expect(rows.map((r) => r.organisation_name)).toEqual([
      'Alpha Finance',
      'Last Finance',
      'Mid Finance',
      'Zeta Finance',
    ]);
    expect(matrixCalculatorRows(rows, { masked: true }).map((r) => r.masked)).toEqual([false, false, false, true]);
  });
});

describe('Matrix Calculator join: the priced brackets may come in any order (the service prices the market unsorted)', () => {
  /** Figures drawn from a few values, some equal only to 4 dp, so every tie-break of Rule 13 and of the row order is hit. */
  const pricedList = fc.uniqueArray(
    fc.record({
      rate_bracket_id: fc.integer({ min: 1, max: 40 }),
      organisation_id: fc.constantFrom(100, 200, 300),
      e_min: fc.constantFrom(7, 7.00000001, 7.00000004, 7.5, 8),
      repayment_min: fc.constantFrom(1_000, 1_000.001, 1_000.01, 990),
    }),
    { selector: (b) => b.rate_bracket_id, maxLength: 30 },
  );
  const approvals = fc.array(
    fc.record({
      organisation_id: fc.constantFrom(100, 200, 300),
      links: fc.array(fc.integer({ min: 0, max: 45 }), { maxLength: 8 }),
      status: fc.constantFrom('confirmed' as const, 'possible' as const),
      doc_level: fc.constantFrom('low_doc' as const, 'full_doc' as const),
    }),
    { maxLength: 25 },
  );

  it('any order of the priced brackets gives the rows, counts and order it gives them cheapest first', () => {
    fc.assert(
      fc.property(pricedList, approvals, fc.integer(), (list, specs, seed) => {
        const priced = list.map((b) => bracket(b.rate_bracket_id, b.e_min, b));
        const outcomes = specs.map((a, k) =>
          outcome(
            approval({
              id: k + 1,
              organisation_id: a.organisation_id,
              rate_bracket_ids: a.links,
              doc_level: a.doc_level,
            }),
            { status: a.status },
          ),
        );
        const random = seededRandom(seed);
        const shuffled = [...priced];
        for (let k = shuffled.length - 1; k > 0; k--) {
          const j = Math.floor(random() * (k + 1));
          [shuffled[k], shuffled[j]] = [shuffled[j], shuffled[k]];
        }
        expect(join(outcomes, shuffled)).toEqual(join(outcomes, sortCheapestFirst(priced)));
      }),
      { seed: 4_242, numRuns: 400 },
    );
  });

  it('on a synthetic 4,000-bracket market, the unsorted pricing joins exactly as the sorted one, deal after deal', () => {
    const catalogue = syntheticCatalogue({ brackets: 4_000, seed: 3 });
    const index = buildPricingIndex(catalogue);
    const random = seededRandom(99);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    // Approvals of every financier linked to 1-6 of its own brackets, some to a stranger's or to no bracket at all.
    const outcomes = Array.from({ length: 600 }, (_, k) => {
      const own = catalogue.brackets.filter((b) => b.organisation_id === (k % 40) + 1);
      const links = Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(own).id);
      if (random() < 0.1) links.push(pick(catalogue.brackets).id, 999_999);
      return outcome(
        approval({
          id: k + 1,
          organisation_id: (k % 40) + 1,
          rate_bracket_ids: links,
          doc_level: pick(['low_doc', 'full_doc'] as const),
        }),
        { status: random() < 0.5 ? 'confirmed' : 'possible' },
      );
    });
    const names = new Map(Array.from({ length: 40 }, (_, k) => [k + 1, `Financier ${k % 7}`] as const));
    let joined = 0;
    for (let k = 0; k < 30; k++) {
      const deal = makeDeal({
        asset_value: pick(catalogue.leafIds),
        term: pick([24, 36, 48, 60]),
        brokerage: pick([0, 2, 4]),
        brokerage_percentage: true,
        repayment_frequency: pick(['monthly', 'weekly'] as const),
      });
      const options = { organisationIds: null, type: 'commercial' as const };
      const expected = joinMatrixCalculator(outcomes, priceDeal(index, deal, options), names);
      const actual = joinMatrixCalculator(outcomes, priceDeal(index, deal, { ...options, sorted: false }), names);
      expect(actual).toEqual(expected);
      joined += actual.rows.length;
    }
    expect(joined).toBeGreaterThan(0);
  });
});
