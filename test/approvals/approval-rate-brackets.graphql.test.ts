/**
 * `Approval.rate_brackets`: the linked brackets themselves, read like rate brackets are. A broker reads every
 * financier's; a financier only its own organisation's (another financier's approval still names its bracket ids,
 * as every approval field is public, but lists none of the brackets). Demo catalogue: financier.admin@demo.test
 * administers org 1; org 2 is another financier. The masked-row rule is in test/rate-cards/row-links.query-count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from 'graphql-request';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let financier: string;
let broker: string;
let ownApproval: number;
let foreignApproval: number;

const ONE = gql`query One($id: Int!) { approval(id: $id) { __typename ... on Approval {
  id organisation_id rate_bracket_ids rate_brackets { id name organisation_id base_min base_max } } } }`;
const SET_BRACKETS = gql`mutation Set($id: Int!, $ids: [Int!]!) { setApprovalRateBrackets(id: $id, rateBracketIds: $ids) {
  __typename ... on Approval { rate_bracket_ids rate_brackets { id } } } }`;

const one = async (token: string, id: number) => (await t.graphql(token).request<any>(ONE, { id })).approval;

beforeAll(async () => {
  t = await startTestApp();
  financier = (await t.login('financier.admin@demo.test')).access;
  broker = (await t.login('broker.admin@demo.test')).access;
  const linked = async (organisation_id: number) =>
    (
      await t.database.prisma.approval.findFirstOrThrow({
        where: { organisation_id, rate_brackets: { some: {} } },
        orderBy: { id: 'asc' },
      })
    ).id;
  ownApproval = await linked(1);
  foreignApproval = await linked(2);
});
afterAll(async () => {
  await t?.close();
});

describe('rate_brackets are the brackets rate_bracket_ids names, in the same order', () => {
  it("a broker reads any financier's approval with its brackets' records", async () => {
    for (const id of [ownApproval, foreignApproval]) {
      const approval = await one(broker, id);
      expect(approval.rate_bracket_ids.length).toBeGreaterThan(0);
      expect(approval.rate_brackets.map((b: any) => b.id)).toEqual(approval.rate_bracket_ids);
      const stored = await t.database.prisma.rateBracket.findMany({
        where: { id: { in: approval.rate_bracket_ids } },
        orderBy: { id: 'asc' },
      });
      expect(approval.rate_brackets).toEqual(
        stored.map((b) => ({
          id: b.id,
          name: b.name,
          organisation_id: b.organisation_id,
          base_min: b.base_min,
          base_max: b.base_max,
        })),
      );
    }
  });

  it('follows a change of the links', async () => {
    const [first] = (await one(financier, ownApproval)).rate_bracket_ids;
    const data = await t.graphql(financier).request<any>(SET_BRACKETS, { id: ownApproval, ids: [first] });
    expect(data.setApprovalRateBrackets).toEqual({
      __typename: 'Approval',
      rate_bracket_ids: [first],
      rate_brackets: [{ id: first }],
    });
  });
});

describe("A financier reads only its own organisation's brackets", () => {
  it('its own approval lists its brackets', async () => {
    const approval = await one(financier, ownApproval);
    expect(approval.rate_brackets.map((b: any) => b.id)).toEqual(approval.rate_bracket_ids);
  });

  it("another financier's approval names its bracket ids but lists none of the brackets", async () => {
    const approval = await one(financier, foreignApproval);
    expect(approval.organisation_id).toBe(2);
    expect(approval.rate_bracket_ids.length).toBeGreaterThan(0);
    expect(approval.rate_brackets).toEqual([]);
  });
});
