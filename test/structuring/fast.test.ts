/**
 * The fast path (src/modules/structuring/engine.fast.ts, what the service runs) answers exactly what the plain rule
 * (`structureDeal`, which the property and oracle tests hold to the contract) answers, on generated deals and
 * catalogues: two financiers sharing the asset, approvals linking brackets of both, waits, facts, minimum deposits,
 * balloon ranges and both rankings. Fixed seed so a failure reproduces.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOC_LEVELS } from '../../src/lib/vocabulary.ts';
import type { Approval, Product, RateBracket } from '../../src/modules/catalogue/model.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import {
  amountFinancedCents,
  bracketAdmits,
  priceDeal,
  priceOneBracket,
  productOfBracket,
  repaymentFloor,
} from '../../src/modules/pricing/engine.ts';
import { DealWork, firstTrueFrom } from '../../src/modules/structuring/deal-work.fast.ts';
import { amountRange, firstTrue, structureDeal } from '../../src/modules/structuring/engine.ts';
import { structureDealFast } from '../../src/modules/structuring/engine.fast.ts';
import { sized } from '../../testkit/sizes.ts';
import { approval, catalogueOf, inputOf, makeBracket, makeProduct, ORG, smallDeal, type World } from './fixtures.ts';

const OTHER = ORG + 1;

const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: arb, weight: 1 });

const productArb = fc.record({
  other: fc.boolean(),
  min_range: sometimes(fc.integer({ min: 1, max: 12 })),
  max_range: sometimes(fc.integer({ min: 6, max: 24 })),
  min_amount: sometimes(fc.integer({ min: 50, max: 300 })),
  max_amount: sometimes(fc.integer({ min: 100, max: 400 })),
  min_abn_age: sometimes(fc.integer({ min: 0, max: 15 })),
  min_gst_age: sometimes(fc.integer({ min: 0, max: 15 })),
  max_asset_age_plus_term: sometimes(fc.integer({ min: 10, max: 40 })),
  min_credit_score: sometimes(fc.integer({ min: 400, max: 700 })),
  monthly_fee: sometimes(fc.integer({ min: 0, max: 10 })),
  documentation_fee: sometimes(fc.integer({ min: 0, max: 30 })),
  brokerage_cap: sometimes(fc.integer({ min: 0, max: 5 })),
  maximum_brokerage_limit: sometimes(fc.integer({ min: 0, max: 20 })),
  brokerage_loading_treatment: sometimes(fc.constantFrom(0.4, 0.5)),
});

const bracketArb = fc.record({
  min_term: sometimes(fc.integer({ min: 1, max: 12 })),
  max_term: sometimes(fc.integer({ min: 6, max: 24 })),
  min_amount: sometimes(fc.integer({ min: 50, max: 300 })),
  max_amount: sometimes(fc.integer({ min: 100, max: 400 })),
  base_min: fc.integer({ min: 0, max: 20 }),
  max_asset_age: sometimes(fc.integer({ min: 0, max: 20 })),
});

const approvalArb = fc.record({
  other: fc.boolean(),
  // Short lists, and long ones full of repeats (the fast path deduplicates a long list another way).
  links: fc.oneof(
    fc.array(fc.nat({ max: 7 }), { minLength: 0, maxLength: 4 }),
    fc.array(fc.nat({ max: 7 }), { minLength: 17, maxLength: 24 }),
  ),
  min_term: sometimes(fc.integer({ min: 1, max: 12 })),
  max_term: sometimes(fc.integer({ min: 6, max: 24 })),
  min_deposit_amount: sometimes(fc.integer({ min: 0, max: 150 })),
  min_deposit_percentage: sometimes(fc.integer({ min: 0, max: 40 })),
  min_abn_age: sometimes(fc.integer({ min: 0, max: 15 })),
  max_abn_age: sometimes(fc.integer({ min: 10, max: 30 })),
  min_gst_age: sometimes(fc.integer({ min: 0, max: 20 })),
  min_credit_score: sometimes(fc.integer({ min: 400, max: 700 })),
  home_owner: sometimes(fc.boolean()),
});

const caseArb = fc.record({
  cost: fc.integer({ min: 100, max: 400 }),
  term: fc.integer({ min: 1, max: 24 }),
  depositPercent: fc.integer({ min: 0, max: 20 }),
  depositIsPercent: fc.boolean(),
  abnAge: fc.integer({ min: 9, max: 20 }),
  gstAge: sometimes(fc.integer({ min: 0, max: 20 })),
  creditScore: sometimes(fc.integer({ min: 400, max: 700 })),
  assetAge: sometimes(fc.integer({ min: 0, max: 20 })),
  homeOwner: sometimes(fc.boolean()),
  brokerage: fc.integer({ min: 0, max: 20 }),
  balloon: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 })),
  balloonRange: fc.option(fc.record({ min: fc.integer({ min: 0, max: 20 }), max: fc.integer({ min: 0, max: 40 }) })),
  maxDeposit: fc.integer({ min: 0, max: 200 }),
  minTerm: fc.integer({ min: 1, max: 12 }),
  maxTerm: fc.integer({ min: 12, max: 24 }),
  rankBy: fc.constantFrom('repayment' as const, 'rate' as const),
  products: fc.array(productArb, { minLength: 1, maxLength: 3 }),
  brackets: fc.array(bracketArb, { minLength: 1, maxLength: 6 }),
  approvals: fc.array(approvalArb, { minLength: 1, maxLength: 5 }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** A case's catalogue parts, to answer another case's deal on it. */
const worldOf = ({ products, brackets, approvals }: Case) => ({ products, brackets, approvals });
const termsOf = ({ term, minTerm, maxTerm }: Case) => ({ term, minTerm, maxTerm });

function build(c: Case) {
  const products: Product[] = c.products.map(({ other, ...p }, i) =>
    makeProduct({ id: i + 1, organisation_id: other ? OTHER : ORG, ...p }),
  );
  const brackets: RateBracket[] = c.brackets.map((b, i) => {
    const product = products[i % products.length];
    return makeBracket({
      id: 100 + i,
      product_id: product.id,
      organisation_id: product.organisation_id ?? ORG,
      base_max: b.base_min + 1,
      ...b,
    });
  });
  const approvals: Approval[] = c.approvals.map(({ other, links, ...a }, i) =>
    approval({
      id: i + 1,
      organisation_id: other ? OTHER : ORG,
      rate_bracket_ids: links.map((k) => 100 + k),
      ...a,
    }),
  );
  const deposit = c.depositIsPercent
    ? (c.cost * c.depositPercent) / 100
    : Math.round((c.cost * c.depositPercent) / 100);
  const deal: Deal = smallDeal({
    cost: c.cost,
    cost_inc: c.cost,
    term: c.term,
    deposit,
    abn_age: c.abnAge,
    gst_age: c.gstAge,
    credit_score: c.creditScore,
    asset_age: c.assetAge,
    asset_age_plus_term: c.assetAge === null ? null : c.assetAge + c.term,
    home_owner: c.homeOwner,
    brokerage: c.brokerage,
    balloon_amount: c.balloon,
  });
  const range = c.balloonRange;
  const bounds = {
    max_deposit: c.maxDeposit,
    min_term: c.minTerm,
    max_term: c.maxTerm,
    ...(range ? { min_balloon: Math.min(range.min, range.max), max_balloon: Math.max(range.min, range.max) } : {}),
  };
  const world: World = { products, brackets, approvals };
  return { world, input: inputOf(deal, bounds, c.rankBy) };
}

/** The case's deal answered alike by the fast path and the plain rule, on its catalogue. */
function answersAlike(c: Case): void {
  const { world, input } = build(c);
  const catalogue = catalogueOf(world);
  expect(structureDealFast(input, catalogue)).toEqual(structureDeal(input, catalogue));
}

describe('the fast path answers what the plain rule answers', () => {
  it('holds on generated deals and catalogues: every approval, blocker, suggestion and the cheapest', () => {
    fc.assert(fc.property(caseArb, answersAlike), { seed: 20_261_128, numRuns: sized(1_500, 150) });
  });
});

describe('an approval linking more than 30 brackets is answered as the plain rule answers it', () => {
  // Past 30 brackets a search keeps no per-term masks (a bit per bracket): it asks each bracket at each term instead.
  const manyArb = fc.tuple(caseArb, fc.array(bracketArb, { minLength: 31, maxLength: 34 })).map(([c, many]) => ({
    ...c,
    products: c.products.map((p) => ({ ...p, other: false })),
    brackets: many,
    approvals: c.approvals.map((a) => ({ ...a, other: false, links: many.map((_, k) => k) })),
  }));
  it('holds on generated deals and catalogues', () => {
    fc.assert(fc.property(manyArb, answersAlike), { seed: 20_261_129, numRuns: sized(150, 40) });
  });
});

describe('a deal is answered as on a fresh catalogue, whatever deals were answered on it before', () => {
  // The fast path lends each deal the snapshot's records and tables (scratch.fast.ts) and resets them for the next.
  it('holds for generated deals answered one after another on one catalogue', () => {
    fc.assert(
      fc.property(caseArb, fc.array(caseArb, { minLength: 1, maxLength: 3 }), (c, others) => {
        const { world, input } = build(c);
        const catalogue = catalogueOf(world);
        // The others keep the first deal's terms, so its tables are the same size and are reused, not remade.
        const inputs = [input, ...others.map((o) => build({ ...o, ...worldOf(c), ...termsOf(c) }).input), input];
        for (const each of inputs) expect(structureDealFast(each, catalogue)).toEqual(structureDeal(each, catalogue));
      }),
      { seed: 20_261_129, numRuns: sized(500, 50) },
    );
  });
});

describe("approvals without a suggestion are listed in the plain rule's order", () => {
  // Names that collate equal but differ (case, accents), digits read by value, and every doc level: the fast path
  // lists these in an order sorted once per approvals list, the plain rule sorts them per deal.
  const NAMES = ['Tier 2', 'tier 2', 'Tier 10', 'Tiér 2', 'Low Doc', 'low doc', 'Alpha', 'alpha ', 'Zeta'];
  const namedArb = caseArb.chain((c) =>
    fc
      .record({
        approvals: fc.array(approvalArb, { minLength: 6, maxLength: 12 }),
        names: fc.array(fc.constantFrom(...NAMES), { minLength: 12, maxLength: 12 }),
        levels: fc.array(fc.constantFrom(...DOC_LEVELS), { minLength: 12, maxLength: 12 }),
        ids: fc.shuffledSubarray([...Array(40).keys()], { minLength: 12, maxLength: 12 }),
      })
      .map((more) => ({ ...c, ...more })),
  );
  it('holds on generated catalogues with names, doc levels and ids in any order', () => {
    fc.assert(
      fc.property(namedArb, (c) => {
        const { world, input } = build(c);
        world.approvals = world.approvals.map((a, i) => ({
          ...a,
          id: c.ids[i] + 1,
          name: c.names[i],
          doc_level: c.levels[i],
        }));
        const catalogue = catalogueOf(world);
        const fast = structureDealFast(input, catalogue).approvals.map((a) => a.approval.id);
        expect(fast).toEqual(structureDeal(input, catalogue).approvals.map((a) => a.approval.id));
      }),
      { seed: 20_261_128, numRuns: sized(400, 40) },
    );
  });
});

describe('a bisection started from a guess ends where the plain bisection ends', () => {
  it('holds for every monotone test and any guess, near, far, outside the range or none', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: -50, max: 600 }),
        fc.oneof(fc.integer({ min: -400, max: 600 }), fc.constantFrom(Number.NaN, Infinity, -Infinity)),
        (lo, width, threshold, guess) => {
          const hi = lo + width;
          const tested: number[] = [];
          const test = (k: number) => {
            tested.push(k);
            return k >= threshold;
          };
          expect(firstTrueFrom(lo, hi, guess, test)).toBe(firstTrue(lo, hi, (k) => k >= threshold));
          // It asks only inside [lo, hi), as the plain bisection does.
          expect(tested.every((k) => k >= lo && k < hi)).toBe(true);
        },
      ),
      { seed: 20_261_128, numRuns: sized(3_000, 300) },
    );
  });
});

describe('one bracket priced alone is the row priceDeal gives it', () => {
  it('holds for every bracket on generated deals', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { world, input } = build(c);
        const { pricingIndex } = catalogueOf(world);
        for (const b of world.brackets) {
          const [row] = priceDeal(pricingIndex, input.deal, { bracketIds: new Set([b.id]), type: 'commercial' });
          expect(priceOneBracket(pricingIndex, input.deal, b.id, 'commercial')).toEqual(row ?? null);
        }
      }),
      { seed: 20_261_128, numRuns: sized(500, 50) },
    );
  });
});

describe("the cheapest reachable change is the plain rule's when it lies deep in the search order", () => {
  // Many approvals and brackets: the fast path visits (term, balloon) cells from the least repayment floor up and stops
  // early, so a floor above a reachable repayment would lose the cheapest here.
  const manyArb = caseArb.chain((c) =>
    fc
      .record({
        brackets: fc.array(bracketArb, { minLength: 6, maxLength: 10 }),
        approvals: fc.array(approvalArb, { minLength: 8, maxLength: 14 }),
        products: fc.array(productArb, { minLength: 2, maxLength: 4 }),
      })
      .map((more) => ({ ...c, ...more, rankBy: 'repayment' as const })),
  );
  it('holds on generated catalogues of many approvals, ranked by repayment', () => {
    fc.assert(
      fc.property(manyArb, (c) => {
        const { world, input } = build(c);
        const catalogue = catalogueOf(world);
        expect(structureDealFast(input, catalogue).cheapest).toEqual(structureDeal(input, catalogue).cheapest);
      }),
      { seed: 20_261_128, numRuns: 200 },
    );
  });
});

describe('the repayment floor is under every row it bounds', () => {
  it('holds for every bracket on generated deals, with a larger balloon and a smaller amount financed', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 50 }),
        (c, moreBalloon, lessAmount) => {
          const { world, input } = build(c);
          const { pricingIndex } = catalogueOf(world);
          for (const b of world.brackets) {
            const row = priceOneBracket(pricingIndex, input.deal, b.id, 'commercial');
            if (row === null) continue;
            const wider = { ...input.deal, balloon_amount: input.deal.balloon_amount + moreBalloon };
            const floor = repaymentFloor(pricingIndex, b.id, wider, row.amount_financed - lessAmount);
            expect(floor).toBeLessThanOrEqual(row.repayment_min);
          }
        },
      ),
      { seed: 20_261_128, numRuns: sized(1_000, 100) },
    );
  });
});

describe("a bracket's least repayment floor over the searched terms is under its floor at each of them", () => {
  // The fast path reads the floor at the shortest and the longest term its product prices only: the instalment is
  // monotone in the term, falling when the amount exceeds the balloon and rising when the balloon exceeds it.
  it('holds for every bracket on generated deals, with balloons below and above the amount financed', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 400 }), (c, balloon) => {
        const { world, input } = build(c);
        const catalogue = catalogueOf(world);
        const work = new DealWork(input, catalogue);
        const { bounds } = input;
        for (const b of world.brackets) {
          // The record the search itself makes for a linked bracket.
          const l = work.linkedOf(b.id);
          if (l === null) continue;
          const terms = work.termsOf(l.productId, 0, balloon);
          const least = work.leastFloorOf(l, terms, 0, balloon);
          for (let term = 1; term <= work.maxTerm; term++) {
            const searched = term === work.t0 || (term >= bounds.min_term && term <= bounds.max_term);
            const inRange = (b.min_term === null || term >= b.min_term) && (b.max_term === null || term <= b.max_term);
            if (!searched || !inRange || !work.prices(terms, b.id, 0, term, balloon)) continue;
            expect(l.reference).not.toBeNull();
            const floor = work.floorOf(l, l.reference ?? { wait: 0, term, balloon }, term, balloon);
            expect(least).toBeLessThanOrEqual(floor);
          }
        }
      }),
      { seed: 20_261_128, numRuns: sized(1_000, 100) },
    );
  });
});

describe("a product's repayment floor is under each of its brackets' least floors", () => {
  // The cheapest search reads a bracket's own least floor only when its product's (the least rate of its brackets, its
  // least amount financed, every term it prices) does not already rank after the best so far.
  it('holds for every bracket on generated deals, with balloons below and above the amount financed', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 400 }), (c, balloon) => {
        const { world, input } = build(c);
        const work = new DealWork(input, catalogueOf(world));
        for (const b of world.brackets) {
          const l = work.linkedOf(b.id);
          if (l === null) continue;
          const terms = work.termsOf(l.productId, 0, balloon);
          const product = work.productFloorOf(l, terms, 0, balloon);
          expect(product).toBeLessThanOrEqual(work.leastFloorOf(l, terms, 0, balloon));
        }
      }),
      { seed: 20_261_129, numRuns: sized(1_000, 100) },
    );
  });
});

describe("a bracket whose amount range is a cent away from its product's amount at the deal's deposit prices nothing there", () => {
  // A search that keeps the deal's own deposit passes over such a bracket without finding its thresholds.
  it('holds for every bracket on generated deals, at every term its product prices', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { world, input } = build(c);
        const work = new DealWork(input, catalogueOf(world));
        for (const b of world.brackets) {
          const l = work.linkedOf(b.id);
          if (l === null) continue;
          const terms = work.termsOf(l.productId, 0, work.b0);
          for (let term = 1; term <= work.maxTerm; term++) {
            if (!work.prices(terms, b.id, 0, term, work.b0)) continue;
            const amount = work.ownAmount(l, 0, term, work.b0);
            if (amount < l.min - 0.01 || amount > l.max + 0.01)
              expect(work.price(b.id, 0, work.d0, term, work.b0)).toBeNull();
          }
        }
      }),
      { seed: 20_261_130, numRuns: sized(1_000, 100) },
    );
  });
});

describe("a product's priced terms, answered at once, are the amount financed's answer at each term", () => {
  // The fast path reads the term's own bounds per term and asks one quote per product (`DealWork.prices`).
  it('holds for every bracket on generated deals, with the age at the end following the term or sent', () => {
    fc.assert(
      fc.property(caseArb, fc.boolean(), fc.integer({ min: 0, max: 60 }), (c, follows, sentAge) => {
        const { world, input } = build(c);
        const catalogue = catalogueOf(world);
        const deal: Deal = { ...input.deal, asset_age_plus_term: follows ? null : sentAge };
        const work = new DealWork({ ...input, deal, asset_age_plus_term_sent: !follows }, catalogue);
        for (const b of world.brackets) {
          const product = productOfBracket(catalogue.pricingIndex, b.id);
          if (product === null) continue;
          const terms = work.termsOf(product.id, 0, deal.balloon_amount);
          for (let term = 1; term <= work.maxTerm; term++) {
            const age = deal.asset_age;
            const at: Deal = {
              ...deal,
              deposit: 0,
              term,
              asset_age_plus_term: follows ? (age === null ? null : age + term) : sentAge,
            };
            const priced = amountFinancedCents(catalogue.pricingIndex, b.id, at) !== null;
            expect(work.prices(terms, b.id, 0, term, deal.balloon_amount)).toBe(priced);
          }
        }
        work.release();
      }),
      { seed: 20_261_128, numRuns: sized(1_000, 100) },
    );
  });
});

describe("a bracket's deposit thresholds, found once per product and bound, are its own bisection's", () => {
  // Brackets of one product with the same bound share the search: the amount financed is the product's figure.
  it('holds for every bracket on generated deals', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { world, input } = build(c);
        const catalogue = catalogueOf(world);
        const work = new DealWork(input, catalogue);
        for (const b of world.brackets) {
          const product = productOfBracket(catalogue.pricingIndex, b.id);
          if (product === null) continue;
          const terms = work.termsOf(product.id, 0, input.deal.balloon_amount);
          let term = 1;
          while (term <= work.maxTerm && !work.prices(terms, b.id, 0, term, input.deal.balloon_amount)) term++;
          if (term > work.maxTerm) continue;
          const [min, max] = amountRange(b, product);
          const l = work.linkedOf(b.id)!;
          const reference = { wait: 0, term, balloon: input.deal.balloon_amount };
          const t = work.thresholdsOf(l, reference);
          const amount = (d: number) => {
            const deal = {
              ...input.deal,
              deposit: d,
              term,
              asset_age_plus_term: work.probe(0, d, term, 0).asset_age_plus_term,
            };
            return amountFinancedCents(catalogue.pricingIndex, b.id, deal) ?? -Infinity;
          };
          work.grids.forEach((g, at) => {
            const belowMax = firstTrue(0, g.last + 1, (k) => amount(g.value(k)) <= max);
            expect(t.belowMax[at]).toBe(belowMax);
            expect(t.belowMin[at]).toBe(firstTrue(belowMax, g.last + 1, (k) => amount(g.value(k)) < min));
          });
        }
      }),
      { seed: 20_261_128, numRuns: sized(1_000, 100) },
    );
  });
});

describe('a bracket whose amount range no searched deposit meets prices no change of the deal', () => {
  // Searches leave such a bracket out (`DealWork.reaches`): under its minimum with no deposit, or over its maximum at
  // the most any search tries, so no deposit between prices it, at any term.
  it('holds for every bracket on generated deals, at every term its product prices', () => {
    let left = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const { world, input } = build(c);
        const work = new DealWork(input, catalogueOf(world));
        const hi = input.bounds.max_deposit;
        for (const b of world.brackets) {
          const l = work.linkedOf(b.id);
          if (l === null || work.reaches(l)) continue;
          left += 1;
          const terms = work.termsOf(l.productId, 0, work.b0);
          for (let term = 1; term <= work.maxTerm; term++) {
            if (!work.prices(terms, b.id, 0, term, work.b0)) continue;
            for (const deposit of [0, work.d0, hi / 3, hi / 2, Math.floor(hi), hi])
              expect(work.price(b.id, 0, deposit, term, work.b0)).toBeNull();
          }
        }
      }),
      { seed: 20_261_131, numRuns: sized(1_000, 100) },
    );
    expect(left).toBeGreaterThan(0);
  });
});

describe('a bracket the pricing engine does not admit prices no change of the deal', () => {
  // The fast path never asks such a bracket (`bracketAdmits`): no term, deposit or balloon may price it.
  it('holds for every bracket on generated deals, at every term and deposit', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { world, input } = build(c);
        const { pricingIndex } = catalogueOf(world);
        for (const b of world.brackets) {
          if (bracketAdmits(pricingIndex, input.deal, b.id, 'commercial')) continue;
          for (let term = 1; term <= 24; term++) {
            for (const deposit of [0, c.cost / 4, c.cost / 2]) {
              const deal = { ...input.deal, term, deposit };
              expect(priceOneBracket(pricingIndex, deal, b.id, 'commercial')).toBeNull();
            }
          }
        }
      }),
      { seed: 20_261_128, numRuns: sized(500, 50) },
    );
  });
});
