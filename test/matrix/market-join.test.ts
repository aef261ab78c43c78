/**
 * The Matrix Calculator join on the pricing engine's market (the service's call) answers exactly what it answers on
 * the engine's rows: the same rows, order, figures and counts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocLevel, RepaymentFrequency } from '../../src/lib/vocabulary.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import type { ApprovalOutcome } from '../../src/modules/matrix/criteria.ts';
import { compareJoinedRows, joinMatrixCalculator } from '../../src/modules/matrix/join.ts';
import { matrixCalculatorRows } from '../../src/modules/matrix/rows.ts';
import { buildPricingIndex, priceDeal, priceMarket } from '../../src/modules/pricing/engine.ts';
import { makeDeal, syntheticCatalogue } from '../pricing/fixtures.ts';
import { approval, outcome } from './fixtures.ts';

const SEED = 4_211;
const FINANCIERS = 12;

const catalogues = [11, 12].map((seed) => {
  const catalogue = syntheticCatalogue({ brackets: 900, financiers: FINANCIERS, seed, mapEverythingAtRoot: true });
  return { index: buildPricingIndex(catalogue), catalogue };
});
/** Two financiers share a name, so the name tie-break and the approval id both get exercised. */
const NAMES = new Map(
  Array.from({ length: FINANCIERS }, (_, k) => [k + 1, k === 3 ? 'Financier 3' : `Financier ${k + 1}`]),
);

const deals = fc.record({
  leaf: fc.nat(),
  cost: fc.integer({ min: 5_000, max: 600_000 }),
  balloonShare: fc.constantFrom(0, 0, 0.2, 0.9),
  term: fc.constantFrom(24, 36, 48, 60, 72, 84),
  frequency: fc.constantFrom<RepaymentFrequency>('monthly', 'weekly', 'quarterly'),
  advance: fc.boolean(),
  brokerage: fc.constantFrom(0, 3, 8),
  originationFee: fc.constantFrom(0, 990),
});

/**
 * Random approvals over the catalogue's brackets: links to the approval's own financier's brackets, to another
 * financier's, to ids that do not exist, and repeated links; either status; any doc level. Half the links name a
 * bracket the deal prices and most approvals belong to the financier of their first link, so that many join.
 */
const approvals = fc.array(
  fc.record({
    organisation: fc.integer({ min: 1, max: FINANCIERS }),
    ownFirstLink: fc.boolean(),
    /** A link to one of the brackets the deal prices (the n-th, wrapping), or to bracket id n, priced or not. */
    links: fc.array(fc.record({ priced: fc.boolean(), n: fc.integer({ min: -5, max: 960 }) }), { maxLength: 8 }),
    possible: fc.boolean(),
    doc: fc.constantFrom<DocLevel>('low_doc', 'lite_doc', 'full_doc'),
  }),
  { maxLength: 120 },
);

type DealShape = typeof deals extends fc.Arbitrary<infer T> ? T : never;

function toDeal(d: DealShape, leaves: number[]): Deal {
  return makeDeal({
    asset_value: leaves[d.leaf % leaves.length],
    cost: d.cost,
    cost_inc: d.cost,
    balloon_amount: d.cost * d.balloonShare,
    term: d.term,
    repayment_frequency: d.frequency,
    advance_arrears: d.advance ? 'advance' : 'arrears',
    brokerage: d.brokerage,
    brokerage_percentage: true,
    origination_fee: d.originationFee,
  });
}

describe('Matrix Calculator join on the market: the same answer as the join on the rows', () => {
  it('on random deals and approvals: rows (ids, order, figures), priced_count and destination_count', () => {
    let joined = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: catalogues.length - 1 }), deals, approvals, (c, d, specs) => {
        const { index, catalogue } = catalogues[c];
        const deal = toDeal(d, catalogue.leafIds);
        const organisationOf = new Map(catalogue.brackets.map((b) => [b.id, b.organisation_id]));
        const rows = priceDeal(index, deal, { sorted: false });
        const outcomes: ApprovalOutcome[] = specs.map((s, k) => {
          const links = s.links.map((l) =>
            l.priced && rows.length > 0 ? rows[Math.abs(l.n) % rows.length].rate_bracket_id : l.n,
          );
          return outcome(
            approval({
              id: k + 1,
              organisation_id: (s.ownFirstLink && organisationOf.get(links[0])) || s.organisation,
              doc_level: s.doc,
              rate_bracket_ids: links,
            }),
            s.possible ? { status: 'possible', missing_fields: ['abn_age'] } : {},
          );
        });
        const before = joinMatrixCalculator(outcomes, rows, NAMES);
        const after = joinMatrixCalculator(outcomes, priceMarket(index, deal), NAMES);
        joined += after.rows.length;
        expect(after.priced_count).toBe(before.priced_count);
        expect(after.destination_count).toBe(before.destination_count);
        expect(after.rows).toEqual(before.rows);
        expect(after.rows).toEqual([...after.rows].sort(compareJoinedRows));
        expect(matrixCalculatorRows(after.rows, { masked: true })).toEqual(
          matrixCalculatorRows(before.rows, { masked: true }),
        );
      }),
      { seed: SEED, numRuns: 200 },
    );
    expect(joined).toBeGreaterThan(200); // approvals do join: the property is not vacuous
  });

  it('a bracket several approvals show is built once and shared by their rows', () => {
    const { index, catalogue } = catalogues[0];
    const deal = makeDeal({ asset_value: catalogue.leafIds[0], cost: 80_000, cost_inc: 80_000, term: 60 });
    const market = priceMarket(index, deal);
    expect(market.count).toBeGreaterThan(0);
    const id = market.rateBracketId(0);
    const organisation_id = market.organisationId(0);
    const outcomes = [1, 2].map((k) => outcome(approval({ id: k, organisation_id, rate_bracket_ids: [id] })));
    const { rows } = joinMatrixCalculator(outcomes, market, NAMES);
    expect(rows).toHaveLength(2);
    expect(rows[0].bracket).toBe(rows[1].bracket);
    expect(rows[0].bracket.rate_bracket_id).toBe(id);
  });
});
