import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseDeal, type DealRequest } from '../../src/modules/deal/deal.ts';
import { buildPricingIndex, priceDeal } from '../../src/modules/pricing/engine.ts';
import { formatMoney, formatRate } from '../../src/modules/pricing/finance.ts';
import { makeAsset, makeBracket, makeProduct, makeRelation } from './fixtures.ts';

const NOW = new Date('2025-06-15T00:00:00Z');
const base: DealRequest = { cost: 50_000, asset_value: 1000, term: 60 };
const normalise = (request: Partial<DealRequest>) => normaliseDeal({ ...base, ...request }, NOW);

describe('Rule 5 GST flags', () => {
  it('cost_inc is cost * 1.1 when cost_gst is false, cost when true (exact for round dollars)', () => {
    expect(normalise({ cost_gst: false }).cost_inc).toBe(55_000);
    expect(normalise({}).cost_inc).toBe(55_000); // cost_gst defaults to false
    expect(normalise({ cost_gst: true }).cost_inc).toBe(50_000);
    expect(normalise({ cost: 12_345.67, cost_gst: false }).cost_inc).toBeCloseTo(13_580.237, 9);
  });

  it('a percentage deposit is of the GST-inclusive cost when deposit_gst, else of the GST-exclusive cost', () => {
    expect(normalise({ cost_gst: false, deposit: 10, deposit_percentage: true, deposit_gst: true }).deposit).toBe(
      5_500,
    );
    expect(normalise({ cost_gst: false, deposit: 10, deposit_percentage: true, deposit_gst: false }).deposit).toBe(
      5_000,
    );
    expect(
      normalise({ cost: 55_000, cost_gst: true, deposit: 10, deposit_percentage: true, deposit_gst: false }).deposit,
    ).toBe(5_000);
    expect(
      normalise({ cost: 55_000, cost_gst: true, deposit: 10, deposit_percentage: true, deposit_gst: true }).deposit,
    ).toBe(5_500);
  });

  it('a dollar deposit or balloon is used as given', () => {
    expect(normalise({ deposit: 4_000, deposit_gst: true }).deposit).toBe(4_000);
    expect(normalise({ deposit: 4_000, deposit_gst: false }).deposit).toBe(4_000);
    expect(normalise({ balloon: 150, balloon_gst: true }).balloon_amount).toBe(150); // a dollar balloon above 100 is ordinary
  });

  it('a percentage balloon follows the same GST rule', () => {
    expect(
      normalise({ cost_gst: false, balloon: 30, balloon_percentage: true, balloon_gst: true }).balloon_amount,
    ).toBe(16_500);
    expect(
      normalise({ cost_gst: false, balloon: 30, balloon_percentage: true, balloon_gst: false }).balloon_amount,
    ).toBe(15_000);
  });

  it('an unanswered deposit stays null (0 for pricing); an unanswered balloon is 0', () => {
    expect(normalise({ deposit: null }).deposit).toBeNull();
    expect(normalise({}).deposit).toBeNull();
    expect(normalise({ deposit: 0 }).deposit).toBe(0);
    expect(normalise({ balloon: null }).balloon_amount).toBe(0);
  });

  it('carries brokerage and origination fee flags for the engine (GST applied there)', () => {
    const deal = normalise({
      brokerage: 3,
      brokerage_percentage: true,
      brokerage_gst: true,
      origination_fee: 990,
      origination_fee_gst: true,
    });
    expect(deal).toMatchObject({
      brokerage: 3,
      brokerage_percentage: true,
      brokerage_gst: true,
      origination_fee: 990,
      origination_fee_gst: true,
    });
    expect(normalise({})).toMatchObject({
      brokerage: 0,
      brokerage_percentage: false,
      brokerage_gst: false,
      origination_fee: 0,
      origination_fee_gst: false,
    });
  });
});

describe('Rule 11 Brackets and ranges: deal fields the bounds read (normalisation, docs/pricing.md)', () => {
  it('asset_age in months from year_model: (Sydney calendar year - year_model) * 12, never negative', () => {
    expect(normalise({ year_model: 2019 }).asset_age).toBe(72);
    expect(normalise({ year_model: 2025 }).asset_age).toBe(0);
    expect(normalise({ year_model: 2026 }).asset_age).toBe(0); // next year's model sold today
    expect(normalise({ year_model: 2019, asset_age: 80 }).asset_age).toBe(80); // a sent asset_age wins
    expect(normalise({}).asset_age).toBeNull();
    // 31 Dec 2025 14:30 UTC is already 1 Jan 2026 in Sydney.
    expect(normaliseDeal({ ...base, year_model: 2025 }, new Date('2025-12-31T14:30:00Z')).asset_age).toBe(12);
    expect(normaliseDeal({ ...base, year_model: 2025 }, new Date('2025-12-31T12:00:00Z')).asset_age).toBe(0);
  });

  it('asset_age_plus_term = asset_age + term when not sent and both known', () => {
    expect(normalise({ year_model: 2019, term: 60 }).asset_age_plus_term).toBe(132);
    expect(normalise({ asset_age: 24, term: 36, asset_age_plus_term: 100 }).asset_age_plus_term).toBe(100);
    expect(normalise({ asset_age: 24, term: null }).asset_age_plus_term).toBeNull();
    expect(normalise({ term: 36 }).asset_age_plus_term).toBeNull();
  });

  it('borrower_age is mirrored into whichever end is not sent', () => {
    expect(normalise({ borrower_age: 40 })).toMatchObject({ borrower_age_youngest: 40, borrower_age_oldest: 40 });
    expect(normalise({ borrower_age: 40, borrower_age_oldest: 60 })).toMatchObject({
      borrower_age_youngest: 40,
      borrower_age_oldest: 60,
    });
    expect(normalise({})).toMatchObject({ borrower_age_youngest: null, borrower_age_oldest: null });
  });

  it('asset_owner is the same question as home_owner', () => {
    expect(normalise({ asset_owner: true }).home_owner).toBe(true);
    expect(normalise({ asset_owner: false }).home_owner).toBe(false);
    expect(normalise({ home_owner: true, asset_owner: true }).home_owner).toBe(true);
    expect(normalise({}).home_owner).toBeNull();
  });

  it('doc_fee_financed reads yes/no; anything else is unanswered', () => {
    expect(normalise({ doc_fee_financed: 'yes' }).doc_fee_financed).toBe('yes');
    expect(normalise({ doc_fee_financed: ' No ' }).doc_fee_financed).toBe('no');
    expect(normalise({ doc_fee_financed: 'both' }).doc_fee_financed).toBeNull();
    expect(normalise({ doc_fee_financed: null }).doc_fee_financed).toBeNull();
  });

  it('preferred_financier is de-duplicated; empty means every financier', () => {
    expect(normalise({ preferred_financier: [3, 1, 3] }).preferred_financier).toEqual([3, 1]);
    expect(normalise({ preferred_financier: [] }).preferred_financier).toBeNull();
  });

  it('defaults: commercial, arrears (none), monthly; term null stays null', () => {
    expect(normaliseDeal({ cost: 1, asset_value: 1 }, NOW)).toMatchObject({
      type: 'commercial',
      advance_arrears: 'none',
      repayment_frequency: 'monthly',
      term: null,
      cost_gst: false,
    });
  });

  it('is total: never throws, whatever it is given', () => {
    const fields = [
      'cost',
      'asset_value',
      'term',
      'cost_gst',
      'deposit',
      'deposit_percentage',
      'deposit_gst',
      'balloon',
      'balloon_percentage',
      'balloon_gst',
      'year_model',
      'asset_age',
      'borrower_age',
      'asset_owner',
      'home_owner',
      'doc_fee_financed',
      'preferred_financier',
      'repayment_frequency',
      'advance_arrears',
      'type',
      'lvr',
    ];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...fields), fc.anything()), fc.date(), (junk, now) => {
        expect(() => normaliseDeal(junk as unknown as DealRequest, now)).not.toThrow();
      }),
      { seed: 99, numRuns: 500 },
    );
    expect(() => normaliseDeal(null as unknown as DealRequest, new Date(Number.NaN))).not.toThrow();
  });
});

describe('Rule 7 Brokerage / Rule 8 Effective rate: from a request to a priced row', () => {
  it('reproduces the funded brokerage reference from API-shaped fields', () => {
    const index = buildPricingIndex({
      assets: [makeAsset({ id: 1000 })],
      products: [makeProduct({ id: 1 })],
      brackets: [makeBracket({ id: 100, base_min: 7.5, base_max: 7.5 })],
      relations: [makeRelation(1000, { product_id: 1 })],
    });
    const deal = normaliseDeal(
      {
        cost: 60_000,
        cost_gst: true,
        asset_value: 1000,
        term: 48,
        advance_arrears: 'advance',
        repayment_frequency: 'monthly',
        balloon: 20,
        balloon_percentage: true,
        balloon_gst: true,
        brokerage: 1_800,
        brokerage_gst: true,
        deposit: 0,
      },
      NOW,
    );
    const [row] = priceDeal(index, deal);
    expect(formatMoney(row.repayment_min)).toBe('1271.16');
    expect(formatRate(row.e_min)).toBe('8.8807');
    expect(row.balloon).toBe(12_000);
    expect(row.commission).toBe(1_800);
    expect(row.amount_financed).toBe(61_800);
    expect(row.rate_min).toBe(7.5);
  });
});
