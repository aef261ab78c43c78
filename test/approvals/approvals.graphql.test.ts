/**
 * GraphQL approvals: the `approvals` cursor connection, `approval(id)`, and the caller's own writes
 * (createApproval, updateApproval, deleteApproval, setApprovalRateBrackets) with the same rules and typed errors as
 * REST. Demo catalogue: financier.admin@demo.test administers org 1; org 2 is another financier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from 'graphql-request';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';
import { say } from '../../src/lib/wording.ts';
import { MAX_PAGE_SIZE } from '../../src/graphql/builder.ts';

let t: TestApp;
let financier: string;
let broker: string;
let readToken: string;
let ownBrackets: number[];
let foreignBracket: number;

const FIELDS =
  'id name doc_level organisation_id priority min_asset_cost asset_ids rate_bracket_ids financier { id name }';
const RESULT = `__typename ... on Approval { ${FIELDS} } ... on Error { message code } ... on ValidationError { errors { field messages } }`;

const CREATE = gql`mutation Create($input: ApprovalInput!) { createApproval(input: $input) { ${RESULT} } }`;
const UPDATE = gql`mutation Update($id: Int!, $input: ApprovalInput!) { updateApproval(id: $id, input: $input) { ${RESULT} } }`;
const DELETE = gql`mutation Delete($id: Int!) { deleteApproval(id: $id) { __typename ... on DeletedApproval { id } ... on Error { message } } }`;
const SET_BRACKETS = gql`mutation Set($id: Int!, $ids: [Int!]!) { setApprovalRateBrackets(id: $id, rateBracketIds: $ids) { ${RESULT} } }`;
const ONE = gql`query One($id: Int!) { approval(id: $id) { __typename ... on Approval { ${FIELDS} } ... on Error { message code } } }`;
const PAGE = gql`query Page($org: Int, $first: Int, $after: String) {
  approvals(organisationId: $org, first: $first, after: $after) {
    __typename
    ... on QueryApprovalsSuccess { data { edges { cursor node { id organisation_id priority } } pageInfo { hasNextPage endCursor } } }
    ... on Error { message }
    ... on ValidationError { errors { field messages } }
  } }`;

const run = (token: string | null, document: string, variables: Record<string, unknown> = {}) =>
  t.graphql(token).request<any>(document, variables);

beforeAll(async () => {
  t = await startTestApp();
  financier = (await t.login('financier.admin@demo.test')).access;
  broker = (await t.login('broker.admin@demo.test')).access;
  readToken = (await t.rest('POST', '/api/v1/api-tokens', { token: financier, body: { name: 'r', scope: 'read' } }))
    .body.token;
  const prisma = t.database.prisma;
  ownBrackets = (await prisma.rateBracket.findMany({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).map(
    (b) => b.id,
  );
  foreignBracket = (await prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: 2 } })).id;
});
afterAll(async () => {
  await t?.close();
});

describe("createApproval: a new approval of the caller's own financier organisation", () => {
  it("creates it with the caller's organisation and its rate-bracket links", async () => {
    const data = await run(financier, CREATE, {
      input: {
        name: 'Created',
        doc_level: 'full_doc',
        priority: 2,
        min_asset_cost: '5000',
        asset_ids: [1],
        rate_bracket_ids: [ownBrackets[0]],
      },
    });
    expect(data.createApproval).toMatchObject({
      __typename: 'Approval',
      name: 'Created',
      doc_level: 'full_doc',
      organisation_id: 1,
      priority: 2,
      min_asset_cost: '5000.00',
      asset_ids: [1],
      rate_bracket_ids: [ownBrackets[0]],
      financier: { id: 1, name: 'Harbour Equipment Finance' },
    });
    const stored = await t.database.prisma.approval.findUniqueOrThrow({
      where: { id: data.createApproval.id },
      include: { rate_brackets: true },
    });
    expect(stored.organisation_id).toBe(1);
    expect(stored.rate_brackets.map((l) => l.rate_bracket_id)).toEqual([ownBrackets[0]]);
  });

  it('answers ValidationError naming the fields, and writes nothing', async () => {
    const before = await t.database.prisma.approval.count();
    const data = await run(financier, CREATE, {
      input: { name: '', doc_level: 'low_doc', rate_bracket_ids: [foreignBracket], organisation_id: 2 },
    });
    expect(data.createApproval.__typename).toBe('ValidationError');
    expect(data.createApproval.errors.map((e: any) => e.field).sort()).toEqual([
      'name',
      'organisation_id',
      'rate_bracket_ids',
    ]);
    expect(await t.database.prisma.approval.count()).toBe(before);
  });

  it('a broker (no approvals of its own) and a read token are ForbiddenError', async () => {
    const input = { name: 'x', doc_level: 'low_doc' };
    const byBroker = await run(broker, CREATE, { input });
    expect(byBroker.createApproval).toMatchObject({ __typename: 'ForbiddenError', message: say('forbidden', 'web') });
    const byToken = await run(readToken, CREATE, { input });
    expect(byToken.createApproval).toMatchObject({
      __typename: 'ForbiddenError',
      message: say('forbidden_read_scope', 'web'),
    });
    const anonymous = await run(null, CREATE, { input });
    expect(anonymous.createApproval.__typename).toBe('UnauthenticatedError');
  });
});

describe('updateApproval: the same rules and errors as PUT /approvals/{id}', () => {
  it("replaces the caller's own approval; another organisation's is ForbiddenError; a missing one NotFoundError", async () => {
    const own = await t.database.prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 } });
    const foreign = await t.database.prisma.approval.findFirstOrThrow({ where: { organisation_id: 2 } });
    const ok = await run(financier, UPDATE, { id: own.id, input: { name: 'Updated', doc_level: 'lite_doc' } });
    expect(ok.updateApproval).toMatchObject({ __typename: 'Approval', name: 'Updated', rate_bracket_ids: [] });
    const refused = await run(financier, UPDATE, { id: foreign.id, input: { name: 'x', doc_level: 'lite_doc' } });
    expect(refused.updateApproval.__typename).toBe('ForbiddenError');
    const missing = await run(financier, UPDATE, { id: 999999, input: { name: 'x', doc_level: 'lite_doc' } });
    expect(missing.updateApproval).toMatchObject({ __typename: 'NotFoundError', message: 'Approval not found.' });
  });
});

describe("setApprovalRateBrackets: links only brackets of the caller's own rate card", () => {
  it('replaces the links; a foreign or unknown bracket is ValidationError and nothing changes', async () => {
    const own = (await run(financier, CREATE, { input: { name: 'Links', doc_level: 'low_doc' } })).createApproval;
    const set = await run(financier, SET_BRACKETS, {
      id: own.id,
      ids: [ownBrackets[1], ownBrackets[0], ownBrackets[1]],
    });
    expect(set.setApprovalRateBrackets).toMatchObject({
      __typename: 'Approval',
      rate_bracket_ids: [ownBrackets[0], ownBrackets[1]],
    });
    const bad = await run(financier, SET_BRACKETS, { id: own.id, ids: [ownBrackets[0], foreignBracket] });
    expect(bad.setApprovalRateBrackets.__typename).toBe('ValidationError');
    expect(bad.setApprovalRateBrackets.errors[0].field).toBe('rateBracketIds');
    const after = await run(financier, ONE, { id: own.id });
    expect(after.approval.rate_bracket_ids).toEqual([ownBrackets[0], ownBrackets[1]]);
    const cleared = await run(financier, SET_BRACKETS, { id: own.id, ids: [] });
    expect(cleared.setApprovalRateBrackets.rate_bracket_ids).toEqual([]);
  });

  it("another organisation's approval is ForbiddenError", async () => {
    const foreign = await t.database.prisma.approval.findFirstOrThrow({ where: { organisation_id: 2 } });
    const res = await run(financier, SET_BRACKETS, { id: foreign.id, ids: [ownBrackets[0]] });
    expect(res.setApprovalRateBrackets.__typename).toBe('ForbiddenError');
  });
});

describe("deleteApproval: removes the caller's own approval and its links", () => {
  it("deletes its own, refuses another organisation's, and a second delete is NotFoundError", async () => {
    const created = (
      await run(financier, CREATE, {
        input: { name: 'Doomed', doc_level: 'low_doc', rate_bracket_ids: [ownBrackets[0]] },
      })
    ).createApproval;
    const deleted = await run(financier, DELETE, { id: created.id });
    expect(deleted.deleteApproval).toEqual({ __typename: 'DeletedApproval', id: created.id });
    expect(await t.database.prisma.approvalRateBracket.count({ where: { approval_id: created.id } })).toBe(0);
    expect((await run(financier, DELETE, { id: created.id })).deleteApproval.__typename).toBe('NotFoundError');
    const foreign = await t.database.prisma.approval.findFirstOrThrow({ where: { organisation_id: 2 } });
    expect((await run(financier, DELETE, { id: foreign.id })).deleteApproval.__typename).toBe('ForbiddenError');
    expect(await t.database.prisma.approval.findUnique({ where: { id: foreign.id } })).not.toBeNull();
  });
});

describe("approval(id): any signed-in caller reads any financier's approval", () => {
  it('answers the approval, NotFoundError for a missing id, UnauthenticatedError without credentials', async () => {
    const foreign = await t.database.prisma.approval.findFirstOrThrow({ where: { organisation_id: 2 } });
    expect((await run(readToken, ONE, { id: foreign.id })).approval).toMatchObject({
      id: foreign.id,
      organisation_id: 2,
    });
    expect((await run(broker, ONE, { id: 999999 })).approval.__typename).toBe('NotFoundError');
    expect((await run(null, ONE, { id: foreign.id })).approval.__typename).toBe('UnauthenticatedError');
  });
});

describe('approvals: a relay cursor connection in list order, pages capped', () => {
  it('pages through every approval exactly once, in order by financier, priority desc, id', async () => {
    // Ties on priority within a financier, so the id tiebreak is what keeps pages apart.
    const kit = seedKit(t.database.prisma);
    const fin = await kit.financier({ name: 'Paging Finance' });
    for (let i = 0; i < 7; i++) await fin.approval({ priority: i % 2 });
    const seen: any[] = [];
    let after: string | null = null;
    for (;;) {
      const data: any = await run(broker, PAGE, { org: fin.id, first: 3, after });
      const page = data.approvals.data;
      seen.push(...page.edges.map((e: any) => e.node));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const expected = await t.database.prisma.approval.findMany({
      where: { organisation_id: fin.id },
      orderBy: [{ priority: 'desc' }, { id: 'asc' }],
    });
    expect(seen.map((n) => n.id)).toEqual(expected.map((a) => a.id));
  });

  it("every financier's approvals without organisationId; first above the cap returns the cap", async () => {
    const total = await t.database.prisma.approval.count();
    const data = await run(broker, PAGE, { first: 1000 });
    expect(data.approvals.data.edges).toHaveLength(Math.min(total, MAX_PAGE_SIZE));
    const orgs = data.approvals.data.edges.map((e: any) => e.node.organisation_id);
    expect(orgs).toEqual([...orgs].sort((a, b) => a - b));
  });

  it('pages backwards (last, before) through the same order', async () => {
    const BACK = gql`query Back($org: Int, $last: Int, $before: String) {
      approvals(organisationId: $org, last: $last, before: $before) {
        ... on QueryApprovalsSuccess { data { edges { node { id } } pageInfo { hasPreviousPage startCursor } } }
      } }`;
    const fin = await t.database.prisma.organisation.findFirstOrThrow({ where: { name: 'Paging Finance' } });
    const expected = await t.database.prisma.approval.findMany({
      where: { organisation_id: fin.id },
      orderBy: [{ priority: 'desc' }, { id: 'asc' }],
    });
    const seen: number[] = [];
    let before: string | null = null;
    for (;;) {
      const data: any = await run(broker, BACK, { org: fin.id, last: 3, before });
      const page = data.approvals.data;
      seen.unshift(...page.edges.map((e: any) => e.node.id));
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    expect(seen).toEqual(expected.map((a) => a.id));
  });

  it('a cursor this list did not hand out is ValidationError naming the argument; nothing reaches the database', async () => {
    const forged = [
      'xyz',
      '',
      Buffer.from('GPC:S:abc').toString('base64'),
      Buffer.from('approval:0').toString('base64url'),
      Buffer.from('approval:99999999999').toString('base64url'),
      'x'.repeat(500),
    ];
    for (const after of forged) {
      const data = await run(broker, PAGE, { first: 2, after });
      expect(data.approvals.__typename).toBe('ValidationError');
      expect(data.approvals.errors[0].field).toBe('after');
    }
  });

  it('without credentials is UnauthenticatedError', async () => {
    expect((await run(null, PAGE, {})).approvals.__typename).toBe('UnauthenticatedError');
  });
});
