import { describe, expect, it } from 'vitest';
import type { Approval } from '../../src/modules/catalogue/model.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import {
  type ApprovalOutcome,
  buildAssetAncestry,
  buildCriteriaTable,
  evaluateApproval,
  evaluateApprovals,
  MISSING_FIELD_NAMES,
} from '../../src/modules/matrix/criteria.ts';
import { groupByFinancier, sortApprovalsWithinFinancier } from '../../src/modules/matrix/results.ts';
import { ancestry, approval, ASSETS, assetNode, deal } from './fixtures.ts';

const evaluate = (a: Approval, d: Deal) => evaluateApproval(a, d, ancestry);

/** The outcome in the spec's words: 'dropped', or the status with its missing fields. */
function verdict(a: Approval, d: Deal): 'dropped' | { status: string; missing_fields: string[] } {
  const o = evaluate(a, d);
  return o === null ? 'dropped' : { status: o.status, missing_fields: o.missing_fields };
}
const CONFIRMED = { status: 'confirmed', missing_fields: [] };
const possible = (...missing_fields: string[]) => ({ status: 'possible', missing_fields });

// ---------------------------------------------------------------------------------------------
// The state table
// ---------------------------------------------------------------------------------------------

describe('Approval evaluation outcome: confirmed — every criterion the approval checks was supplied and satisfied', () => {
  it('an approval that checks nothing is confirmed for any deal', () => {
    expect(verdict(approval(), deal())).toEqual(CONFIRMED);
  });

  it('every checked criterion answered and satisfied gives confirmed with no missing fields', () => {
    const a = approval({
      min_term: 12,
      max_term: 60,
      min_abn_age: 24,
      min_credit_score: 500,
      home_owner: true,
      asset_state: 'new',
      transaction_types: ['purchase'],
      industries: ['Construction'],
      asset_ids: [ASSETS.CARS],
      min_deposit_percentage: 10,
    });
    const d = deal({
      term: 48,
      abn_age: 36,
      credit_score: 700,
      home_owner: true,
      asset_state: 'new',
      transaction_type: 'purchase',
      industry: 'construction',
      deposit: 5_000,
    });
    expect(verdict(a, d)).toEqual(CONFIRMED);
  });
});

describe('Approval evaluation outcome: possible — a checked criterion had no input', () => {
  it('returns the approval with the outstanding answers in missing_fields, sorted and unique', () => {
    const a = approval({
      max_term: 60,
      min_term: 12, // two bounds on one field: `term` listed once
      min_credit_score: 500,
      min_abn_age: 12,
      home_owner: true,
      industries: ['Mining'],
    });
    expect(verdict(a, deal())).toEqual(possible('abn_age', 'credit_score', 'home_owner', 'industry', 'term'));
  });

  it('a blank input is never a violation, however strict the criterion', () => {
    const a = approval({ max_term: 1, min_abn_age: 999, max_credit_score: 0, asset_state: 'demo' });
    expect(evaluate(a, deal())).not.toBeNull();
  });

  it('answered criteria still count: one missing answer alone makes it possible', () => {
    const a = approval({ max_term: 60, min_abn_age: 12 });
    expect(verdict(a, deal({ term: 36 }))).toEqual(possible('abn_age'));
  });

  it('the missing-field vocabulary is the request field names, sorted', () => {
    expect([...MISSING_FIELD_NAMES]).toEqual([...MISSING_FIELD_NAMES].sort());
    expect(new Set(MISSING_FIELD_NAMES).size).toBe(MISSING_FIELD_NAMES.length);
  });
});

describe('Approval evaluation outcome: dropped — a supplied input violates a criterion', () => {
  it('the approval is omitted, even when other criteria are unanswered', () => {
    const a = approval({ max_term: 60, min_abn_age: 24 });
    expect(verdict(a, deal({ term: 72 }))).toBe('dropped');
  });

  it('evaluateApprovals omits dropped approvals entirely', () => {
    const keep = approval({ id: 1, max_term: 60 });
    const drop = approval({ id: 2, max_term: 24 });
    const outcomes = evaluateApprovals([keep, drop], deal({ term: 48 }), ancestry);
    expect(outcomes.map((o) => o.approval.id)).toEqual([1]);
  });
});

describe("Approval: a null criterion means 'not checked', so a blank criterion can never disqualify a deal", () => {
  it('a deal answering everything at extreme values is confirmed by an approval with every criterion blank', () => {
    const d = deal({
      term: 600,
      deposit: 0,
      abn_age: 0,
      gst_age: 0,
      asset_age: 999,
      borrower_age_youngest: 17,
      borrower_age_oldest: 99,
      file_age: 0,
      credit_score: 0,
      industry: 'Mining',
      asset_state: 'used',
      transaction_type: 'capital_raise',
      home_owner: false,
      private_sale: true,
      sale_hire_back: true,
      cost: 99_000_000,
      asset_value: 9_999,
    });
    expect(verdict(approval(), d)).toEqual(CONFIRMED);
  });
});

// ---------------------------------------------------------------------------------------------
// Integer range criteria: one table, every state-table row for each
// ---------------------------------------------------------------------------------------------

type RangeInput = 'term' | 'abn_age' | 'gst_age' | 'asset_age' | 'file_age' | 'credit_score';
interface RangeCriterion {
  min: keyof Approval;
  max: keyof Approval;
  input: RangeInput;
  /** Bounds used by the tests, with a value inside them. */
  lo: number;
  hi: number;
  inside: number;
}

const RANGE_CRITERIA: RangeCriterion[] = [
  { min: 'min_term', max: 'max_term', input: 'term', lo: 12, hi: 60, inside: 36 },
  { min: 'min_abn_age', max: 'max_abn_age', input: 'abn_age', lo: 24, hi: 240, inside: 48 },
  { min: 'min_gst_age', max: 'max_gst_age', input: 'gst_age', lo: 12, hi: 120, inside: 24 },
  { min: 'min_asset_age', max: 'max_asset_age', input: 'asset_age', lo: 6, hi: 84, inside: 30 },
  { min: 'min_file_age', max: 'max_file_age', input: 'file_age', lo: 12, hi: 360, inside: 60 },
  { min: 'min_credit_score', max: 'max_credit_score', input: 'credit_score', lo: 500, hi: 1_000, inside: 650 },
];

const bounds = (c: RangeCriterion, min: number | null, max: number | null) =>
  approval({ [c.min]: min, [c.max]: max } as Partial<Approval>);
const answering = (c: RangeCriterion, value: number | null) => deal({ [c.input]: value } as Partial<Deal>);

describe.each(RANGE_CRITERIA)('Criterion $min / $max vs `$input`', (c) => {
  it('blank on the approval: never checked, whatever the answer', () => {
    for (const value of [null, 0, c.lo - 1, c.hi + 1, 1_000_000]) {
      expect(verdict(bounds(c, null, null), answering(c, value))).toEqual(CONFIRMED);
    }
  });

  it(`possible — no input: missing_fields names \`${c.input}\``, () => {
    expect(verdict(bounds(c, c.lo, null), answering(c, null))).toEqual(possible(c.input));
    expect(verdict(bounds(c, null, c.hi), answering(c, null))).toEqual(possible(c.input));
    expect(verdict(bounds(c, c.lo, c.hi), answering(c, null))).toEqual(possible(c.input));
  });

  it('confirmed — the answer is within the bounds', () => {
    expect(verdict(bounds(c, c.lo, c.hi), answering(c, c.inside))).toEqual(CONFIRMED);
    expect(verdict(bounds(c, c.lo, null), answering(c, c.hi * 10))).toEqual(CONFIRMED);
    expect(verdict(bounds(c, null, c.hi), answering(c, 0))).toEqual(CONFIRMED);
  });

  it('dropped — the answer is below the minimum', () => {
    expect(verdict(bounds(c, c.lo, c.hi), answering(c, c.lo - 1))).toBe('dropped');
    expect(verdict(bounds(c, c.lo, null), answering(c, 0))).toBe('dropped');
  });

  it('dropped — the answer is above the maximum', () => {
    expect(verdict(bounds(c, c.lo, c.hi), answering(c, c.hi + 1))).toBe('dropped');
    expect(verdict(bounds(c, null, c.hi), answering(c, c.hi + 1))).toBe('dropped');
  });

  it('bounds are inclusive', () => {
    expect(verdict(bounds(c, c.lo, c.hi), answering(c, c.lo))).toEqual(CONFIRMED);
    expect(verdict(bounds(c, c.lo, c.hi), answering(c, c.hi))).toEqual(CONFIRMED);
    expect(verdict(bounds(c, c.inside, c.inside), answering(c, c.inside))).toEqual(CONFIRMED);
  });

  it('a minimum of 0 cannot be failed by any answer, so no answer is not reported missing', () => {
    expect(verdict(bounds(c, 0, null), answering(c, null))).toEqual(CONFIRMED);
    // ... but a maximum alongside it still needs the answer.
    expect(verdict(bounds(c, 0, c.hi), answering(c, null))).toEqual(possible(c.input));
  });
});

describe('MatrixApprovalResult max_term: bounds a supplied `term`, so an approval capped below the requested term is dropped', () => {
  it('capped below the requested term: dropped', () => {
    expect(verdict(approval({ max_term: 48 }), deal({ term: 60 }))).toBe('dropped');
  });
  it('POST /matrix/ omitting `term` returns approvals that bound the term as possible with `term` in missing_fields', () => {
    expect(verdict(approval({ max_term: 48 }), deal({ term: null }))).toEqual(possible('term'));
    expect(verdict(approval({ min_term: 24 }), deal({ term: null }))).toEqual(possible('term'));
  });
});

describe('Criterion min_asset_age / max_asset_age: `asset_age` (also answered by `year_model`)', () => {
  it('the missing field is named `asset_age`: the request layer derives asset_age from year_model', () => {
    expect(evaluate(approval({ max_asset_age: 60 }), deal())?.missing_fields).toEqual(['asset_age']);
  });
});

// ---------------------------------------------------------------------------------------------
// Asset cost (always supplied, GST-inclusive)
// ---------------------------------------------------------------------------------------------

describe('Criterion min_asset_cost / max_asset_cost vs `cost`, compared GST-inclusive', () => {
  it('blank on the approval: never checked', () => {
    expect(verdict(approval(), deal({ cost: 1 }))).toEqual(CONFIRMED);
  });
  it('cost is always supplied, so it never makes an approval possible', () => {
    expect(verdict(approval({ min_asset_cost: 10_000, max_asset_cost: 100_000 }), deal({ cost: 50_000 }))).toEqual(
      CONFIRMED,
    );
  });
  it('dropped — below the minimum or above the maximum', () => {
    expect(verdict(approval({ min_asset_cost: 60_000 }), deal({ cost: 50_000 }))).toBe('dropped');
    expect(verdict(approval({ max_asset_cost: 40_000 }), deal({ cost: 50_000 }))).toBe('dropped');
  });
  it('bounds are inclusive', () => {
    expect(verdict(approval({ min_asset_cost: 50_000, max_asset_cost: 50_000 }), deal({ cost: 50_000 }))).toEqual(
      CONFIRMED,
    );
  });
  it('a GST-exclusive cost is compared as cost x 1.1, not as entered', () => {
    const exGst = deal({ cost: 50_000, cost_gst: false }); // 55,000 inclusive
    expect(verdict(approval({ max_asset_cost: 52_000 }), exGst)).toBe('dropped');
    expect(verdict(approval({ min_asset_cost: 52_000 }), exGst)).toEqual(CONFIRMED);
  });
  it('an inclusive cost equal to the bound holds despite binary floating point (50,000 x 1.1 != 55,000 exactly)', () => {
    const exGst = deal({ cost: 50_000, cost_gst: false });
    expect(exGst.cost_inc).not.toBe(55_000); // the hazard this guards against
    expect(verdict(approval({ max_asset_cost: 55_000 }), exGst)).toEqual(CONFIRMED);
    expect(verdict(approval({ min_asset_cost: 55_000 }), exGst)).toEqual(CONFIRMED);
    expect(verdict(approval({ max_asset_cost: 54_999.99 }), exGst)).toBe('dropped');
  });
});

// ---------------------------------------------------------------------------------------------
// Borrower age: min vs the youngest, max vs the oldest
// ---------------------------------------------------------------------------------------------

describe('Criterion min_borrower_age vs `borrower_age_youngest`; max_borrower_age vs `borrower_age_oldest`', () => {
  const ages = (young: number | null, old: number | null) =>
    deal({ borrower_age_youngest: young, borrower_age_oldest: old });

  it('blank on the approval: never checked', () => {
    expect(verdict(approval(), ages(16, 99))).toEqual(CONFIRMED);
  });
  it('possible — no input: the minimum asks for `borrower_age_youngest`, the maximum for `borrower_age_oldest`', () => {
    expect(verdict(approval({ min_borrower_age: 21 }), ages(null, null))).toEqual(possible('borrower_age_youngest'));
    expect(verdict(approval({ max_borrower_age: 70 }), ages(null, null))).toEqual(possible('borrower_age_oldest'));
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(null, null))).toEqual(
      possible('borrower_age_oldest', 'borrower_age_youngest'),
    );
  });
  it('confirmed — the youngest meets the minimum and the oldest the maximum', () => {
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(25, 65))).toEqual(CONFIRMED);
  });
  it('dropped — the youngest is below the minimum', () => {
    expect(verdict(approval({ min_borrower_age: 21 }), ages(19, 45))).toBe('dropped');
  });
  it('dropped — the oldest is above the maximum', () => {
    expect(verdict(approval({ max_borrower_age: 70 }), ages(30, 71))).toBe('dropped');
  });
  it('bounds are inclusive', () => {
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(21, 70))).toEqual(CONFIRMED);
  });
  it('`borrower_age` (mirrored into both ends) answers both bounds', () => {
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(40, 40))).toEqual(CONFIRMED);
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(75, 75))).toBe('dropped');
  });
  it('one end answered asks only for the other', () => {
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(30, null))).toEqual(
      possible('borrower_age_oldest'),
    );
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(null, 60))).toEqual(
      possible('borrower_age_youngest'),
    );
  });
  it('dropped — the answered end already fails the other bound (youngest <= oldest), so possible would promise nothing', () => {
    // Youngest 75 > max 70: the oldest is at least 75.
    expect(verdict(approval({ max_borrower_age: 70 }), ages(75, null))).toBe('dropped');
    // Oldest 19 < min 21: the youngest is at most 19.
    expect(verdict(approval({ min_borrower_age: 21 }), ages(null, 19))).toBe('dropped');
  });
  it('a swapped pair is read by its real youngest and oldest', () => {
    expect(verdict(approval({ min_borrower_age: 21, max_borrower_age: 70 }), ages(65, 25))).toEqual(CONFIRMED);
    expect(verdict(approval({ max_borrower_age: 70 }), ages(71, 30))).toBe('dropped');
  });
});

// ---------------------------------------------------------------------------------------------
// Tri-state booleans
// ---------------------------------------------------------------------------------------------

describe.each(['home_owner', 'private_sale', 'sale_hire_back'] as const)(
  'Criterion %s: tri-state — null = not checked; true/false must match',
  (field) => {
    const requiring = (value: boolean | null) => approval({ [field]: value });
    const answered = (value: boolean | null) => deal({ [field]: value });

    it('null on the approval: never checked', () => {
      for (const answer of [null, true, false]) expect(verdict(requiring(null), answered(answer))).toEqual(CONFIRMED);
    });
    it(`possible — no input: missing_fields names \`${field}\``, () => {
      expect(verdict(requiring(true), answered(null))).toEqual(possible(field));
      expect(verdict(requiring(false), answered(null))).toEqual(possible(field));
    });
    it('confirmed — the answer matches', () => {
      expect(verdict(requiring(true), answered(true))).toEqual(CONFIRMED);
      expect(verdict(requiring(false), answered(false))).toEqual(CONFIRMED);
    });
    it('dropped — the answer differs', () => {
      expect(verdict(requiring(true), answered(false))).toBe('dropped');
      expect(verdict(requiring(false), answered(true))).toBe('dropped');
    });
  },
);

// ---------------------------------------------------------------------------------------------
// Enumerations and lists
// ---------------------------------------------------------------------------------------------

describe('Criterion asset_state vs `asset_state` (null or `none` on the approval = not checked)', () => {
  it('null or none on the approval: never checked', () => {
    for (const state of [null, 'none'] as const) {
      for (const answer of [null, 'new', 'used', 'demo', 'none'] as const) {
        expect(verdict(approval({ asset_state: state }), deal({ asset_state: answer }))).toEqual(CONFIRMED);
      }
    }
  });
  it('possible — no input (or `none`, which says nothing about the asset): missing_fields names `asset_state`', () => {
    expect(verdict(approval({ asset_state: 'new' }), deal({ asset_state: null }))).toEqual(possible('asset_state'));
    expect(verdict(approval({ asset_state: 'new' }), deal({ asset_state: 'none' }))).toEqual(possible('asset_state'));
  });
  it('confirmed — the state matches', () => {
    expect(verdict(approval({ asset_state: 'used' }), deal({ asset_state: 'used' }))).toEqual(CONFIRMED);
  });
  it('dropped — another state', () => {
    expect(verdict(approval({ asset_state: 'new' }), deal({ asset_state: 'used' }))).toBe('dropped');
    expect(verdict(approval({ asset_state: 'demo' }), deal({ asset_state: 'new' }))).toBe('dropped');
  });
});

describe('Criterion transaction_types vs `transaction_type` (empty = every transaction type)', () => {
  it('empty on the approval: never checked', () => {
    for (const answer of [null, 'purchase', 'refinance', 'sale_hire_back', 'capital_raise'] as const) {
      expect(verdict(approval(), deal({ transaction_type: answer }))).toEqual(CONFIRMED);
    }
  });
  it('possible — no input: missing_fields names `transaction_type`', () => {
    expect(verdict(approval({ transaction_types: ['purchase'] }), deal())).toEqual(possible('transaction_type'));
  });
  it('confirmed — the type is listed', () => {
    const a = approval({ transaction_types: ['purchase', 'refinance'] });
    expect(verdict(a, deal({ transaction_type: 'refinance' }))).toEqual(CONFIRMED);
  });
  it('dropped — the type is not listed', () => {
    const a = approval({ transaction_types: ['purchase', 'refinance'] });
    expect(verdict(a, deal({ transaction_type: 'capital_raise' }))).toBe('dropped');
  });
  it('a list naming all four types cannot be failed, so no answer is not reported missing', () => {
    const a = approval({ transaction_types: ['capital_raise', 'sale_hire_back', 'refinance', 'purchase'] });
    expect(verdict(a, deal())).toEqual(CONFIRMED);
  });
});

describe('Criterion industries vs `industry` (ANZSIC divisions; empty = every industry)', () => {
  const listing = approval({ industries: ['Agriculture, Forestry and Fishing', 'Construction'] });

  it('empty on the approval: never checked', () => {
    expect(verdict(approval(), deal({ industry: 'Mining' }))).toEqual(CONFIRMED);
    expect(verdict(approval(), deal({ industry: null }))).toEqual(CONFIRMED);
  });
  it('possible — no input (null or blank): missing_fields names `industry`', () => {
    expect(verdict(listing, deal({ industry: null }))).toEqual(possible('industry'));
    expect(verdict(listing, deal({ industry: '  ' }))).toEqual(possible('industry'));
  });
  it('confirmed — the division is listed, compared case-insensitively as stored', () => {
    expect(verdict(listing, deal({ industry: 'Construction' }))).toEqual(CONFIRMED);
    expect(verdict(listing, deal({ industry: 'CONSTRUCTION' }))).toEqual(CONFIRMED);
    expect(verdict(listing, deal({ industry: ' agriculture, forestry and fishing ' }))).toEqual(CONFIRMED);
    expect(verdict(approval({ industries: ['e'] }), deal({ industry: 'E' }))).toEqual(CONFIRMED);
  });
  it('dropped — the division is not listed', () => {
    expect(verdict(listing, deal({ industry: 'Mining' }))).toBe('dropped');
    expect(verdict(listing, deal({ industry: 'Construct' }))).toBe('dropped');
  });
});

// ---------------------------------------------------------------------------------------------
// Asset tree coverage
// ---------------------------------------------------------------------------------------------

describe('Criterion asset_ids vs `asset_value`: a member matches itself and everything beneath it in the asset tree', () => {
  const covering = (...asset_ids: number[]) => approval({ asset_ids });
  const quoting = (asset_value: number) => deal({ asset_value });

  it('empty = every asset', () => {
    expect(verdict(covering(), quoting(ASSETS.EXCAVATOR))).toEqual(CONFIRMED);
  });
  it('the asset itself is covered', () => {
    expect(verdict(covering(ASSETS.SEDAN), quoting(ASSETS.SEDAN))).toEqual(CONFIRMED);
  });
  it('a category member covers the leaf beneath it (parent and grandparent)', () => {
    expect(verdict(covering(ASSETS.CARS), quoting(ASSETS.SEDAN))).toEqual(CONFIRMED);
    expect(verdict(covering(ASSETS.MOTOR_VEHICLES), quoting(ASSETS.PRIME_MOVER))).toEqual(CONFIRMED);
    expect(verdict(covering(ASSETS.CARS), quoting(ASSETS.CARS))).toEqual(CONFIRMED);
  });
  it('a sibling is not covered', () => {
    expect(verdict(covering(ASSETS.HATCH), quoting(ASSETS.SEDAN))).toBe('dropped');
    expect(verdict(covering(ASSETS.TRUCKS), quoting(ASSETS.SEDAN))).toBe('dropped');
  });
  it('another branch is not covered', () => {
    expect(verdict(covering(ASSETS.YELLOW_GOODS), quoting(ASSETS.SEDAN))).toBe('dropped');
  });
  it('a descendant member does not cover its ancestor: a leaf does not stand for its category', () => {
    expect(verdict(covering(ASSETS.SEDAN), quoting(ASSETS.CARS))).toBe('dropped');
  });
  it('any one member covering is enough', () => {
    expect(verdict(covering(ASSETS.EXCAVATOR, ASSETS.HATCH, ASSETS.CARS), quoting(ASSETS.SEDAN))).toEqual(CONFIRMED);
  });
  it('asset_value is always supplied, so coverage never makes an approval possible', () => {
    expect(evaluate(covering(ASSETS.CARS), quoting(ASSETS.SEDAN))?.missing_fields).toEqual([]);
  });
  it('an asset id missing from the tree is covered only by itself', () => {
    expect(verdict(covering(999), quoting(999))).toEqual(CONFIRMED);
    expect(verdict(covering(ASSETS.MOTOR_VEHICLES), quoting(999))).toBe('dropped');
  });
  it('a deep tree (beyond the short-line scan) still resolves every ancestor', () => {
    const chain = Array.from({ length: 40 }, (_, i) => assetNode(i + 1, `Level ${i + 1}`, i === 0 ? null : i));
    const deep = buildAssetAncestry(chain);
    expect(evaluateApproval(approval({ asset_ids: [1] }), deal({ asset_value: 40 }), deep)).not.toBeNull();
    expect(evaluateApproval(approval({ asset_ids: [41] }), deal({ asset_value: 40 }), deep)).toBeNull();
  });
});

describe('buildAssetAncestry: the asset itself plus all its ancestors (cycle-safe, OWASP API4)', () => {
  it('gives the asset and each ancestor', () => {
    expect([...ancestry.selfAndAncestors(ASSETS.PRIME_MOVER)].sort((a, b) => a - b)).toEqual([1, 5, 6]);
    expect([...ancestry.selfAndAncestors(ASSETS.YELLOW_GOODS)]).toEqual([10]);
  });
  it('terminates on a parent_id cycle and still covers every node on it', () => {
    const cyclic = buildAssetAncestry([assetNode(1, 'A', 3), assetNode(2, 'B', 1), assetNode(3, 'C', 2)]);
    expect([...cyclic.selfAndAncestors(2)].sort()).toEqual([1, 2, 3]);
    const selfLoop = buildAssetAncestry([assetNode(7, 'Self', 7)]);
    expect([...selfLoop.selfAndAncestors(7)]).toEqual([7]);
  });
  it('covers(): empty members cover everything; otherwise self or an ancestor must be listed', () => {
    expect(ancestry.covers([], ASSETS.SEDAN)).toBe(true);
    expect(ancestry.covers([ASSETS.CARS], ASSETS.SEDAN)).toBe(true);
    expect(ancestry.covers([ASSETS.HATCH], ASSETS.SEDAN)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Deposit
// ---------------------------------------------------------------------------------------------

describe('MatrixApprovalResult deposit_required: the deposit the deal needs, resolved from deposit_percentage and deposit_amount', () => {
  const required = (a: Partial<Approval>, d: Partial<Deal> = {}) => evaluate(approval(a), deal(d))?.deposit_required;

  it('neither set: no deposit criterion, deposit_required null', () => {
    const o = evaluate(approval(), deal({ deposit: null }));
    expect(o).toMatchObject({
      deposit_percentage: null,
      deposit_amount: null,
      deposit_required: null,
      status: 'confirmed',
    });
  });
  it('percentage only: that percentage of the GST-inclusive cost', () => {
    expect(required({ min_deposit_percentage: 10 }, { cost: 50_000 })).toBe(5_000);
    expect(required({ min_deposit_percentage: 10 }, { cost: 50_000, cost_gst: false })).toBeCloseTo(5_500, 9);
  });
  it('amount only: that amount', () => {
    expect(required({ min_deposit_amount: 2_500 })).toBe(2_500);
  });
  it('both: the larger of the two, in dollars', () => {
    expect(required({ min_deposit_percentage: 10, min_deposit_amount: 2_500 }, { cost: 50_000 })).toBe(5_000);
    expect(required({ min_deposit_percentage: 10, min_deposit_amount: 8_000 }, { cost: 50_000 })).toBe(8_000);
  });
  it('the outcome carries the approval deposit_percentage and deposit_amount', () => {
    const o = evaluate(approval({ min_deposit_percentage: 10, min_deposit_amount: 8_000 }), deal({ deposit: 9_000 }));
    expect(o).toMatchObject({ deposit_percentage: 10, deposit_amount: 8_000, deposit_required: 8_000 });
  });
});

describe('Criterion min_deposit_percentage / min_deposit_amount vs `deposit`', () => {
  const a = approval({ min_deposit_percentage: 10, min_deposit_amount: 2_500 }); // requires 5,000 on 50,000

  it('blank on the approval: never checked', () => {
    expect(verdict(approval(), deal({ deposit: null }))).toEqual(CONFIRMED);
    expect(verdict(approval(), deal({ deposit: 0 }))).toEqual(CONFIRMED);
  });
  it('possible — no input: missing_fields names `deposit`', () => {
    expect(verdict(a, deal({ deposit: null }))).toEqual(possible('deposit'));
    expect(verdict(approval({ min_deposit_amount: 1 }), deal({ deposit: null }))).toEqual(possible('deposit'));
  });
  it('confirmed — the deposit meets the requirement', () => {
    expect(verdict(a, deal({ deposit: 6_000 }))).toEqual(CONFIRMED);
  });
  it('dropped — the deposit is below the requirement (either minimum)', () => {
    expect(verdict(a, deal({ deposit: 4_999.99 }))).toBe('dropped');
    expect(verdict(approval({ min_deposit_amount: 2_500 }), deal({ deposit: 2_000 }))).toBe('dropped');
    expect(verdict(approval({ min_deposit_percentage: 5 }), deal({ deposit: 0 }))).toBe('dropped');
  });
  it('bounds are inclusive, also when the percentage lands on a binary-floating-point cost', () => {
    expect(verdict(a, deal({ deposit: 5_000 }))).toEqual(CONFIRMED);
    // 10% of 50,000 x 1.1: 5,500 exactly meets it.
    expect(
      verdict(approval({ min_deposit_percentage: 10 }), deal({ cost: 50_000, cost_gst: false, deposit: 5_500 })),
    ).toEqual(CONFIRMED);
  });
  it('a zero minimum cannot be failed, so no deposit is not reported missing', () => {
    expect(verdict(approval({ min_deposit_percentage: 0, min_deposit_amount: 0 }), deal({ deposit: null }))).toEqual(
      CONFIRMED,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// evaluateApprovals: organisations
// ---------------------------------------------------------------------------------------------

describe('POST /matrix/ preferred_financier: restrict to these organisation ids', () => {
  const approvals = [
    approval({ id: 1, organisation_id: 100 }),
    approval({ id: 2, organisation_id: 200 }),
    approval({ id: 3, organisation_id: 300 }),
  ];
  const ids = (outcomes: ApprovalOutcome[]) => outcomes.map((o) => o.approval.id);

  it('null or empty preferred_financier = every financier, in input order', () => {
    expect(ids(evaluateApprovals(approvals, deal({ preferred_financier: null }), ancestry))).toEqual([1, 2, 3]);
    expect(ids(evaluateApprovals(approvals, deal({ preferred_financier: [] }), ancestry))).toEqual([1, 2, 3]);
  });
  it('deal.preferred_financier restricts when no organisationIds option is given', () => {
    expect(ids(evaluateApprovals(approvals, deal({ preferred_financier: [300, 100] }), ancestry))).toEqual([1, 3]);
  });
  it('organisationIds, when given, is the service-resolved set and replaces preferred_financier', () => {
    const d = deal({ preferred_financier: [100] });
    expect(ids(evaluateApprovals(approvals, d, ancestry, { organisationIds: new Set([200]) }))).toEqual([2]);
    expect(ids(evaluateApprovals(approvals, d, ancestry, { organisationIds: null }))).toEqual([1, 2, 3]);
    expect(ids(evaluateApprovals(approvals, d, ancestry, { organisationIds: new Set() }))).toEqual([]);
  });
  it('evaluateApprovals agrees with evaluateApproval for each approval', () => {
    const mixed = [approval({ id: 1, max_term: 24 }), approval({ id: 2, min_abn_age: 12 }), approval({ id: 3 })];
    const d = deal({ term: 36 });
    expect(evaluateApprovals(mixed, d, ancestry)).toEqual(mixed.map((a) => evaluate(a, d)).filter((o) => o !== null));
  });
});

// ---------------------------------------------------------------------------------------------
// Ordering and grouping
// ---------------------------------------------------------------------------------------------

describe('Approval priority: ordering within a financier group; doc_level sorts least-onerous first', () => {
  const o = (a: Partial<Approval>) => evaluate(approval(a), deal()) as ApprovalOutcome;

  it('least-onerous doc level first, then higher priority, then approval name, then id', () => {
    const outcomes = [
      o({ id: 1, name: 'Full', doc_level: 'full_doc', priority: 99 }),
      o({ id: 2, name: 'Lite', doc_level: 'lite_doc', priority: 0 }),
      o({ id: 3, name: 'Low B', doc_level: 'low_doc', priority: 1 }),
      o({ id: 4, name: 'Low A', doc_level: 'low_doc', priority: 1 }),
      o({ id: 5, name: 'Low headline', doc_level: 'low_doc', priority: 2.5 }),
      o({ id: 7, name: 'Low A', doc_level: 'low_doc', priority: 1 }),
      o({ id: 6, name: 'Low A', doc_level: 'low_doc', priority: 1 }),
    ];
    const sorted = sortApprovalsWithinFinancier(outcomes).map((x) => x.approval.id);
    expect(sorted).toEqual([5, 4, 6, 7, 3, 2, 1]);
  });
  it('names compare as a broker reads them: case-insensitive, numbers by value', () => {
    const outcomes = [o({ id: 1, name: 'Tier 10' }), o({ id: 2, name: 'tier 2' }), o({ id: 3, name: 'Tier 1' })];
    expect(sortApprovalsWithinFinancier(outcomes).map((x) => x.approval.id)).toEqual([3, 2, 1]);
  });
  it('does not mutate its input', () => {
    const outcomes = [o({ id: 2, doc_level: 'full_doc' }), o({ id: 1 })];
    sortApprovalsWithinFinancier(outcomes);
    expect(outcomes.map((x) => x.approval.id)).toEqual([2, 1]);
  });
});

describe('MatrixFinancierGroup: results are grouped by financier', () => {
  const names = new Map([
    [100, 'Zeta Finance'],
    [200, 'alpha Capital'],
    [300, 'Alpha Capital'],
  ]);
  const o = (a: Partial<Approval>) => evaluate(approval(a), deal()) as ApprovalOutcome;

  it('one group per organisation, groups by organisation name then id, approvals sorted within', () => {
    const groups = groupByFinancier(
      [
        o({ id: 1, organisation_id: 100, doc_level: 'full_doc' }),
        o({ id: 2, organisation_id: 300 }),
        o({ id: 3, organisation_id: 100, doc_level: 'low_doc' }),
        o({ id: 4, organisation_id: 200 }),
      ],
      names,
    );
    expect(groups.map((g) => [g.organisation_id, g.organisation_name, g.approvals.map((x) => x.approval.id)])).toEqual([
      [300, 'Alpha Capital', [2]],
      [200, 'alpha Capital', [4]],
      [100, 'Zeta Finance', [3, 1]],
    ]);
  });
  it('no outcomes, no groups; an organisation missing from the names map is named ""', () => {
    expect(groupByFinancier([], names)).toEqual([]);
    expect(groupByFinancier([o({ organisation_id: 999 })], names)[0].organisation_name).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// Limits: engine time
// ---------------------------------------------------------------------------------------------

describe('Limits: engine time (OWASP API4) — 9,000 approvals for one deal', () => {
  it('a run over 9,000 approvals agrees with evaluating each one alone (speed: npm run bench)', () => {
    const approvals: Approval[] = [];
    for (let i = 0; i < 9_000; i++) {
      approvals.push(
        approval({
          id: i,
          organisation_id: 100 + (i % 40),
          max_term: 36 + (i % 4) * 12,
          min_abn_age: i % 3 === 0 ? 24 : null,
          min_credit_score: i % 5 === 0 ? 500 + (i % 200) : null,
          max_borrower_age: i % 7 === 0 ? 75 : null,
          home_owner: i % 2 === 0 ? true : null,
          asset_state: i % 11 === 0 ? 'used' : null,
          transaction_types: i % 13 === 0 ? ['purchase', 'refinance'] : [],
          industries: i % 17 === 0 ? ['Construction', 'Mining'] : [],
          asset_ids: i % 4 === 0 ? [ASSETS.CARS, ASSETS.TRUCKS] : i % 4 === 1 ? [ASSETS.YELLOW_GOODS] : [],
          min_deposit_percentage: i % 6 === 0 ? 10 : null,
          min_asset_cost: i % 9 === 0 ? 10_000 : null,
          max_asset_cost: i % 9 === 0 ? 250_000 : null,
        }),
      );
    }
    const d = deal({ term: 48, abn_age: 30, credit_score: 640, home_owner: true, industry: 'Mining', deposit: 6_000 });
    // Speed is measured by `npm run bench`, never asserted here; this checks the large run's answer is consistent.
    const outcomes = evaluateApprovals(approvals, d, ancestry);
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.length).toBeLessThan(approvals.length);
    expect(outcomes.every((o) => evaluateApproval(o.approval, d, ancestry)?.status === o.status)).toBe(true);
    // The hot path scans the snapshot's criteria table instead: the same outcomes, in the same order.
    expect(evaluateApprovals(buildCriteriaTable(approvals), d, ancestry)).toEqual(outcomes);
  });
});
