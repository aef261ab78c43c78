/** The structuring engine's rules (docs/what-it-would-take.md), one describe per rule. */
import { describe, expect, it } from 'vitest';
import { oneCard, smallDeal, structure } from './fixtures.ts';

describe('a lever: the broker can change deposit, term or balloon', () => {
  it('a term too long for the approval is met by the nearest term it accepts', () => {
    const answer = structure(oneCard({ max_term: 10 }), smallDeal({ term: 12 }), { min_term: 1, max_term: 36 });
    const [only] = answer.approvals;
    expect(only.status).toBe('ruled_out');
    expect(only.blockers).toEqual([
      expect.objectContaining({
        criterion: 'max_term',
        field: 'term',
        kind: 'lever',
        lever: 'term',
        deal_value: 12,
        required: 10,
      }),
    ]);
    expect(only.suggestion?.changes).toEqual([{ lever: 'term', from: 12, to: 10 }]);
    expect(only.suggestion?.wait_months).toBe(0);
  });

  it('a minimum deposit is met by exactly that deposit', () => {
    const [only] = structure(oneCard({ min_deposit_amount: 250 }), smallDeal()).approvals;
    expect(only.blockers[0]).toMatchObject({ criterion: 'min_deposit_amount', kind: 'lever', lever: 'deposit' });
    expect(only.suggestion?.changes).toEqual([{ lever: 'deposit', from: 0, to: 250 }]);
  });

  it("an amount financed above the bracket's maximum is met by the least deposit bringing it into range", () => {
    const [only] = structure(oneCard({}, { max_amount: 900 }), smallDeal()).approvals;
    expect(only.status).toBe('unpriced');
    expect(only.blockers[0]).toMatchObject({ criterion: 'rate_bracket.max_amount', kind: 'lever', lever: 'deposit' });
    expect(only.suggestion?.changes).toEqual([{ lever: 'deposit', from: 0, to: 100 }]);
    expect(only.suggestion?.bracket.amount_financed).toBe(900);
  });
});

describe('time: ABN, GST and credit-file ages in months, borrower age in years', () => {
  it('an ABN younger than the minimum is eligible in the missing months, and the suggestion waits them', () => {
    const [only] = structure(oneCard({ min_abn_age: 24 }), smallDeal({ abn_age: 20 })).approvals;
    expect(only.blockers[0]).toMatchObject({ criterion: 'min_abn_age', kind: 'time', eligible_in_months: 4 });
    expect(only.suggestion).toMatchObject({ wait_months: 4, changes: [] });
    expect(only.suggestion?.deal.abn_age).toBe(24);
  });

  it('a borrower younger than the minimum is surely eligible in 12 months per missing year', () => {
    const [only] = structure(
      oneCard({ min_borrower_age: 21 }),
      smallDeal({ borrower_age_youngest: 19, borrower_age_oldest: 19 }),
    ).approvals;
    expect(only.blockers[0]).toMatchObject({ kind: 'time', eligible_in_months: 24 });
    expect(only.suggestion?.deal.borrower_age_youngest).toBe(21);
  });

  it('waiting that would break a maximum of the same approval gives no suggestion', () => {
    const [only] = structure(
      oneCard({ min_abn_age: 24, max_file_age: 10 }),
      smallDeal({ abn_age: 20, file_age: 8 }),
    ).approvals;
    expect(only.suggestion).toBeNull();
    expect(only.no_suggestion_reason).toBe('out_of_bounds');
  });
});

describe('a fact: never suggested as a change, and never searched', () => {
  it('a credit score below the minimum is a fact; the approval gets no suggestion', () => {
    const [only] = structure(
      oneCard({ min_credit_score: 600, max_term: 10 }),
      smallDeal({ credit_score: 500 }),
    ).approvals;
    expect(only.blockers.map((b) => b.kind).sort()).toEqual(['fact', 'lever']);
    expect(only.suggestion).toBeNull();
    expect(only.no_suggestion_reason).toBe('fact');
  });

  it('an unanswered question is a fact to supply, never guessed', () => {
    const [only] = structure(oneCard({ home_owner: true }), smallDeal()).approvals;
    expect(only.status).toBe('possible');
    expect(only.blockers).toEqual([expect.objectContaining({ field: 'home_owner', kind: 'fact', deal_value: null })]);
    expect(only.suggestion).toBeNull();
  });
});

describe('combination: levers together where one alone cannot', () => {
  it('more deposit brings the amount into range and a shorter term meets the term maximum', () => {
    const [only] = structure(oneCard({ max_term: 10 }, { max_amount: 800 }), smallDeal({ term: 12 }), {
      min_term: 1,
    }).approvals;
    expect(only.suggestion?.changes).toEqual([
      { lever: 'deposit', from: 0, to: 200 },
      { lever: 'term', from: 12, to: 10 },
    ]);
  });
});

describe('bounds: nothing beyond what the broker allows', () => {
  it('a deposit the client cannot pay is not suggested', () => {
    const [only] = structure(oneCard({ min_deposit_amount: 300 }), smallDeal(), { max_deposit: 299 }).approvals;
    expect(only.suggestion).toBeNull();
    expect(only.no_suggestion_reason).toBe('out_of_bounds');
  });

  it('a balloon moves only when a range is given', () => {
    const world = oneCard({}, {}, {});
    const deal = smallDeal({ balloon_amount: 5000 }); // more than the amount financed grows to: negative instalment
    expect(structure(world, deal).approvals[0].suggestion).toBeNull();
    const [only] = structure(world, deal, { min_balloon: 0, max_balloon: 5000 }).approvals;
    expect(only.suggestion?.changes.map((c) => c.lever)).toEqual(['balloon']);
    expect(only.suggestion?.bracket.repayment_min).toBeGreaterThanOrEqual(0);
  });
});

describe('none exists: said, not guessed', () => {
  it('an approval whose every term is outside the bounds has no suggestion', () => {
    const [only] = structure(oneCard({ min_term: 60 }), smallDeal(), { min_term: 12, max_term: 36 }).approvals;
    expect(only.suggestion).toBeNull();
    expect(only.no_suggestion_reason).toBe('out_of_bounds');
  });
});

describe('cheapest reachable row', () => {
  it('the lowest repayment is at the longest term the bounds allow', () => {
    const answer = structure(oneCard(), smallDeal({ term: 12 }), { min_term: 6, max_term: 24, max_deposit: 0 });
    expect(answer.approvals).toEqual([]); // the deal already gets the approval
    expect(answer.cheapest?.term).toBe(24);
    const byRate = structure(oneCard(), smallDeal({ term: 12 }), { min_term: 6, max_term: 24, max_deposit: 0 }, 'rate');
    expect(byRate.cheapest).not.toBeNull();
  });
});
