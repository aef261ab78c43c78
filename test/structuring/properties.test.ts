/**
 * Exactness of "what would it take?" over generated small deals and catalogues (cost <= $400, terms 1..24, so the
 * brute-force oracle stays fast). Fixed seed so a failure reproduces; fast-check prints the shrunk counterexample.
 * - sufficiency: re-running both engines on a suggestion's changed deal gives `confirmed` and exactly its figures;
 * - minimality: a brute-force search of the whole grid (deposit in whole dollars and whole percentage points, every
 *   term, every whole-dollar balloon, every wait) finds no smaller sufficient change by the change order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Approval, Product, RateBracket } from '../../src/modules/catalogue/model.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import { evaluateApproval } from '../../src/modules/matrix/criteria.ts';
import { priceDeal } from '../../src/modules/pricing/engine.ts';
import { advancedDeal, LEVERS, structureDeal, type StructuringInput } from '../../src/modules/structuring/engine.ts';
import { approval, catalogueOf, inputOf, makeBracket, makeProduct, ORG, smallDeal, type World } from './fixtures.ts';
import { sized } from '../../testkit/sizes.ts';

const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: arb, weight: 1 });

const productArb = fc.record({
  min_range: sometimes(fc.integer({ min: 1, max: 12 })),
  max_range: sometimes(fc.integer({ min: 6, max: 24 })),
  min_amount: sometimes(fc.integer({ min: 50, max: 300 })),
  max_amount: sometimes(fc.integer({ min: 100, max: 400 })),
  min_abn_age: sometimes(fc.integer({ min: 0, max: 15 })),
  monthly_fee: sometimes(fc.integer({ min: 0, max: 10 })),
  documentation_fee: sometimes(fc.integer({ min: 0, max: 30 })),
  brokerage_cap: sometimes(fc.integer({ min: 0, max: 5 })),
});

const bracketArb = fc.record({
  min_term: sometimes(fc.integer({ min: 1, max: 12 })),
  max_term: sometimes(fc.integer({ min: 6, max: 24 })),
  min_amount: sometimes(fc.integer({ min: 50, max: 300 })),
  max_amount: sometimes(fc.integer({ min: 100, max: 400 })),
  base_min: fc.integer({ min: 1, max: 20 }),
});

const approvalArb = fc.record({
  min_term: sometimes(fc.integer({ min: 1, max: 12 })),
  max_term: sometimes(fc.integer({ min: 6, max: 24 })),
  min_deposit_amount: sometimes(fc.integer({ min: 0, max: 150 })),
  min_deposit_percentage: sometimes(fc.integer({ min: 0, max: 40 })),
  min_abn_age: sometimes(fc.integer({ min: 0, max: 15 })),
  max_abn_age: sometimes(fc.integer({ min: 10, max: 30 })),
});

const caseArb = fc.record({
  cost: fc.integer({ min: 100, max: 400 }),
  term: fc.integer({ min: 1, max: 24 }),
  depositPercent: fc.integer({ min: 0, max: 20 }),
  depositIsPercent: fc.boolean(),
  abnAge: fc.integer({ min: 9, max: 20 }),
  brokerage: fc.integer({ min: 0, max: 20 }),
  balloon: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30 })),
  balloonRange: fc.boolean(),
  maxDeposit: fc.integer({ min: 0, max: 200 }),
  minTerm: fc.integer({ min: 1, max: 12 }),
  maxTerm: fc.integer({ min: 12, max: 24 }),
  products: fc.array(productArb, { minLength: 1, maxLength: 2 }),
  brackets: fc.array(bracketArb, { minLength: 1, maxLength: 3 }),
  approvals: fc.array(approvalArb, { minLength: 1, maxLength: 2 }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function build(c: Case): { world: World; input: StructuringInput } {
  const products: Product[] = c.products.map((p, i) => makeProduct({ id: i + 1, organisation_id: ORG, ...p }));
  const brackets: RateBracket[] = c.brackets.map((b, i) =>
    makeBracket({
      id: 100 + i,
      product_id: (i % products.length) + 1,
      organisation_id: ORG,
      base_max: b.base_min + 1,
      ...b,
    }),
  );
  const approvals: Approval[] = c.approvals.map((a, i) =>
    approval({
      id: i + 1,
      organisation_id: ORG,
      rate_bracket_ids: brackets.filter((_, k) => k % c.approvals.length === i).map((b) => b.id),
      ...a,
    }),
  );
  const deposit = c.depositIsPercent
    ? (c.cost * c.depositPercent) / 100
    : Math.round((c.cost * c.depositPercent) / 100);
  const deal = smallDeal({
    cost: c.cost,
    cost_inc: c.cost,
    term: c.term,
    deposit,
    abn_age: c.abnAge,
    brokerage: c.brokerage,
    balloon_amount: c.balloon,
  });
  const bounds = {
    max_deposit: c.maxDeposit,
    min_term: c.minTerm,
    max_term: c.maxTerm,
    ...(c.balloonRange ? { min_balloon: 0, max_balloon: 30 } : {}),
  };
  return { world: { products, brackets, approvals }, input: inputOf(deal, bounds) };
}

describe('sufficiency: every suggestion makes its approval confirmed, at exactly the quoted figures', () => {
  it('holds on generated deals and catalogues', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { world, input } = build(c);
        const catalogue = catalogueOf(world);
        const answer = structureDeal(input, catalogue);
        for (const s of [...answer.approvals.map((a) => a.suggestion), answer.cheapest]) {
          if (s === null) continue;
          const expected: Deal = {
            ...advancedDeal(input.deal, s.wait_months),
            deposit: s.deposit,
            term: s.term,
            balloon_amount: s.balloon,
            asset_age_plus_term: s.deal.asset_age_plus_term,
          };
          expect(s.deal).toEqual(expected);
          expect(evaluateApproval(s.approval, s.deal, catalogue.ancestry)?.status).toBe('confirmed');
          const [row] = priceDeal(catalogue.pricingIndex, s.deal, {
            bracketIds: new Set(s.approval.rate_bracket_ids),
            organisationIds: new Set([s.approval.organisation_id]),
          });
          expect(row).toEqual(s.bracket);
          for (const change of s.changes) expect(LEVERS).toContain(change.lever);
          expect(s.deposit).toBeLessThanOrEqual(Math.max(input.bounds.max_deposit, input.deal.deposit ?? 0) + 1e-6);
        }
        for (const a of answer.approvals) {
          for (const b of a.blockers) if (b.kind === 'fact') expect(a.suggestion).toBeNull();
        }
      }),
      { seed: 20_261_128, numRuns: sized(2_000, 200) },
    );
  });
});

/** The change order's key of a change, as the engine compares them (before the cheapest). */
type Key = [levers: number, wait: number, deposit: number, term: number, balloon: number];

function lessKey(a: Key, b: Key): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** Brute force: the least sufficient key over the whole grid, or null when no change within bounds works. */
function oracle(a: Approval, input: StructuringInput, world: World): Key | null {
  const catalogue = catalogueOf(world);
  const d0 = input.deal.deposit ?? 0;
  const t0 = input.deal.term ?? 0;
  const b0 = input.deal.balloon_amount;
  const { bounds } = input;
  const deposits = new Set<number>([d0]);
  for (let d = 0; d <= bounds.max_deposit; d++) deposits.add(d);
  for (let k = 0; (input.deposit_base * k) / 100 <= bounds.max_deposit; k++)
    deposits.add((input.deposit_base * k) / 100);
  const terms = new Set<number>([t0]);
  for (let t = bounds.min_term; t <= bounds.max_term; t++) terms.add(t);
  const balloons = new Set<number>([b0]);
  if (bounds.min_balloon !== null && bounds.max_balloon !== null)
    for (let b = Math.ceil(bounds.min_balloon); b <= bounds.max_balloon; b++) balloons.add(b);
  const sufficient = (deal: Deal): boolean =>
    evaluateApproval(a, deal, catalogue.ancestry)?.status === 'confirmed' &&
    priceDeal(catalogue.pricingIndex, deal, {
      bracketIds: new Set(a.rate_bracket_ids),
      organisationIds: new Set([a.organisation_id]),
    }).length > 0;
  const combos: Key[] = [];
  for (const d of deposits)
    for (const t of terms)
      for (const b of balloons) {
        const k: Key = [0, 0, Math.abs(d - d0), Math.abs(t - t0), Math.abs(b - b0)];
        k[0] = (k[2] > 1e-9 ? 1 : 0) + (k[3] > 0 ? 1 : 0) + (k[4] > 1e-9 ? 1 : 0);
        combos.push(k);
      }
  const values = new Map<Key, [number, number, number]>();
  let i = 0;
  for (const d of deposits) for (const t of terms) for (const b of balloons) values.set(combos[i++], [d, t, b]);
  combos.sort((x, y) => (lessKey(x, y) ? -1 : lessKey(y, x) ? 1 : 0));
  for (let levers = 0; levers <= 3; levers++) {
    for (let wait = 0; wait <= 8; wait++) {
      const base = advancedDeal(input.deal, wait);
      for (const k of combos) {
        if (k[0] !== levers) continue;
        const [d, t, b] = values.get(k) as [number, number, number];
        const deal = { ...base, deposit: d, term: t, balloon_amount: b };
        if (sufficient(deal)) return [levers, wait, k[2], k[3], k[4]];
      }
    }
  }
  return null;
}

describe('minimality: no smaller sufficient change exists on the grid', () => {
  it('the brute-force oracle agrees with every answer', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { world, input } = build(c);
        const answer = structureDeal(input, catalogueOf(world));
        for (const a of answer.approvals) {
          const s = a.suggestion;
          if (a.no_suggestion_reason === 'fact') continue;
          const found = oracle(a.approval, input, world);
          if (s === null) {
            expect(found).toBeNull();
            continue;
          }
          const levers = s.changes.length;
          const change = (lever: string) => {
            const ch = s.changes.find((x) => x.lever === lever);
            return ch === undefined ? 0 : Math.abs(ch.to - ch.from);
          };
          expect(found).toEqual([levers, s.wait_months, change('deposit'), change('term'), change('balloon')]);
        }
      }),
      // 80 cases in CI; each runs the brute-force grid, so a local run checks a share (testkit/sizes.ts).
      { seed: 20_261_128, numRuns: sized(80, 10) },
    );
  });
});
