/**
 * POST /calculator/recalculate and GraphQL `recalculate` re-price only a bracket the caller could have been shown
 * (docs/api-decisions.md "Recalculation"): its financier is in the caller's book (a broker: every financier; a
 * financier: only its own) and the caller can run its card type's surface (consumer cards: BID standing). Every other
 * id answers 404 with the body of an unknown id, so a competitor's monthly fee cannot be read off a repayment.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOGUE_PATH, startTestApp, type TestApp } from '../../testkit/app.ts';
import { recalculationBody } from '../../testkit/recalculation.ts';

const demo = JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8')) as {
  rate_brackets: { id: number; organisation_id: number; type?: string }[];
};
const brackets = demo.rate_brackets.map((b) => ({
  id: b.id,
  organisation_id: b.organisation_id,
  consumer: b.type === 'consumer',
}));

let t: TestApp;
let tokens: { lender: string; bidBroker: string; freeBroker: string };
beforeAll(async () => {
  t = await startTestApp();
  tokens = {
    lender: (await t.login('financier.admin@demo.test')).access, // organisation 1
    bidBroker: (await t.login('broker.admin@demo.test')).access, // Pro, Best Interests Duty
    freeBroker: (await t.login('free.broker@demo.test')).access, // Free, no consumer pricing
  };
});
afterAll(async () => {
  await t?.close();
});

const body = (rate_bracket_id: number) => recalculationBody(rate_bracket_id);
const recalc = (token: string, id: number) =>
  t.rest('POST', '/api/v1/calculator/recalculate', { token, body: body(id) });
const gqlRecalc = async (token: string, id: number): Promise<string> => {
  const data = await t
    .graphql(token)
    .request<any>(`query($input: RecalculateInput!) { recalculate(input: $input) { __typename } }`, {
      input: body(id),
    });
  return data.recalculate.__typename;
};

describe("a financier recalculates only its own brackets; another financier's answers 404 exactly like an unknown id", () => {
  it("own brackets 200; every other demo bracket 404 with the unknown id's body, over REST and GraphQL", async () => {
    const unknown = await recalc(tokens.lender, 987654);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Rate bracket not found.' });
    expect(brackets.some((b) => b.organisation_id === 1)).toBe(true);
    for (const b of brackets) {
      const res = await recalc(tokens.lender, b.id);
      if (b.organisation_id === 1) {
        expect(res.status, `bracket ${b.id}`).toBe(200);
        expect(res.body.rate_bracket_id).toBe(b.id);
      } else {
        expect(res.status, `bracket ${b.id}`).toBe(404);
        expect(res.body).toEqual(unknown.body);
        expect(await gqlRecalc(tokens.lender, b.id)).toBe('NotFoundError');
      }
    }
    expect(await gqlRecalc(tokens.lender, 987654)).toBe('NotFoundError');
  });
});

describe("a broker's book is every financier; consumer cards follow Best Interests Duty standing, as the calculator does", () => {
  it('a BID broker with consumer pricing recalculates every demo bracket, consumer cards included', async () => {
    expect(brackets.some((b) => b.consumer)).toBe(true);
    for (const b of brackets) expect((await recalc(tokens.bidBroker, b.id)).status, `bracket ${b.id}`).toBe(200);
  });

  it("a broker without consumer pricing gets commercial cards, and 404 (the unknown id's body) for consumer cards", async () => {
    const unknown = await recalc(tokens.freeBroker, 987654);
    for (const b of brackets) {
      const res = await recalc(tokens.freeBroker, b.id);
      if (b.consumer) {
        expect(res.status, `bracket ${b.id}`).toBe(404);
        expect(res.body).toEqual(unknown.body);
        expect(await gqlRecalc(tokens.freeBroker, b.id)).toBe('NotFoundError');
      } else {
        expect(res.status, `bracket ${b.id}`).toBe(200);
      }
    }
  });

  it('unknown and negative ids are 404 for brokers too; nothing is priced', async () => {
    for (const id of [0, -1, 41, 987654, 2 ** 31 - 1]) {
      const res = await recalc(tokens.bidBroker, id);
      expect(res.status, `id ${id}`).toBe(404);
      expect(res.body).toEqual({ error: 'Rate bracket not found.' });
    }
  });
});

describe("a bracket added to another financier later is outside a lender's book too (the snapshot is current)", () => {
  it("a new financier's bracket: 404 for organisation 1's lender, 200 for a broker", async () => {
    const prisma = t.database.prisma;
    const org = await prisma.organisation.create({
      data: { name: 'Book Test Finance', type: 'f', plan: 'enterprise' },
    });
    const product = await prisma.product.create({
      data: { organisation_id: org.id, product_name: 'Fee', compounding_frequency: 'm', monthly_fee: 25 },
    });
    const bracket = await prisma.rateBracket.create({
      data: { organisation_id: org.id, product_id: product.id, name: 'B', base_min: 9.5, base_max: 11.5 },
    });
    const lender = await recalc(tokens.lender, bracket.id);
    expect(lender.status).toBe(404);
    expect(lender.body).toEqual({ error: 'Rate bracket not found.' });
    const broker = await recalc(tokens.freeBroker, bracket.id);
    expect(broker.status).toBe(200);
    expect(broker.body.repayment_min).toBe(1075.09); // the fee is part of a visible bracket's repayment
  });
});
