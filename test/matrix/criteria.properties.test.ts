/**
 * Properties of the state table ("Approval evaluation outcome") over generated approvals and deals.
 * Small value domains on purpose: answers land on the bounds often, which is where off-by-one bugs live.
 * Fixed seed so a failure reproduces; fast-check prints the shrunk counterexample.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../src/modules/catalogue/model.ts';
import type { AssetState, TransactionType } from '../../src/lib/vocabulary.ts';
import type { Deal } from '../../src/modules/deal/index.ts';
import {
  type ApprovalOutcome,
  buildCriteriaTable,
  evaluateApproval,
  evaluateApprovals,
  MISSING_FIELD_NAMES,
  MONEY_TOLERANCE,
  prepareDeal,
  unmetCriteria,
  visitUnmetCriteria,
} from '../../src/modules/matrix/criteria.ts';
import { ancestry, approval, ASSET_TREE, deal } from './fixtures.ts';

const PARAMS = { seed: 20_261_121, numRuns: 2_000 } as const;

const evaluate = (a: Approval, d: Deal) => evaluateApproval(a, d, ancestry);

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/** A deal input: answered half the time. */
const orNull = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 2 });
/**
 * An approval criterion: set one time in five, so a generated approval checks a handful of things and every row
 * of the state table (confirmed, possible, dropped) is well represented rather than nearly everything dropping.
 */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: arb, weight: 1 });
const sometimesList = <T>(values: T[]) =>
  fc.oneof(
    { arbitrary: fc.constant([] as T[]), weight: 4 },
    { arbitrary: fc.subarray(values, { minLength: 1 }), weight: 1 },
  );
const small = fc.integer({ min: 0, max: 8 });
/** A satisfiable range: min <= max when both are set. */
const range = fc
  .tuple(sometimes(small), sometimes(small))
  .map(([x, y]) => (x !== null && y !== null && x > y ? [y, x] : [x, y]) as [number | null, number | null]);

const TRANSACTION_TYPES: TransactionType[] = ['purchase', 'refinance', 'sale_hire_back', 'capital_raise'];
const INDUSTRIES = ['Mining', 'Construction', 'Agriculture, Forestry and Fishing', 'E'];
const ASSET_IDS = [...ASSET_TREE.map((n) => n.id), 999];
const COSTS = [10_000, 20_000, 30_000, 50_000];

const arbApproval: fc.Arbitrary<Approval> = fc
  .record({
    term: range,
    abn: range,
    gst: range,
    assetAge: range,
    file: range,
    credit: range,
    borrower: range,
    cost: fc.tuple(sometimes(fc.constantFrom(...COSTS)), sometimes(fc.constantFrom(...COSTS.map((c) => c * 1.1)))),
    min_deposit_percentage: sometimes(fc.constantFrom(0, 5, 10, 20)),
    min_deposit_amount: sometimes(fc.constantFrom(0, 1_000, 3_000, 6_000)),
    home_owner: sometimes(fc.boolean()),
    private_sale: sometimes(fc.boolean()),
    sale_hire_back: sometimes(fc.boolean()),
    asset_state: sometimes(fc.constantFrom<AssetState>('none', 'new', 'used', 'demo')),
    transaction_types: sometimesList(TRANSACTION_TYPES),
    industries: sometimesList(INDUSTRIES),
    asset_ids: sometimesList(ASSET_IDS),
  })
  .map((g) =>
    approval({
      min_term: g.term[0],
      max_term: g.term[1],
      min_abn_age: g.abn[0],
      max_abn_age: g.abn[1],
      min_gst_age: g.gst[0],
      max_gst_age: g.gst[1],
      min_asset_age: g.assetAge[0],
      max_asset_age: g.assetAge[1],
      min_file_age: g.file[0],
      max_file_age: g.file[1],
      min_credit_score: g.credit[0],
      max_credit_score: g.credit[1],
      min_borrower_age: g.borrower[0],
      max_borrower_age: g.borrower[1],
      min_asset_cost: g.cost[0],
      max_asset_cost: g.cost[1] === null ? null : Math.max(g.cost[1], g.cost[0] ?? 0),
      min_deposit_percentage: g.min_deposit_percentage,
      min_deposit_amount: g.min_deposit_amount,
      home_owner: g.home_owner,
      private_sale: g.private_sale,
      sale_hire_back: g.sale_hire_back,
      asset_state: g.asset_state,
      transaction_types: g.transaction_types,
      industries: g.industries,
      asset_ids: g.asset_ids,
    }),
  );

/** Case and padding vary as a broker's client might send them. */
const arbIndustry = fc
  .tuple(fc.constantFrom(...INDUSTRIES, 'Retail Trade'), fc.constantFrom('as-is', 'upper', 'lower', 'padded'))
  .map(([name, style]) =>
    style === 'upper'
      ? name.toUpperCase()
      : style === 'lower'
        ? name.toLowerCase()
        : style === 'padded'
          ? ` ${name} `
          : name,
  );

const arbDeal: fc.Arbitrary<Deal> = fc
  .record({
    cost: fc.constantFrom(...COSTS),
    cost_gst: fc.boolean(),
    asset_value: fc.constantFrom(...ASSET_IDS),
    term: orNull(small),
    abn_age: orNull(small),
    gst_age: orNull(small),
    asset_age: orNull(small),
    file_age: orNull(small),
    credit_score: orNull(small),
    borrower_age_youngest: orNull(small),
    borrower_age_oldest: orNull(small),
    deposit: orNull(fc.constantFrom(0, 1_000, 3_000, 5_000, 6_000, 10_000)),
    industry: orNull(arbIndustry),
    asset_state: orNull(fc.constantFrom<AssetState>('none', 'new', 'used', 'demo')),
    transaction_type: orNull(fc.constantFrom(...TRANSACTION_TYPES)),
    home_owner: orNull(fc.boolean()),
    private_sale: orNull(fc.boolean()),
    sale_hire_back: orNull(fc.boolean()),
  })
  .map((g) => deal(g));

/** Deal inputs the broker may leave unanswered. */
const ANSWERABLE = [
  'term',
  'deposit',
  'abn_age',
  'gst_age',
  'asset_age',
  'borrower_age_youngest',
  'borrower_age_oldest',
  'file_age',
  'credit_score',
  'industry',
  'asset_state',
  'transaction_type',
  'home_owner',
  'private_sale',
  'sale_hire_back',
] as const satisfies readonly (keyof Deal)[];

/** Each criterion and the value that leaves it blank on the approval. */
const CRITERIA: Array<[keyof Approval, null | []]> = [
  ...(
    [
      'min_deposit_percentage',
      'min_deposit_amount',
      'max_term',
      'min_term',
      'min_abn_age',
      'max_abn_age',
      'min_gst_age',
      'max_gst_age',
      'min_asset_age',
      'max_asset_age',
      'min_asset_cost',
      'max_asset_cost',
      'min_borrower_age',
      'max_borrower_age',
      'min_file_age',
      'max_file_age',
      'min_credit_score',
      'max_credit_score',
      'home_owner',
      'private_sale',
      'sale_hire_back',
      'asset_state',
    ] as const
  ).map((k): [keyof Approval, null] => [k, null]),
  ['transaction_types', []],
  ['industries', []],
  ['asset_ids', []],
];

const isSubset = (xs: readonly string[], ys: readonly string[]) => xs.every((x) => ys.includes(x));

// ---------------------------------------------------------------------------------------------
// An answer that satisfies the approval, for each missing field
// ---------------------------------------------------------------------------------------------

function answer(a: Approval, o: ApprovalOutcome, field: string): Partial<Deal> {
  switch (field) {
    case 'term':
      return { term: a.min_term ?? 0 };
    case 'abn_age':
      return { abn_age: a.min_abn_age ?? 0 };
    case 'gst_age':
      return { gst_age: a.min_gst_age ?? 0 };
    case 'asset_age':
      return { asset_age: a.min_asset_age ?? 0 };
    case 'file_age':
      return { file_age: a.min_file_age ?? 0 };
    case 'credit_score':
      return { credit_score: a.min_credit_score ?? 0 };
    case 'borrower_age_youngest':
      return { borrower_age_youngest: a.min_borrower_age ?? 0 };
    case 'borrower_age_oldest':
      return { borrower_age_oldest: a.max_borrower_age ?? 0 };
    case 'deposit':
      return { deposit: o.deposit_required };
    case 'home_owner':
      return { home_owner: a.home_owner };
    case 'private_sale':
      return { private_sale: a.private_sale };
    case 'sale_hire_back':
      return { sale_hire_back: a.sale_hire_back };
    case 'asset_state':
      return { asset_state: a.asset_state };
    case 'transaction_type':
      return { transaction_type: a.transaction_types[0] };
    case 'industry':
      return { industry: a.industries[0].toUpperCase() };
    default:
      throw new Error(`no answer for ${field}`);
  }
}

// ---------------------------------------------------------------------------------------------
// A naive reference model, written straight from the state table and docs/matrix.md
// ---------------------------------------------------------------------------------------------

type Check = 'satisfied' | 'violated' | { missing: string };

function referenceOutcome(a: Approval, d: Deal): 'dropped' | { status: string; missing_fields: string[] } {
  const checks: Check[] = [];
  /** A minimum <= 0 or an absent bound cannot be failed by a valid (non-negative) answer. */
  const range = (min: number | null, max: number | null, value: number | null, field: string, tolerance = 0) => {
    if (min === null && max === null) return;
    if (value === null) {
      if (max !== null || (min ?? 0) > 0) checks.push({ missing: field });
      return;
    }
    const ok = (min === null || value >= min - tolerance) && (max === null || value <= max + tolerance);
    checks.push(ok ? 'satisfied' : 'violated');
  };
  const exact = <T>(required: T | null, given: T | null, field: string) => {
    if (required === null) return;
    checks.push(given === null ? { missing: field } : given === required ? 'satisfied' : 'violated');
  };

  range(a.min_term, a.max_term, d.term, 'term');
  range(a.min_abn_age, a.max_abn_age, d.abn_age, 'abn_age');
  range(a.min_gst_age, a.max_gst_age, d.gst_age, 'gst_age');
  range(a.min_asset_age, a.max_asset_age, d.asset_age, 'asset_age');
  range(a.min_file_age, a.max_file_age, d.file_age, 'file_age');
  range(a.min_credit_score, a.max_credit_score, d.credit_score, 'credit_score');
  range(a.min_asset_cost, a.max_asset_cost, d.cost_inc, 'cost', MONEY_TOLERANCE);

  // Borrower ages: the youngest and oldest of what was answered (one answer stands for both ends' known bound).
  const answeredAges = [d.borrower_age_youngest, d.borrower_age_oldest].filter((x): x is number => x !== null);
  const youngest = answeredAges.length === 2 ? Math.min(...answeredAges) : d.borrower_age_youngest;
  const oldest = answeredAges.length === 2 ? Math.max(...answeredAges) : d.borrower_age_oldest;
  if (a.min_borrower_age !== null) {
    if (youngest === null && oldest !== null && oldest < a.min_borrower_age) checks.push('violated');
    else range(a.min_borrower_age, null, youngest, 'borrower_age_youngest');
  }
  if (a.max_borrower_age !== null) {
    if (oldest === null && youngest !== null && youngest > a.max_borrower_age) checks.push('violated');
    else range(null, a.max_borrower_age, oldest, 'borrower_age_oldest');
  }

  exact(a.home_owner, d.home_owner, 'home_owner');
  exact(a.private_sale, d.private_sale, 'private_sale');
  exact(a.sale_hire_back, d.sale_hire_back, 'sale_hire_back');
  exact(
    a.asset_state === 'none' ? null : a.asset_state,
    d.asset_state === 'none' ? null : d.asset_state,
    'asset_state',
  );

  if (a.transaction_types.length > 0) {
    if (d.transaction_type !== null)
      checks.push(a.transaction_types.includes(d.transaction_type) ? 'satisfied' : 'violated');
    else if (!TRANSACTION_TYPES.every((t) => a.transaction_types.includes(t)))
      checks.push({ missing: 'transaction_type' });
  }
  if (a.industries.length > 0) {
    const given = d.industry?.trim().toLowerCase() || null;
    if (given === null) checks.push({ missing: 'industry' });
    else checks.push(a.industries.some((i) => i.toLowerCase() === given) ? 'satisfied' : 'violated');
  }
  if (a.asset_ids.length > 0) {
    const line = new Set<number>();
    for (let id: number | null | undefined = d.asset_value; id != null && !line.has(id); ) {
      line.add(id);
      id = ASSET_TREE.find((n) => n.id === id)?.parent_id;
    }
    checks.push(a.asset_ids.some((id) => line.has(id)) ? 'satisfied' : 'violated');
  }
  const requirements = [
    a.min_deposit_percentage === null ? null : (a.min_deposit_percentage / 100) * d.cost_inc,
    a.min_deposit_amount,
  ].filter((x): x is number => x !== null);
  if (requirements.length > 0) range(Math.max(...requirements), null, d.deposit, 'deposit', MONEY_TOLERANCE);

  if (checks.includes('violated')) return 'dropped';
  const missing = [...new Set(checks.flatMap((c) => (typeof c === 'object' ? [c.missing] : [])))].sort();
  return { status: missing.length === 0 ? 'confirmed' : 'possible', missing_fields: missing };
}

const verdict = (a: Approval, d: Deal) => {
  const o = evaluate(a, d);
  return o === null ? 'dropped' : { status: o.status, missing_fields: o.missing_fields };
};

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('Approval evaluation outcome (state table) agrees with a naive reference model', () => {
  it('every generated approval and deal: same outcome, same missing_fields', () => {
    fc.assert(
      fc.property(arbApproval, arbDeal, (a, d) => {
        expect(verdict(a, d)).toEqual(referenceOutcome(a, d));
      }),
      PARAMS,
    );
  });

  it('possible iff missing_fields is non-empty; missing_fields sorted, unique and request field names', () => {
    fc.assert(
      fc.property(arbApproval, arbDeal, (a, d) => {
        const o = evaluate(a, d);
        if (o === null) return;
        expect(o.status === 'possible').toBe(o.missing_fields.length > 0);
        expect(o.missing_fields).toEqual([...new Set(o.missing_fields)].sort());
        expect(isSubset(o.missing_fields, MISSING_FIELD_NAMES)).toBe(true);
      }),
      PARAMS,
    );
  });
});

describe('Supplying the missing answers on a later run moves a possible approval to confirmed (if nothing else is missing)', () => {
  it('answering every missing field with a satisfying value confirms it', () => {
    fc.assert(
      fc.property(arbApproval, arbDeal, (a, d) => {
        const o = evaluate(a, d);
        if (o === null || o.status !== 'possible') return;
        const answered = deal({ ...d, ...Object.assign({}, ...o.missing_fields.map((f) => answer(a, o, f))) });
        expect(verdict(a, answered)).toEqual({ status: 'confirmed', missing_fields: [] });
      }),
      PARAMS,
    );
  });

  it('answering only some of them leaves exactly the others missing, still possible', () => {
    fc.assert(
      fc.property(arbApproval, arbDeal, fc.nat(), (a, d, pick) => {
        const o = evaluate(a, d);
        if (o === null || o.missing_fields.length < 2) return;
        const answeredField = o.missing_fields[pick % o.missing_fields.length];
        const later = evaluate(a, deal({ ...d, ...answer(a, o, answeredField) }));
        expect(later).toMatchObject({
          status: 'possible',
          missing_fields: o.missing_fields.filter((f) => f !== answeredField),
        });
      }),
      PARAMS,
    );
  });
});

describe("Approval: a null criterion means 'not checked' — adding a criterion never turns a dropped approval into a returned one", () => {
  it('an approval with more criteria is dropped whenever one with a subset of them is, and never asks for less', () => {
    fc.assert(
      fc.property(arbApproval, arbDeal, fc.subarray(CRITERIA), (full, d, blanked) => {
        const fewer = approval({ ...full, ...Object.fromEntries(blanked) });
        const withFewer = evaluate(fewer, d);
        const withMore = evaluate(full, d);
        if (withFewer === null) expect(withMore).toBeNull();
        if (withMore !== null) {
          expect(withFewer).not.toBeNull();
          expect(isSubset(withFewer!.missing_fields, withMore.missing_fields)).toBe(true);
        }
      }),
      PARAMS,
    );
  });
});

describe('Approval evaluation outcome: a blank input is never a violation', () => {
  it('blanking answers never drops a returned approval; it can only add missing fields', () => {
    fc.assert(
      fc.property(arbApproval, arbDeal, fc.subarray([...ANSWERABLE], { minLength: 1 }), (a, d, blanks) => {
        const before = evaluate(a, d);
        const after = evaluate(a, deal({ ...d, ...Object.fromEntries(blanks.map((k) => [k, null])) }));
        if (before === null) return;
        expect(after).not.toBeNull();
        expect(isSubset(before.missing_fields, after!.missing_fields)).toBe(true);
      }),
      PARAMS,
    );
  });

  it('a deal answering nothing is never dropped by criteria it cannot answer (only cost and asset_value can drop it)', () => {
    fc.assert(
      fc.property(arbApproval, fc.constantFrom(...ASSET_IDS), fc.constantFrom(...COSTS), (a, asset_value, cost) => {
        const unanswered = deal({ asset_value, cost });
        const withoutAlwaysSupplied = approval({ ...a, asset_ids: [], min_asset_cost: null, max_asset_cost: null });
        expect(evaluate(withoutAlwaysSupplied, unanswered)).not.toBeNull();
      }),
      PARAMS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The criteria table: the layout the hot path scans (one per catalogue snapshot)
// ---------------------------------------------------------------------------------------------

/** What a catalogue could hold that the table cannot state as numbers: each must still be evaluated exactly. */
const ODDITIES: readonly ((a: Approval) => Approval)[] = [
  (a) => ({ ...a, min_credit_score: NaN }),
  (a) => ({ ...a, max_asset_cost: NaN }),
  (a) => ({ ...a, min_deposit_percentage: NaN }),
  (a) => ({ ...a, max_borrower_age: NaN }),
  (a) => ({ ...a, max_term: Infinity, min_asset_cost: -Infinity }),
  (a) => ({ ...a, asset_state: 'scrapped' as AssetState }),
  (a) => ({ ...a, transaction_types: ['lease' as TransactionType, ...a.transaction_types] }),
  (a) => ({ ...a, asset_ids: [...a.asset_ids, ...a.asset_ids, NaN] }),
];

const arbCatalogue: fc.Arbitrary<Approval[]> = fc
  .array(
    fc.record({
      approval: arbApproval,
      organisation_id: fc.constantFrom(100, 200, 300),
      oddity: fc.oneof(
        { arbitrary: fc.constant(-1), weight: 6 },
        { arbitrary: fc.integer({ min: 0, max: ODDITIES.length - 1 }), weight: 1 },
      ),
    }),
    { maxLength: 40, size: 'max' },
  )
  .map((rows) =>
    rows.map(({ approval: a, organisation_id, oddity }, i) => {
      const listed = { ...a, id: i + 1, organisation_id };
      return oddity < 0 ? listed : ODDITIES[oddity](listed);
    }),
  );

const arbScope = fc.option(
  fc.subarray([100, 200, 300]).map((ids) => new Set(ids)),
  { nil: null },
);

describe('The criteria table (the layout the hot path scans) answers what the definition answers, approval by approval', () => {
  it('generated catalogues and deals: the same outcomes, in the same order, with the same figures', () => {
    fc.assert(
      fc.property(arbCatalogue, arbDeal, arbScope, (approvals, d, scope) => {
        const table = buildCriteriaTable(approvals);
        const options = { organisationIds: scope };
        expect(evaluateApprovals(table, d, ancestry, options)).toEqual(
          evaluateApprovals(approvals, d, ancestry, options),
        );
        expect(evaluateApprovals(table, d, ancestry)).toEqual(evaluateApprovals(approvals, d, ancestry));
      }),
      PARAMS,
    );
  });

  it('a table answers the same deal the same way however many deals it scanned in between', () => {
    fc.assert(
      fc.property(arbCatalogue, fc.array(arbDeal, { minLength: 2, maxLength: 5 }), (approvals, deals) => {
        const table = buildCriteriaTable(approvals);
        const first = evaluateApprovals(table, deals[0], ancestry);
        for (const d of deals.slice(1)) evaluateApprovals(table, d, ancestry);
        expect(evaluateApprovals(table, deals[0], ancestry)).toEqual(first);
      }),
      { ...PARAMS, numRuns: 300 },
    );
  });
});

describe('The unmet criteria (what blocks an approval) agree with its outcome', () => {
  it('confirmed: none unmet; possible: exactly its missing fields, unanswered; dropped: at least one unmet', () => {
    fc.assert(
      fc.property(arbApproval, arbDeal, (a, d) => {
        const outcome = evaluateApproval(a, d, ancestry);
        const unmet = unmetCriteria(a, d, ancestry);
        if (outcome === null) expect(unmet.length).toBeGreaterThan(0);
        else if (outcome.status === 'confirmed') expect(unmet).toEqual([]);
        else {
          expect(unmet.every((u) => u.deal_value === null)).toBe(true);
          expect([...new Set(unmet.map((u) => u.field))].sort()).toEqual(outcome.missing_fields);
        }
      }),
      PARAMS,
    );
  });
});

describe('An unmet criterion the deal answered drops the approval; one left unanswered does not', () => {
  it('dropped exactly when some unmet criterion is answered; confirmed exactly when none is unmet', () => {
    fc.assert(
      // A blank industry is no answer (prepareDeal reads it as none), though the deal's field is not null.
      fc.property(
        arbApproval,
        fc.oneof(
          arbDeal,
          arbDeal.map((d) => ({ ...d, industry: ' ' })),
        ),
        (a, d) => {
          const answered: boolean[] = [];
          visitUnmetCriteria(a, prepareDeal(d, ancestry), {
            unmet: (_criterion, _field, _value, _required, isAnswered) => answered.push(isAnswered),
          });
          const outcome = evaluateApproval(a, d, ancestry);
          expect(answered.some((x) => x)).toBe(outcome === null);
          expect(answered.length === 0).toBe(outcome?.status === 'confirmed');
        },
      ),
      PARAMS,
    );
  });
});
