/**
 * whatWouldItTake over the wire (GraphQL at /graphql on the real app): the answer for a deal, metering as one Matrix
 * run (allowance consumed once, cap_hit), the Free-tier paywall, and scope (a financier sees only its own approvals).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { gql } from 'graphql-request';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  approvalOf,
  bracketOf,
  DEAL,
  financierOrg,
  kit,
  pro,
  prisma,
  productOf,
  t,
  trial,
  UNLIMITED,
  usageOf,
  useMatrixCalculatorApp,
} from '../matrix/matrix-calculator/fixtures.ts';

useMatrixCalculatorApp();

const QUERY = gql`
  query W($input: DealInput!, $bounds: StructuringBoundsInput, $rankBy: StructuringRankBy) {
    whatWouldItTake(input: $input, bounds: $bounds, rankBy: $rankBy) {
      __typename
      ... on WhatWouldItTakeResult {
        approval_count
        approvals {
          approval_id organisation_id status no_suggestion_reason
          blockers { criterion field kind lever deal_value required eligible_in_months sentence }
          suggestion { approval_id changes { lever from to to_percentage } wait_months deposit term balloon
            rate_bracket_id rate_min e_min repayment_min masked sentence }
        }
        cheapest { approval_id term deposit repayment_min masked }
      }
      ... on CapHitError { limit used metric }
      ... on Error { message code }
    }
  }
`;

const ask = async (token: string, input: object, headers?: Record<string, string>) =>
  ((await t.graphql(token, headers).request(QUERY, { input })) as any).whatWouldItTake;

let org: number;
let shortTerm: number;
let creditScore: number;
beforeAll(async () => {
  org = await financierOrg('Structuring Finance');
  const product = await productOf(org);
  const bracket = await bracketOf(org, product, 8);
  shortTerm = await approvalOf(org, { name: 'Short term', max_term: 36 }, [bracket]);
  creditScore = await approvalOf(org, { name: 'Good credit', min_credit_score: 700 }, [bracket]);
});

describe('whatWouldItTake: blockers and the smallest change, priced', () => {
  it('a term too long is met by the longest term the approval takes; a credit score is a fact', async () => {
    const res = await ask(pro, { ...DEAL, credit_score: 600, preferred_financier: [org] });
    expect(res.__typename).toBe('WhatWouldItTakeResult');
    expect(res.approvals.map((a: any) => a.approval_id)).toEqual([shortTerm, creditScore]);
    const [term, credit] = res.approvals;
    expect(term.status).toBe('ruled_out');
    expect(term.blockers).toEqual([
      expect.objectContaining({
        criterion: 'max_term',
        kind: 'lever',
        lever: 'term',
        deal_value: '60',
        required: '36',
      }),
    ]);
    expect(term.suggestion).toMatchObject({ changes: [{ lever: 'term', from: 60, to: 36 }], wait_months: 0, term: 36 });
    expect(term.suggestion.rate_min).toBe('8.0000');
    expect(term.suggestion.sentence).toMatch(/term from 60 to 36 months/);
    expect(credit).toMatchObject({ suggestion: null, no_suggestion_reason: 'fact' });
    expect(credit.blockers[0]).toMatchObject({ criterion: 'min_credit_score', kind: 'fact' });
  });

  it('mobile wording states the change without a dollar sign', async () => {
    const res = await ask(pro, { ...DEAL, preferred_financier: [org] }, { 'X-Service-Client': 'ios' });
    for (const a of res.approvals) {
      for (const b of a.blockers) expect(b.sentence).not.toMatch(/\$|http|\/settings/);
      if (a.suggestion) expect(a.suggestion.sentence).not.toMatch(/\$|http|\/settings/);
    }
  });

  it('a bad bound answers a ValidationError naming it', async () => {
    const data: any = await t
      .graphql(pro)
      .request(
        gql`query { whatWouldItTake(input: {cost: "50000", asset_value: 11, term: 60, advance_arrears: arrears, repayment_frequency: monthly}, bounds: {min_term: 40, max_term: 20}) { __typename ... on ValidationError { errors { field } } } }`,
      );
    expect(data.whatWouldItTake.__typename).toBe('ValidationError');
    expect(data.whatWouldItTake.errors.map((e: any) => e.field)).toEqual(['bounds.min_term']);
  });
});

describe('metering: one Matrix run, the same allowance and cap_hit', () => {
  it('each answer consumes one matrix run and no calculator run; a spent allowance answers cap_hit', async () => {
    const user = await prisma().user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } });
    await kit.planOverrides(8, { calculator_allowance: null, matrix_allowance: 1 });
    await prisma().dailyUsage.deleteMany({ where: { user_id: user.id } });
    try {
      expect((await ask(pro, { ...DEAL, preferred_financier: [org] })).__typename).toBe('WhatWouldItTakeResult');
      expect(await usageOf(user.id)).toEqual({ matrix: 1 });
      const refused = await ask(pro, { ...DEAL, preferred_financier: [org] });
      expect(refused).toMatchObject({ __typename: 'CapHitError', limit: 1, used: 1, metric: 'matrix' });
      expect(await usageOf(user.id)).toEqual({ matrix: 1 });
    } finally {
      await kit.planOverrides(8, UNLIMITED);
      await prisma().dailyUsage.deleteMany({ where: { user_id: user.id } });
    }
  });
});

describe('paywall: a Free broker sees the figures of the cheapest three suggestions only', () => {
  it('suggestions past the three lowest e_min are masked, with figures null', async () => {
    const paywall = await financierOrg('Structuring Paywall Finance');
    const product = await productOf(paywall);
    const ids: number[] = [];
    for (const base of [5, 6, 7, 9, 10]) {
      const bracket = await bracketOf(paywall, product, base);
      ids.push(await approvalOf(paywall, { name: `Short ${base}`, max_term: 36 }, [bracket]));
    }
    const res = await ask(trial, { ...DEAL, preferred_financier: [paywall] });
    const bySuggestion = new Map(res.approvals.map((a: any) => [a.approval_id, a.suggestion]));
    expect(ids.map((id) => (bySuggestion.get(id) as any).masked)).toEqual([false, false, false, true, true]);
    const masked = bySuggestion.get(ids[4]) as any;
    expect(masked).toMatchObject({ rate_min: null, e_min: null, repayment_min: null, term: 36 });
  });
});

describe('scope: a financier sees only its own approvals', () => {
  it("another financier's approvals never appear", async () => {
    const financier = (await t.login('financier.admin@demo.test')).access;
    const res = await ask(financier, { ...DEAL });
    if (res.__typename !== 'WhatWouldItTakeResult') return expect(res.__typename).toBe('EntitlementRequiredError');
    const self = await prisma().user.findUniqueOrThrow({ where: { email: 'financier.admin@demo.test' } });
    for (const a of res.approvals) expect(a.organisation_id).toBe(self.organisation_id);
    expect(res.approvals.some((a: any) => a.organisation_id === org)).toBe(false);
  });
});

describe('POST /api/v1/what-would-it-take/: the same answer as the GraphQL field', () => {
  const FULL = gql`
    query F($input: DealInput!, $bounds: StructuringBoundsInput) {
      whatWouldItTake(input: $input, bounds: $bounds) {
        ... on WhatWouldItTakeResult {
          approvals { approval_id approval_name organisation_id organisation_name doc_level status
            blockers { criterion field kind lever deal_value required eligible_in_months sentence }
            suggestion { approval_id organisation_id changes { lever from to to_percentage } wait_months deposit term balloon
              rate_bracket_id rate_min e_min repayment_min repayment_frequency masked sentence }
            no_suggestion_reason }
          cheapest { approval_id organisation_id changes { lever from to to_percentage } wait_months deposit term balloon
            rate_bracket_id rate_min e_min repayment_min repayment_frequency masked sentence }
          approval_count
        }
      }
    }
  `;

  it('the REST body carries the deal and the bounds; the answer equals the GraphQL one', async () => {
    const deal = { ...DEAL, credit_score: 600, preferred_financier: [org] };
    const bounds = { min_term: 24, max_term: 48 };
    const rest = await t.rest('POST', '/api/v1/what-would-it-take/', { token: pro, body: { ...deal, bounds } });
    expect(rest.status).toBe(200);
    const graph: any = await t.graphql(pro).request(FULL, { input: deal, bounds });
    expect(rest.body).toEqual(graph.whatWouldItTake);
    expect(rest.body.approvals[0].suggestion.term).toBe(36);
  });

  it('a bad bound is 400 naming it', async () => {
    const rest = await t.rest('POST', '/api/v1/what-would-it-take/', {
      token: pro,
      body: { ...DEAL, bounds: { max_deposit: -1 } },
    });
    expect(rest.status).toBe(400);
    expect(Object.keys(rest.body.errors)).toEqual(['bounds.max_deposit']);
  });
});

describe('the three surfaces answer the same thing for the same deal', () => {
  it('MCP what_would_it_take, REST and GraphQL agree; an unknown argument is refused', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: pro,
      body: { name: 'structuring mcp', scope: 'read', origin: 'mcp' },
    });
    expect(minted.status).toBe(201);
    const client = new Client({ name: 'Structuring Test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } },
      }),
    );
    try {
      const deal = { ...DEAL, credit_score: 600, preferred_financier: [org] };
      const bounds = { min_term: 24, max_term: 48 };
      const viaMcp = (await client.callTool({
        name: 'what_would_it_take',
        arguments: { input: deal, bounds, rank_by: 'repayment' },
      })) as CallToolResult;
      expect(viaMcp.isError ?? false).toBe(false);
      const answer = JSON.parse((viaMcp.content[0] as { text: string }).text);
      const rest = await t.rest('POST', '/api/v1/what-would-it-take/', {
        token: pro,
        body: { ...deal, bounds, rank_by: 'repayment' },
      });
      expect(answer).toEqual(rest.body);
      const graph: any = await t.graphql(pro).request(
        gql`query A($input: DealInput!, $bounds: StructuringBoundsInput) { whatWouldItTake(input: $input, bounds: $bounds) {
          ... on WhatWouldItTakeResult { approval_count approvals { approval_id suggestion { term deposit repayment_min sentence } } } } }`,
        { input: deal, bounds },
      );
      expect(graph.whatWouldItTake.approval_count).toBe(rest.body.approval_count);
      expect(graph.whatWouldItTake.approvals).toEqual(
        rest.body.approvals.map((a: any) => ({
          approval_id: a.approval_id,
          suggestion: a.suggestion && {
            term: a.suggestion.term,
            deposit: a.suggestion.deposit,
            repayment_min: a.suggestion.repayment_min,
            sentence: a.suggestion.sentence,
          },
        })),
      );
      const unknown = (await client.callTool({
        name: 'what_would_it_take',
        arguments: { input: deal, nope: 1 },
      })) as CallToolResult;
      expect(unknown.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
