/**
 * priceMarket: the brackets priceDeal prices, in the same order, with the figures the Matrix Calculator join reads
 * and each full row on demand, without a row object per bracket.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RepaymentFrequency } from '../../src/lib/vocabulary.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import { buildPricingIndex, priceDeal, priceMarket, type PricedMarket } from '../../src/modules/pricing/engine.ts';
import { makeDeal, syntheticCatalogue } from './fixtures.ts';

const SEED = 9_173;

/** Small catalogues of the bench's shape (fees, caps, rate loading, mixed compounding), a few seeds. */
const catalogues = [1, 2, 3].map((seed) => {
  const catalogue = syntheticCatalogue({ brackets: 900, financiers: 12, seed, mapEverythingAtRoot: seed === 3 });
  return { index: buildPricingIndex(catalogue), catalogue };
});

const deals = fc
  .record({
    catalogue: fc.integer({ min: 0, max: catalogues.length - 1 }),
    leaf: fc.nat(),
    cost: fc.integer({ min: 5_000, max: 600_000 }),
    depositShare: fc.constantFrom(0, 0, 0.1, 0.3),
    balloonShare: fc.constantFrom(0, 0, 0.1, 0.3, 0.9),
    term: fc.constantFrom(12, 24, 36, 48, 60, 72, 84, 96),
    frequency: fc.constantFrom<RepaymentFrequency>('monthly', 'weekly', 'daily', 'quarterly', 'yearly'),
    advance: fc.boolean(),
    brokerage: fc.constantFrom(0, 2, 4.5, 8, 1_500),
    brokeragePercentage: fc.boolean(),
    originationFee: fc.constantFrom(0, 990),
    docFeeFinanced: fc.constantFrom<Deal['doc_fee_financed']>(null, 'yes', 'no'),
    creditScore: fc.option(fc.integer({ min: 300, max: 900 })),
    homeOwner: fc.option(fc.boolean()),
  })
  .map((d) => {
    const { index, catalogue } = catalogues[d.catalogue];
    const deal = makeDeal({
      asset_value: catalogue.leafIds[d.leaf % catalogue.leafIds.length],
      cost: d.cost,
      cost_inc: d.cost,
      deposit: d.cost * d.depositShare,
      balloon_amount: d.cost * d.balloonShare,
      term: d.term,
      repayment_frequency: d.frequency,
      advance_arrears: d.advance ? 'advance' : 'arrears',
      brokerage: d.brokerage,
      brokerage_percentage: d.brokeragePercentage,
      origination_fee: d.originationFee,
      doc_fee_financed: d.docFeeFinanced,
      credit_score: d.creditScore,
      home_owner: d.homeOwner,
    });
    return { index, catalogue, deal };
  });

/** Everything a market answers, read at once. */
function read(market: PricedMarket) {
  return Array.from({ length: market.count }, (_, k) => ({
    id: market.rateBracketId(k),
    organisation: market.organisationId(k),
    eMin: market.eMin(k),
    repaymentMin: market.repaymentMin(k),
    row: market.row(k),
  }));
}

describe('priceMarket: the brackets priceDeal prices, in catalogue order, each row equal to priceDeal’s', () => {
  it('on random deals and catalogues: the same rows, in the unsorted order, and accessors that match each row', () => {
    let priced = 0;
    fc.assert(
      fc.property(deals, ({ index, deal }) => {
        const rows = priceDeal(index, deal, { sorted: false });
        const market = read(priceMarket(index, deal));
        priced += rows.length;
        expect(market.map((m) => m.row)).toEqual(rows);
        for (const [k, m] of market.entries()) {
          expect(m.id).toBe(rows[k].rate_bracket_id);
          expect(m.organisation).toBe(rows[k].organisation_id);
          expect(m.eMin).toBe(rows[k].e_min);
          expect(m.repaymentMin).toBe(rows[k].repayment_min);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
    expect(priced).toBeGreaterThan(1_000); // the deals do price: the property is not vacuous
  });

  it('honours the same options: organisations, brackets and card type', () => {
    fc.assert(
      fc.property(deals, fc.integer({ min: 1, max: 12 }), fc.nat(), ({ index, catalogue, deal }, org, stride) => {
        const organisationIds = new Set([org, org + 1]);
        const bracketIds = new Set(catalogue.brackets.filter((_, k) => k % ((stride % 5) + 1) === 0).map((b) => b.id));
        for (const options of [{ organisationIds }, { bracketIds }, { type: 'consumer' as const }]) {
          expect(read(priceMarket(index, deal, options)).map((m) => m.row)).toEqual(
            priceDeal(index, deal, { ...options, sorted: false }),
          );
        }
      }),
      { seed: SEED + 1, numRuns: 100 },
    );
  });

  it('a deal that prices nothing (no term, unknown asset) is an empty market', () => {
    const { index, catalogue } = catalogues[0];
    expect(priceMarket(index, makeDeal({ asset_value: catalogue.leafIds[0], term: null })).count).toBe(0);
    expect(priceMarket(index, makeDeal({ asset_value: -1 })).count).toBe(0);
  });
});

describe('priceMarket: a market is read at once, before the next pricing call on the same index', () => {
  const { index, catalogue } = catalogues[2];
  const deal = makeDeal({ asset_value: catalogue.leafIds[0], cost: 80_000, cost_inc: 80_000, term: 60 });

  it('a market read after a later call throws instead of answering the later deal’s figures', () => {
    const market = priceMarket(index, deal);
    expect(market.count).toBeGreaterThan(0);
    priceDeal(index, { ...deal, cost_inc: 90_000 });
    expect(() => market.row(0)).toThrow(/later pricing call/);
    expect(() => market.eMin(0)).toThrow(/later pricing call/);
  });

  it('a row outside the market is an error, not another call’s leftovers', () => {
    const market = priceMarket(index, deal);
    expect(() => market.row(market.count)).toThrow(RangeError);
    expect(() => market.row(-1)).toThrow(RangeError);
  });
});
