/**
 * Issue reports (spec: GET /api/v1/reports/duplicates and its Errors rows; Authentication 7 and 9; Events;
 * docs/issue-reports.md): filing, the grouping key, the duplicate count, the financier's list and resolution.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type SeedKit } from '../../testkit/seed.ts';
import { groupHash, subjectOf } from '../../src/modules/reports/subject.ts';
import { reportingAvailable } from '../../src/modules/reports/service.ts';
import { PLAN_TERMS } from '../../src/lib/plans.ts';
import type { Caller } from '../../src/lib/caller.ts';

let t: TestApp;
let kit: SeedKit;
let broker: string;
let free: string;
let lender: string;
let approvalId: number;
let bracketId: number;
let otherApproval: number;
beforeAll(async () => {
  t = await startTestApp();
  kit = seedKit(t.database.prisma);
  broker = (await t.login('broker.admin@demo.test')).access;
  free = (await t.login('free.broker@demo.test')).access;
  lender = (await t.login('financier.admin@demo.test')).access;
  const prisma = t.database.prisma;
  approvalId = (await prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).id;
  bracketId = (await prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).id;
  otherApproval = (await prisma.approval.findFirstOrThrow({ where: { organisation_id: { not: 1 } } })).id;
});
afterAll(async () => {
  await t?.close();
});

const duplicates = (token: string | null, query: string, headers?: Record<string, string>) =>
  t.rest('GET', `/api/v1/reports/duplicates${query}`, { token, headers });
const file = (token: string, body: unknown) => t.rest('POST', '/api/v1/reports', { token, body });
const approvalReport = (extra: Record<string, unknown> = {}) => ({
  kind: 'approval',
  subject_org: 1,
  approval: approvalId,
  subject_field: 'max_term',
  comment: 'They take 84 months now.',
  ...extra,
});

describe('the grouping key: sha256 of a canonical string of kind and subject, stable across processes and releases', () => {
  it('is the documented algorithm, byte for byte', () => {
    const canonical = JSON.stringify(['approval', 1, 17, null, 'max_term']);
    const expected = createHash('sha256').update(`issue-report/v1\n${canonical}`).digest('hex');
    expect(
      groupHash('approval', subjectOf('approval', { subject_org: 1, approval: 17, subject_field: 'max_term' })),
    ).toBe(expected);
    // A literal from this release: a future change of the algorithm fails here rather than splitting groups silently.
    expect(expected).toBe(
      createHash('sha256').update('issue-report/v1\n["approval",1,17,null,"max_term"]').digest('hex'),
    );
  });

  it('ignores the part the kind does not use (pricing: approval; approval: rate_bracket)', () => {
    const a = groupHash(
      'pricing',
      subjectOf('pricing', { subject_org: 1, rate_bracket: 5, subject_field: 'base_min' }),
    );
    const b = groupHash(
      'pricing',
      subjectOf('pricing', { subject_org: 1, rate_bracket: 5, approval: 9, subject_field: 'base_min' }),
    );
    expect(a).toBe(b);
  });
});

describe('GET /reports/duplicates: 200 {group_hash, count} of open reports sharing the key', () => {
  it('counts open reports of the subject; never returns a report, reporter or comment', async () => {
    const first = await file(broker, approvalReport());
    expect(first.status).toBe(201);
    const second = await file(free, approvalReport({ comment: 'secret words' }));
    expect(second.status).toBe(201);
    const res = await duplicates(broker, `?kind=approval&subject_org=1&approval=${approvalId}&subject_field=max_term`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ group_hash: first.body.group_hash, count: 2 });
    expect(JSON.stringify(res.body)).not.toMatch(/secret words|broker|free/);
  });

  it('a partial subject answers count 0 with its key, not a validation error', async () => {
    for (const query of [
      '?kind=approval',
      '?kind=approval&subject_org=1',
      `?kind=approval&subject_org=1&approval=${approvalId}`,
      `?kind=approval&subject_org=1&approval=${approvalId}&subject_field=nonsense`,
      // Blank fields, as a form sends them, are absent: partial, not malformed.
      '?kind=approval&subject_org=&approval=&rate_bracket=&subject_field=',
      `?kind=approval&subject_org=1&approval=${approvalId}&subject_field=%20`,
    ]) {
      const res = await duplicates(broker, query);
      expect(res.status, query).toBe(200);
      expect(res.body).toEqual({ group_hash: expect.stringMatching(/^[0-9a-f]{64}$/), count: 0 });
    }
  });
});

describe('GET /reports/duplicates: 400 when kind is missing or unknown, or an id is not an integer (naming the field)', () => {
  it('missing and unknown kind', async () => {
    const missing = await duplicates(broker, '?subject_org=1');
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['kind']);
    const unknown = await duplicates(broker, '?kind=billing');
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.errors)).toEqual(['kind']);
  });

  it('non-integer subject_org, approval and rate_bracket', async () => {
    for (const field of ['subject_org', 'approval', 'rate_bracket']) {
      for (const value of ['abc', '1.5', '99999999999', '1e3']) {
        const res = await duplicates(broker, `?kind=pricing&${field}=${value}`);
        expect(res.status, `${field}=${value}`).toBe(400);
        expect(Object.keys(res.body.errors)).toEqual([field]);
      }
    }
  });
});

describe('GET /reports/duplicates: 403 with API-token auth, or where reporting is unavailable on the account', () => {
  it('an API token (read_write included) is refused', async () => {
    const created = await t.rest('POST', '/api/v1/api-tokens', {
      token: broker,
      body: { name: 'rw', scope: 'read_write' },
    });
    const res = await duplicates(created.body.token, '?kind=approval');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it("a financier's user and a user of no organisation are refused (they do not file reports)", async () => {
    expect((await duplicates(lender, '?kind=approval')).status).toBe(403);
    const loner = await kit.user();
    const token = (await t.login(loner.email)).access;
    expect((await duplicates(token, '?kind=approval')).status).toBe(403);
  });

  it('availability follows the reports.enabled entitlement of the plan', () => {
    const caller = (entitlements: string[]) =>
      ({ organisation: { id: 1, type: 'b', terms: { ...PLAN_TERMS.pro, entitlements } } }) as unknown as Caller;
    expect(reportingAvailable(caller(['reports.enabled']))).toBe(true);
    expect(reportingAvailable(caller(['matrix.enabled']))).toBe(false);
  });

  it('401 without credentials', async () => {
    expect((await duplicates(null, '?kind=approval')).status).toBe(401);
  });
});

describe('filing a report: the subject must exist and belong to the financier; the comment is bounded', () => {
  it('files a pricing report under its key and answers the report without its reporter', async () => {
    const res = await file(broker, {
      kind: 'pricing',
      subject_org: 1,
      rate_bracket: bracketId,
      subject_field: 'base_min',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'pricing',
      subject_org: 1,
      rate_bracket: bracketId,
      approval: null,
      status: 'open',
    });
    expect(res.body.group_hash).toBe(
      groupHash(
        'pricing',
        subjectOf('pricing', { subject_org: 1, rate_bracket: bracketId, subject_field: 'base_min' }),
      ),
    );
    expect(Object.keys(res.body)).not.toContain('reporter_id');
  });

  it("refuses an unknown financier, another financier's approval, a missing target, a field the kind does not know, a long comment", async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [approvalReport({ subject_org: 8 }), ['subject_org', 'approval']],
      [approvalReport({ approval: otherApproval }), ['approval']],
      [approvalReport({ approval: undefined }), ['approval']],
      [approvalReport({ rate_bracket: bracketId }), ['rate_bracket']],
      [approvalReport({ subject_field: 'base_min' }), ['subject_field']],
      [approvalReport({ comment: 'x'.repeat(2001) }), ['comment']],
      [{ kind: 'pricing', subject_org: 1, rate_bracket: 424242, subject_field: 'base_min' }, ['rate_bracket']],
      [{ kind: 'other', subject_org: 1, subject_field: 'x' }, ['kind']],
    ];
    const before = await t.database.prisma.issueReport.count();
    for (const [body, fields] of cases) {
      const res = await file(broker, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.errors).sort(), JSON.stringify(body)).toEqual(fields.sort());
    }
    expect(await t.database.prisma.issueReport.count()).toBe(before);
  });

  it('one open report per reporter per subject: filing again answers the open one', async () => {
    const body = approvalReport({ subject_field: 'min_credit_score' });
    const a = await file(broker, body);
    const b = await file(broker, { ...body, comment: 'again' });
    expect(b.body.id).toBe(a.body.id);
    expect(
      (await duplicates(broker, `?kind=approval&subject_org=1&approval=${approvalId}&subject_field=min_credit_score`))
        .body.count,
    ).toBe(1);
  });

  it('session only and only where reporting is available: an API token and a financier get 403', async () => {
    const created = await t.rest('POST', '/api/v1/api-tokens', {
      token: broker,
      body: { name: 'rw2', scope: 'read_write' },
    });
    expect((await file(created.body.token, approvalReport())).status).toBe(403);
    expect((await file(lender, approvalReport())).status).toBe(403);
  });
});

describe("filing notifies the financier concerned (issue_reports): its admins and the holders of the kind's permission", () => {
  it('approval reports reach admins and change_approval holders; pricing reports admins and change_rate_card holders', async () => {
    const fin = await kit.financier();
    const approval = await fin.approval();
    const product = await fin.product();
    const bracket = await product.bracket();
    const admin = await fin.user({ is_admin: true });
    const approver = await fin.user({ groups: [{ name: 'Report approvers', permissions: ['change_approval'] }] });
    const pricer = await fin.user({ groups: [{ name: 'Report pricers', permissions: ['change_rate_card'] }] });
    const idle = await fin.user();
    await t.database.prisma.$executeRawUnsafe('UPDATE catalogue_state SET version = version + 1');
    const token = (await t.login('broker.user@demo.test')).access;
    expect(
      (await file(token, { kind: 'approval', subject_org: fin.id, approval: approval.id, subject_field: 'min_term' }))
        .status,
    ).toBe(201);
    expect(
      (await file(token, { kind: 'pricing', subject_org: fin.id, rate_bracket: bracket.id, subject_field: 'e_min' }))
        .status,
    ).toBe(201);
    const rows = await t.database.prisma.notification.findMany({
      where: { category: 'issue_reports', user_id: { in: [admin.id, approver.id, pricer.id, idle.id] } },
    });
    const kinds = (id: number) =>
      rows
        .filter((r) => r.user_id === id)
        .map((r) => (r.data as any).kind)
        .sort();
    expect(kinds(admin.id)).toEqual(['approval', 'pricing']);
    expect(kinds(approver.id)).toEqual(['approval']);
    expect(kinds(pricer.id)).toEqual(['pricing']);
    expect(kinds(idle.id)).toEqual([]);
    expect(JSON.stringify(rows)).not.toContain('broker.user');
  });
});

describe('financiers list and resolve reports about their own catalogue only', () => {
  const LIST = `query($status: IssueReportStatus) { issueReports(status: $status) { __typename
    ... on QueryIssueReportsConnection { edges { node { id kind subject_org status comment } } } ... on Error { code } } }`;
  const RESOLVE = `mutation($id: Int!) { resolveIssueReport(id: $id) { __typename ... on IssueReport { id status resolved_at } ... on Error { code } } }`;

  it('lists its own reports, filters by status, resolves idempotently; the reporter is told once', async () => {
    const filed = await file(broker, approvalReport({ subject_field: 'max_abn_age' }));
    const client = t.graphql(lender);
    const open = await client.request<any>(LIST, { status: 'open' });
    const ids = open.issueReports.edges.map((e: any) => e.node.id);
    expect(ids).toContain(filed.body.id);
    expect(open.issueReports.edges.every((e: any) => e.node.subject_org === 1 && e.node.status === 'open')).toBe(true);
    const reporter = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } }))
      .id;
    const told = () =>
      t.database.prisma.notification.count({ where: { user_id: reporter, category: 'issue_reports' } });
    const before = await told();
    const first = await client.request<any>(RESOLVE, { id: filed.body.id });
    const again = await client.request<any>(RESOLVE, { id: filed.body.id });
    expect(first.resolveIssueReport).toMatchObject({ __typename: 'IssueReport', status: 'resolved' });
    expect(again.resolveIssueReport).toEqual(first.resolveIssueReport);
    expect(await told()).toBe(before + 1);
    const after = await client.request<any>(LIST, { status: 'open' });
    expect(after.issueReports.edges.map((e: any) => e.node.id)).not.toContain(filed.body.id);
    expect(
      (await duplicates(broker, `?kind=approval&subject_org=1&approval=${approvalId}&subject_field=max_abn_age`)).body
        .count,
    ).toBe(0);
  });

  it("another financier's report answers NotFoundError like a missing one; brokers cannot list", async () => {
    const filed = await file(broker, approvalReport({ subject_field: 'min_gst_age' }));
    const fin = await kit.financier();
    const stranger = await fin.user({ is_admin: true });
    const client = t.graphql((await t.login(stranger.email)).access);
    const foreign = await client.request<any>(RESOLVE, { id: filed.body.id });
    const missing = await client.request<any>(RESOLVE, { id: 99_999_999 });
    expect(foreign).toEqual(missing);
    expect(foreign.resolveIssueReport.__typename).toBe('NotFoundError');
    expect((await client.request<any>(LIST, {})).issueReports.edges).toEqual([]);
    expect((await t.graphql(broker).request<any>(LIST, {})).issueReports.code).toBe('forbidden');
  });
});
