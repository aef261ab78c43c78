/**
 * What the structuring fast path keeps per deal answers as the tables it stands for: a product line's short lists
 * (product-line.fast.ts) as a map would, past their short length too, and a linked bracket's record (its per-term
 * answer and least floor at the (wait, balloon) asked last) as the deal's own tables, in any order of asking. Fixed
 * seed so a failure reproduces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DealWork } from '../../src/modules/structuring/deal-work.fast.ts';
import {
  blankLine,
  keepK,
  keepShared,
  keptK,
  type ProductLine,
  sharedOf,
  type Thresholds,
} from '../../src/modules/structuring/product-line.fast.ts';
import { sized } from '../../testkit/sizes.ts';
import { catalogueOf, inputOf, makeBracket, makeProduct, ORG, smallDeal, type World } from './fixtures.ts';

const emptyLine = (): ProductLine => blankLine({ wait: 0, term: 12, balloon: 0 }, 1);

// Few distinct bounds, so keys repeat; enough entries to pass the short lists' length.
const boundArb = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.double({ min: 0, max: 1_000, noNaN: true }),
  fc.constantFrom(-Infinity, Infinity),
);

describe("a product line's short lists answer as a map would, past their short length too", () => {
  it('holds for the first k kept per grid, side and bound', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ side: fc.integer({ min: 0, max: 3 }), bound: boundArb, k: fc.nat() }), {
          minLength: 40,
          maxLength: 80,
        }),
        (entries) => {
          const line = emptyLine();
          const model = new Map<string, number>();
          for (const { side, bound, k } of entries) {
            const key = `${side}|${bound}`;
            // As `firstK` does: kept only when not found.
            expect(keptK(line, side, bound)).toBe(model.get(key));
            if (!model.has(key)) {
              keepK(line, side, bound, k);
              model.set(key, k);
            }
          }
          for (const { side, bound } of entries) expect(keptK(line, side, bound)).toBe(model.get(`${side}|${bound}`));
          expect(keptK(line, 9, 0.5)).toBeUndefined();
        },
      ),
      { seed: 20_261_129, numRuns: sized(600, 60) },
    );
  });

  it('holds for the thresholds kept per amount range', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ min: boundArb, max: boundArb }), { minLength: 40, maxLength: 80 }), (ranges) => {
        const line = emptyLine();
        const model = new Map<string, Thresholds>();
        for (const { min, max } of ranges) {
          const key = `${min}|${max}`;
          expect(sharedOf(line, min, max)).toBe(model.get(key));
          if (!model.has(key)) {
            const t: Thresholds = { belowMax: [min], belowMin: [max], low: [], high: [] };
            keepShared(line, min, max, t);
            model.set(key, t);
          }
        }
        for (const { min, max } of ranges) expect(sharedOf(line, min, max)).toBe(model.get(`${min}|${max}`));
      }),
      { seed: 20_261_129, numRuns: sized(600, 60) },
    );
  });
});

/** Two products (one asks an ABN age the deal reaches only by waiting), a bracket each, balloon-sensitive floors. */
const world: World = {
  products: [
    makeProduct({ id: 1, organisation_id: ORG, min_range: 6, max_range: 24 }),
    makeProduct({ id: 2, organisation_id: ORG, min_abn_age: 6, min_range: 12, max_range: 48 }),
  ],
  brackets: [
    makeBracket({ id: 100, product_id: 1, organisation_id: ORG, base_min: 8, base_max: 12 }),
    makeBracket({ id: 200, product_id: 2, organisation_id: ORG, base_min: 14, base_max: 16, min_term: 18 }),
  ],
  approvals: [],
};
const WAITS = [0, 3, 12];
const BALLOONS = [0, 150, 400];

describe("a linked bracket's record answers per (wait, balloon) as the deal's tables do, in any order of asking", () => {
  it('holds for its per-term answer and its least floor', () => {
    const catalogue = catalogueOf(world);
    const input = inputOf(smallDeal({ abn_age: 2 }), { max_term: 48 });
    // Each (bracket, wait, balloon) answered on a deal of its own: nothing kept from another question.
    const fresh = (id: number, wait: number, balloon: number) => {
      const work = new DealWork(input, catalogue);
      const l = work.linkedOf(id);
      if (l === null) throw new Error(`bracket ${id} has no record`);
      const terms = work.termsOf(l.productId, wait, balloon);
      const answer = { least: work.leastFloorOf(l, terms, wait, balloon), terms: [...work.termsAt(l, wait, balloon)] };
      // The next deal reuses its records and tables (scratch.fast.ts), as the engine's deals do.
      work.release();
      return answer;
    };
    const expected = new Map<string, { least: number; terms: number[] }>();
    for (const id of [100, 200])
      for (const wait of WAITS)
        for (const balloon of BALLOONS) expected.set(`${id}|${wait}|${balloon}`, fresh(id, wait, balloon));
    // The cases differ, so a record answering another (wait, balloon)'s figure is caught.
    expect(new Set([...expected.values()].map((e) => e.least)).size).toBeGreaterThan(4);

    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.constantFrom(100, 200),
            wait: fc.constantFrom(...WAITS),
            balloon: fc.constantFrom(...BALLOONS),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (asks) => {
          const work = new DealWork(input, catalogue);
          for (const { id, wait, balloon } of asks) {
            const l = work.linkedOf(id);
            if (l === null) throw new Error(`bracket ${id} has no record`);
            const terms = work.termsAt(l, wait, balloon);
            // The record's answer is the deal's own table, not a copy.
            expect(terms).toBe(work.termsOf(l.productId, wait, balloon));
            const want = expected.get(`${id}|${wait}|${balloon}`);
            expect(work.leastFloorOf(l, terms, wait, balloon)).toBe(want?.least);
            expect([...terms]).toEqual(want?.terms);
          }
          work.release();
        },
      ),
      { seed: 20_261_129, numRuns: sized(300, 30) },
    );
  });
});
