/**
 * Spec (api-v1.md): POST /api/v1/matrix/ (the standalone Approval Matrix); States "Approval evaluation outcome";
 * "Matrix result shapes" (MatrixFinancierGroup, MatrixApprovalResult); Limits (Daily Matrix allowance, input bounds);
 * Authentication 5 (read API tokens may run it), 9 (entitlement and surface flag) and 11 (X-Service-Client wording).
 *
 * Targeted approvals are inserted straight into the database under financier organisations of their own, and runs
 * name those organisations in `preferred_financier`, so every assertion is exact rather than "contains".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type ApprovalInput } from '../../testkit/seed.ts';

let t: TestApp;
let pro: string; // broker.admin@demo.test (Pro, org 8)
let free: string; // free.broker@demo.test (Free, org 9)
let financier: string; // financier.admin@demo.test (org 1)

beforeAll(async () => {
  t = await startTestApp();
  pro = (await t.login('broker.admin@demo.test')).access;
  free = (await t.login('free.broker@demo.test')).access;
  financier = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const matrix = (token: string | null, body: unknown, headers?: Record<string, string>) =>
  t.rest('POST', '/api/v1/matrix/', { token, body, headers });

const APPROVAL_RESULT_KEYS = [
  'approval_id',
  'approval_name',
  'deposit_amount',
  'deposit_percentage',
  'deposit_required',
  'doc_level',
  'max_term',
  'missing_fields',
  'rate_bracket_ids',
  'status',
];
const GROUP_KEYS = ['approvals', 'organisation_id', 'organisation_name'];

type ApprovalData = ApprovalInput & { name: string };

/** A financier organisation of the test's own, holding exactly the approvals given (low doc unless told; nothing else). */
async function financierWith(
  name: string,
  approvals: ApprovalData[],
): Promise<{ organisationId: number; approvalIds: number[] }> {
  const financier = await seedKit(t.database.prisma).financier({ name });
  const approvalIds: number[] = [];
  for (const a of approvals) approvalIds.push((await financier.approval(a)).id);
  return { organisationId: financier.id, approvalIds };
}

/** The approvals of one organisation in a 200 answer, or undefined when it has no group. */
const groupOf = (body: any, organisationId: number) =>
  body.results.find((g: any) => g.organisation_id === organisationId);

describe('POST /matrix/ request: only cost and asset_value are required', () => {
  it('cost and asset_value alone answer 200', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11 });
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
  });

  it('a missing cost answers 400 naming cost (and only cost)', async () => {
    const res = await matrix(pro, { asset_value: 11 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['cost']);
    expect(typeof res.body.error).toBe('string');
  });

  it('a missing asset_value answers 400 naming asset_value (and only asset_value)', async () => {
    const res = await matrix(pro, { cost: '50000' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['asset_value']);
  });

  it('an empty body answers 400 naming both required fields', async () => {
    const res = await matrix(pro, {});
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['asset_value', 'cost']);
    for (const messages of Object.values(res.body.errors)) expect(messages).toEqual([expect.any(String)]);
  });

  it('a negative cost answers 400 naming cost; zero cost is accepted', async () => {
    const negative = await matrix(pro, { cost: '-1', asset_value: 11 });
    expect(negative.status).toBe(400);
    expect(Object.keys(negative.body.errors)).toEqual(['cost']);
    expect((await matrix(pro, { cost: '0', asset_value: 11 })).status).toBe(200);
  });

  it('asset_value 0 answers 400 naming asset_value (asset_value >= 1)', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 0 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['asset_value']);
  });

  it('an unknown asset answers 400 naming asset_value', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 987654 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['asset_value']);
  });

  it('an optional criterion of the wrong type or below its bound answers 400 naming it; term 0 is refused', async () => {
    const wrongType = await matrix(pro, { cost: '50000', asset_value: 11, credit_score: 'high' });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body.errors)).toEqual(['credit_score']);
    const negative = await matrix(pro, { cost: '50000', asset_value: 11, abn_age: -1 });
    expect(negative.status).toBe(400);
    expect(Object.keys(negative.body.errors)).toEqual(['abn_age']);
    const term = await matrix(pro, { cost: '50000', asset_value: 11, term: 0 });
    expect(term.status).toBe(400);
    expect(Object.keys(term.body.errors)).toEqual(['term']);
  });

  it('cost as a JSON number answers exactly as cost as a string', async () => {
    const asString = await matrix(pro, { cost: '50000', asset_value: 11 });
    const asNumber = await matrix(pro, { cost: 50000, asset_value: 11 });
    expect(asNumber.status).toBe(200);
    expect(asNumber.body).toEqual(asString.body);
  });
});

describe('Approval evaluation outcome: confirmed (every criterion the approval checks was supplied and satisfied)', () => {
  let org: number;
  let id: number;
  beforeAll(async () => {
    ({
      organisationId: org,
      approvalIds: [id],
    } = await financierWith('Outcome Confirmed Finance', [
      { name: 'Credit 600+, ABN 2y', min_credit_score: 600, min_abn_age: 24 },
    ]));
  });

  it('both criteria supplied and satisfied: confirmed with no missing_fields', async () => {
    const res = await matrix(pro, {
      cost: '50000',
      asset_value: 11,
      credit_score: 700,
      abn_age: 36,
      preferred_financier: [org],
    });
    expect(res.status).toBe(200);
    expect(res.body.destination_count).toBe(1);
    expect(groupOf(res.body, org).approvals).toEqual([
      expect.objectContaining({ approval_id: id, status: 'confirmed', missing_fields: [] }),
    ]);
  });

  it('bounds are inclusive: exactly the minimum confirms', async () => {
    const res = await matrix(pro, {
      cost: '50000',
      asset_value: 11,
      credit_score: 600,
      abn_age: 24,
      preferred_financier: [org],
    });
    expect(groupOf(res.body, org).approvals[0]).toMatchObject({ approval_id: id, status: 'confirmed' });
  });

  it('an approval that checks nothing is confirmed when the deal answers nothing (a blank criterion is never checked)', async () => {
    const {
      organisationId,
      approvalIds: [blank],
    } = await financierWith('Outcome Blank Finance', [{ name: 'Anything goes' }]);
    const res = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [organisationId] });
    expect(res.body.results).toEqual([
      {
        organisation_id: organisationId,
        organisation_name: 'Outcome Blank Finance',
        approvals: [expect.objectContaining({ approval_id: blank, status: 'confirmed', missing_fields: [] })],
      },
    ]);
    // ... and whatever it is answered, nothing can drop it.
    const answered = await matrix(pro, {
      cost: '9999999',
      asset_value: 31,
      term: 600,
      credit_score: 1,
      abn_age: 0,
      home_owner: false,
      industry: 'Mining',
      preferred_financier: [organisationId],
    });
    expect(groupOf(answered.body, organisationId).approvals[0]).toMatchObject({
      approval_id: blank,
      status: 'confirmed',
    });
  });
});

describe('Approval evaluation outcome: possible (a checked criterion had no input; returned with missing_fields)', () => {
  let org: number;
  let id: number;
  beforeAll(async () => {
    ({
      organisationId: org,
      approvalIds: [id],
    } = await financierWith('Outcome Possible Finance', [
      { name: 'Credit 600+, ABN 2y, home owner', min_credit_score: 600, min_abn_age: 24, home_owner: true },
    ]));
  });

  it('nothing answered: possible, every checked input listed, sorted', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [org] });
    expect(res.status).toBe(200);
    expect(groupOf(res.body, org).approvals).toEqual([
      expect.objectContaining({
        approval_id: id,
        status: 'possible',
        missing_fields: ['abn_age', 'credit_score', 'home_owner'],
      }),
    ]);
    expect(res.body.destination_count).toBe(1);
  });

  it('only some answered: exactly the others are missing', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11, credit_score: 650, preferred_financier: [org] });
    expect(groupOf(res.body, org).approvals[0]).toMatchObject({
      status: 'possible',
      missing_fields: ['abn_age', 'home_owner'],
    });
  });

  it('asset_owner answers home_owner (same question)', async () => {
    const res = await matrix(pro, {
      cost: '50000',
      asset_value: 11,
      credit_score: 650,
      abn_age: 30,
      asset_owner: true,
      preferred_financier: [org],
    });
    expect(groupOf(res.body, org).approvals[0]).toMatchObject({ status: 'confirmed', missing_fields: [] });
  });

  it('a deposit not sent is unanswered: a minimum deposit makes the approval possible with deposit missing and deposit_required resolved', async () => {
    const {
      organisationId,
      approvalIds: [deposit],
    } = await financierWith('Outcome Deposit Finance', [
      { name: '10% or $4,000 deposit', min_deposit_percentage: '10', min_deposit_amount: '4000' },
    ]);
    const res = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [organisationId] });
    // 10% of the GST-inclusive cost (55,000) = 5,500, larger than the 4,000 floor.
    expect(groupOf(res.body, organisationId).approvals).toEqual([
      expect.objectContaining({
        approval_id: deposit,
        status: 'possible',
        missing_fields: ['deposit'],
        deposit_percentage: 10,
        deposit_amount: 4000,
        deposit_required: 5500,
      }),
    ]);
  });
});

describe('Approval evaluation outcome: dropped (a supplied input violates a criterion; the approval is omitted)', () => {
  let org: number;
  let keep: number;
  beforeAll(async () => {
    ({
      organisationId: org,
      approvalIds: [, keep],
    } = await financierWith('Outcome Dropped Finance', [
      { name: 'Credit 600+', min_credit_score: 600 },
      { name: 'Any credit' },
    ]));
  });

  it('a credit score below the minimum omits that approval and keeps the other', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11, credit_score: 599, preferred_financier: [org] });
    expect(res.status).toBe(200);
    expect(groupOf(res.body, org).approvals.map((a: any) => a.approval_id)).toEqual([keep]);
    expect(res.body.destination_count).toBe(1);
  });

  it('a financier none of whose approvals survive has no group at all', async () => {
    const { organisationId } = await financierWith('Outcome All Dropped Finance', [
      { name: 'Home owners only', home_owner: true },
    ]);
    const res = await matrix(pro, {
      cost: '50000',
      asset_value: 11,
      home_owner: false,
      preferred_financier: [organisationId],
    });
    expect(res.body).toEqual({ results: [], destination_count: 0 });
  });

  it("an asset outside the approval's asset_ids drops it; a descendant of a listed category is covered", async () => {
    const {
      organisationId,
      approvalIds: [motor],
    } = await financierWith('Outcome Asset Finance', [{ name: 'Motor vehicles only', asset_ids: [1] }]);
    const car = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [organisationId] });
    expect(groupOf(car.body, organisationId).approvals[0]).toMatchObject({ approval_id: motor, status: 'confirmed' });
    const excavator = await matrix(pro, { cost: '50000', asset_value: 31, preferred_financier: [organisationId] });
    expect(excavator.body).toEqual({ results: [], destination_count: 0 });
  });

  it('max_asset_cost is compared GST-inclusive: 50,000 ex GST (55,000 inc) passes a 55,000 cap, 50,001 does not', async () => {
    const {
      organisationId,
      approvalIds: [capped],
    } = await financierWith('Outcome Cost Finance', [{ name: 'Up to $55k', max_asset_cost: '55000' }]);
    const at = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [organisationId] });
    expect(groupOf(at.body, organisationId).approvals[0]).toMatchObject({ approval_id: capped, status: 'confirmed' });
    const over = await matrix(pro, { cost: '50001', asset_value: 11, preferred_financier: [organisationId] });
    expect(over.body.results).toEqual([]);
    const inclusive = await matrix(pro, {
      cost: '55000',
      cost_gst: true,
      asset_value: 11,
      preferred_financier: [organisationId],
    });
    expect(groupOf(inclusive.body, organisationId).approvals[0]).toMatchObject({ approval_id: capped });
  });
});

describe('Approval evaluation outcome: supplying the missing answers on a later run moves possible to confirmed', () => {
  it('run 1 possible with missing_fields; run 2 answers them and the same approval is confirmed', async () => {
    const {
      organisationId,
      approvalIds: [id],
    } = await financierWith('Later Run Finance', [{ name: 'GST 12m, file 24m', min_gst_age: 12, min_file_age: 24 }]);
    const first = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [organisationId] });
    const before = groupOf(first.body, organisationId).approvals[0];
    expect(before).toMatchObject({ approval_id: id, status: 'possible', missing_fields: ['file_age', 'gst_age'] });
    const second = await matrix(pro, {
      cost: '50000',
      asset_value: 11,
      gst_age: 12,
      file_age: 30,
      preferred_financier: [organisationId],
    });
    const after = groupOf(second.body, organisationId).approvals[0];
    expect(after).toEqual({ ...before, status: 'confirmed', missing_fields: [] });
  });
});

describe('POST /matrix/ term: optional; omitted returns term-bounded approvals as possible with term missing; above max_term drops', () => {
  let org: number;
  let bounded: number;
  let unbounded: number;
  beforeAll(async () => {
    ({
      organisationId: org,
      approvalIds: [bounded, unbounded],
    } = await financierWith('Term Finance', [{ name: 'Up to 48 months', max_term: 48 }, { name: 'Any term' }]));
  });
  const approvals = async (extra: Record<string, unknown>) =>
    groupOf((await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [org], ...extra })).body, org)
      ?.approvals ?? [];

  it('term omitted: the term-bounded approval is possible with term in missing_fields; the unbounded one is confirmed', async () => {
    const list = await approvals({});
    expect(list.find((a: any) => a.approval_id === bounded)).toMatchObject({
      status: 'possible',
      missing_fields: ['term'],
      max_term: 48,
    });
    expect(list.find((a: any) => a.approval_id === unbounded)).toMatchObject({
      status: 'confirmed',
      missing_fields: [],
      max_term: null,
    });
  });

  it('a term at max_term confirms (inclusive)', async () => {
    expect((await approvals({ term: 48 })).find((a: any) => a.approval_id === bounded)).toMatchObject({
      status: 'confirmed',
      missing_fields: [],
    });
  });

  it('a term above max_term drops the bounded approval', async () => {
    expect((await approvals({ term: 49 })).map((a: any) => a.approval_id)).toEqual([unbounded]);
  });

  it('min_term bounds a supplied term from below and is listed once when unanswered', async () => {
    const {
      organisationId,
      approvalIds: [both],
    } = await financierWith('Term Window Finance', [{ name: '24 to 60 months', min_term: 24, max_term: 60 }]);
    const none = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [organisationId] });
    expect(groupOf(none.body, organisationId).approvals[0]).toMatchObject({
      approval_id: both,
      missing_fields: ['term'],
    });
    const short = await matrix(pro, {
      cost: '50000',
      asset_value: 11,
      term: 12,
      preferred_financier: [organisationId],
    });
    expect(short.body.results).toEqual([]);
  });
});

describe('Matrix result shapes: MatrixFinancierGroup (grouped by financier; least-onerous doc level first, then higher priority)', () => {
  let alpha: number;
  let zulu: number;
  let ids: number[];
  beforeAll(async () => {
    // Zulu is created first, so id order and name order disagree.
    ({ organisationId: zulu } = await financierWith('Zulu Grouping Finance', [
      { name: 'Zulu only approval', doc_level: 'full_doc' },
    ]));
    let alphaIds: number[];
    ({ organisationId: alpha, approvalIds: alphaIds } = await financierWith('Alpha Grouping Finance', [
      { name: 'Full doc, top priority', doc_level: 'full_doc', priority: 100 },
      { name: 'Lite doc, low priority', doc_level: 'lite_doc', priority: 1 },
      { name: 'Low doc, priority 5', doc_level: 'low_doc', priority: 5 },
      { name: 'Lite doc, high priority', doc_level: 'lite_doc', priority: 50 },
      { name: 'Low doc, priority 7.5', doc_level: 'low_doc', priority: 7.5 },
    ]));
    ids = alphaIds;
  });

  it('groups sort by financier name, each exactly {organisation_id, organisation_name, approvals}', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [zulu, alpha] });
    expect(res.status).toBe(200);
    expect(res.body.results.map((g: any) => [g.organisation_id, g.organisation_name])).toEqual([
      [alpha, 'Alpha Grouping Finance'],
      [zulu, 'Zulu Grouping Finance'],
    ]);
    for (const group of res.body.results) expect(Object.keys(group).sort()).toEqual(GROUP_KEYS);
    expect(res.body.destination_count).toBe(6);
  });

  it('within a group: low_doc, lite_doc, full_doc; within a doc level, higher priority first (a float)', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [alpha] });
    const [fullTop, liteLow, low5, liteHigh, low75] = ids;
    expect(groupOf(res.body, alpha).approvals.map((a: any) => a.approval_id)).toEqual([
      low75,
      low5,
      liteHigh,
      liteLow,
      fullTop,
    ]);
  });

  it("every approval is in its own financier's group, on the demo catalogue too", async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11 });
    const owners = await t.database.prisma.approval.findMany({ select: { id: true, organisation_id: true } });
    const ownerOf = new Map(owners.map((o) => [o.id, o.organisation_id]));
    const seen = new Set<number>();
    expect(res.body.results.length).toBeGreaterThan(1);
    for (const group of res.body.results) {
      expect(seen.has(group.organisation_id)).toBe(false); // one group per financier
      seen.add(group.organisation_id);
      for (const a of group.approvals) expect(ownerOf.get(a.approval_id)).toBe(group.organisation_id);
    }
    const names = res.body.results.map((g: any) => g.organisation_name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en')));
  });
});

describe('POST /matrix/ preferred_financier: restricts the run to these organisations', () => {
  it('one financier: only its group; two: exactly those two', async () => {
    const one = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [2] });
    expect(one.body.results.map((g: any) => g.organisation_id)).toEqual([2]);
    expect(one.body.destination_count).toBe(one.body.results[0].approvals.length);
    const two = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [2, 1] });
    expect(two.body.results.map((g: any) => g.organisation_id).sort()).toEqual([1, 2]);
    const all = await matrix(pro, { cost: '50000', asset_value: 11 });
    expect(all.body.results.length).toBeGreaterThan(2);
    expect(two.body.results).toEqual(
      all.body.results.filter((g: any) => g.organisation_id === 1 || g.organisation_id === 2),
    );
  });

  it('an empty list means every financier', async () => {
    const empty = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [] });
    const all = await matrix(pro, { cost: '50000', asset_value: 11 });
    expect(empty.body).toEqual(all.body);
  });
});

describe('Both Matrix surfaces: a financier caller sees only its own organisation', () => {
  it('financier.admin@demo.test (org 1) gets only org 1, whatever preferred_financier says', async () => {
    const res = await matrix(financier, { cost: '50000', asset_value: 11 });
    expect(res.status).toBe(200);
    expect(res.body.results.map((g: any) => g.organisation_id)).toEqual([1]);
    const broker = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [1] });
    expect(res.body).toEqual(broker.body);
    const other = await matrix(financier, { cost: '50000', asset_value: 11, preferred_financier: [2, 3] });
    expect(other.body).toEqual({ results: [], destination_count: 0 });
  });
});

describe('POST /matrix/ response body: {results: MatrixFinancierGroup[], destination_count} with every MatrixApprovalResult field', () => {
  it('exact envelope, exact field set, right types', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11 });
    expect(Object.keys(res.body).sort()).toEqual(['destination_count', 'results']);
    expect(Number.isInteger(res.body.destination_count)).toBe(true);
    let count = 0;
    for (const group of res.body.results) {
      expect(Object.keys(group).sort()).toEqual(GROUP_KEYS);
      expect(Number.isInteger(group.organisation_id)).toBe(true);
      expect(typeof group.organisation_name).toBe('string');
      expect(group.approvals.length).toBeGreaterThan(0);
      for (const a of group.approvals) {
        count += 1;
        expect(Object.keys(a).sort()).toEqual(APPROVAL_RESULT_KEYS);
        expect(Number.isInteger(a.approval_id)).toBe(true);
        expect(typeof a.approval_name).toBe('string');
        expect(['low_doc', 'lite_doc', 'full_doc']).toContain(a.doc_level);
        expect(['confirmed', 'possible']).toContain(a.status);
        expect(Array.isArray(a.missing_fields)).toBe(true);
        expect(a.status === 'possible').toBe(a.missing_fields.length > 0);
        for (const f of a.missing_fields) expect(typeof f).toBe('string');
        for (const f of ['deposit_percentage', 'deposit_amount', 'deposit_required'])
          expect(a[f] === null || typeof a[f] === 'number').toBe(true);
        expect(a.max_term === null || Number.isInteger(a.max_term)).toBe(true);
        expect(Array.isArray(a.rate_bracket_ids)).toBe(true);
        for (const id of a.rate_bracket_ids) expect(Number.isInteger(id)).toBe(true);
      }
    }
    expect(count).toBeGreaterThan(0);
    expect(res.body.destination_count).toBe(count);
  });

  it('max_term and rate_bracket_ids come from the approval record', async () => {
    const res = await matrix(pro, { cost: '50000', asset_value: 11, preferred_financier: [1] });
    const one = groupOf(res.body, 1).approvals.find((a: any) => a.approval_id === 1);
    expect(one).toMatchObject({
      approval_name: 'Low Doc, ABN 2 years, asset-backed',
      doc_level: 'low_doc',
      max_term: 60,
      rate_bracket_ids: [5, 6],
    });
  });
});

describe('POST /matrix/ 403 entitlement_required: the Matrix is not on this account (Free plan)', () => {
  it('web: detail, message and entitlement; the message may point at the upgrade', async () => {
    const res = await matrix(free, { cost: '50000', asset_value: 11 });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'entitlement_required',
      detail: expect.any(String),
      message: expect.any(String),
      entitlement: 'matrix.enabled',
    });
  });

  it('ios: message equals detail and names no plan, price or link; differs from the web wording', async () => {
    const web = await matrix(free, { cost: '50000', asset_value: 11 });
    const ios = await matrix(free, { cost: '50000', asset_value: 11 }, { 'X-Service-Client': 'ios' });
    expect(ios.status).toBe(403);
    expect(ios.body).toEqual({
      error: 'entitlement_required',
      detail: expect.any(String),
      message: expect.any(String),
      entitlement: 'matrix.enabled',
    });
    expect(ios.body.message).toBe(ios.body.detail);
    expect(ios.body.message).not.toMatch(
      /\bpro\b|\bmax\b|team|enterprise|plan|upgrade|\$|price|http|www\.|\/|billing/i,
    );
    expect(ios.body.message).not.toBe(web.body.message);
  });

  it('an unrecognised X-Service-Client reads like ios; an explicit web reads like no header', async () => {
    const ios = await matrix(free, { cost: '50000', asset_value: 11 }, { 'X-Service-Client': 'ios' });
    const odd = await matrix(free, { cost: '50000', asset_value: 11 }, { 'X-Service-Client': 'blackberry' });
    expect(odd.body).toEqual(ios.body);
    const web = await matrix(free, { cost: '50000', asset_value: 11 }, { 'X-Service-Client': 'web' });
    expect(web.body).toEqual((await matrix(free, { cost: '50000', asset_value: 11 })).body);
  });

  it('a refused run consumes no allowance', async () => {
    const user = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'free.broker@demo.test' } });
    expect(await t.database.prisma.dailyUsage.count({ where: { user_id: user.id } })).toBe(0);
  });
});

describe('POST /matrix/ 403 feature_disabled: an operator switched the matrix surface off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ shareDatabaseWith: t, config: { disabledSurfaces: ['matrix'] } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('answers 403 {error: feature_disabled, detail} for a Pro broker; the other app (surface on) still answers 200', async () => {
    const res = await off.rest('POST', '/api/v1/matrix/', { token: pro, body: { cost: '50000', asset_value: 11 } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
    expect((await matrix(pro, { cost: '50000', asset_value: 11 })).status).toBe(200);
  });

  it('feature_disabled wording: ios names no plan, price or link; blackberry reads like ios', async () => {
    const ios = await off.rest('POST', '/api/v1/matrix/', {
      token: pro,
      body: { cost: '50000', asset_value: 11 },
      headers: { 'X-Service-Client': 'ios' },
    });
    const odd = await off.rest('POST', '/api/v1/matrix/', {
      token: pro,
      body: { cost: '50000', asset_value: 11 },
      headers: { 'X-Service-Client': 'blackberry' },
    });
    expect(ios.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
    expect(odd.body).toEqual(ios.body);
    expect(ios.body.detail).not.toMatch(/plan|upgrade|\$|http|\/|billing/i);
  });

  it('switching matrix off leaves matrix_calculator available (surfaces are separate)', async () => {
    const res = await off.rest('POST', '/api/v1/matrix-calculator/', {
      token: pro,
      body: { cost: '50000', asset_value: 11, term: 60, advance_arrears: 'arrears', repayment_frequency: 'monthly' },
    });
    expect(res.status).toBe(200);
  });
});
