/**
 * List fields are priced by the size the catalogue lets them have (docs/graphql.md "Cost"): a card's products and
 * brackets, a product's brackets. A financier's card with one product of 5,000 brackets (inside the import's limits)
 * makes `rate_brackets { product { rate_brackets } } }` 25 million brackets: such a query is refused before it runs,
 * and the process keeps answering meanwhile, while what the budget can buy on the same card is answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { MAX_COST } from '../../src/graphql-server/limits.ts';
import { messages, post, type GraphQLReply } from './http.ts';

/** Brackets on the one large product: the import's limit for one file. */
const BRACKETS = 5_000;
/** /healthz must answer within this while a query runs (generous: the process is shared with the test). */
const HEALTHZ_BOUND_MS = 1_000;

let t: TestApp;
let free: string;
/** The demo financier given the large product. */
const FINANCIER = 1;

beforeAll(async () => {
  t = await startTestApp();
  free = (await t.login('free.broker@demo.test')).access;
  const prisma = t.database.prisma;
  const product = await prisma.product.create({
    data: { organisation_id: FINANCIER, product_name: 'Very long card', min_range: 0, max_range: 1000 },
  });
  await prisma.rateBracket.createMany({
    data: Array.from({ length: BRACKETS }, (_, i) => ({
      name: `Band ${i + 1}`,
      organisation_id: FINANCIER,
      product_id: product.id,
      min_amount: i * 100,
      max_amount: i * 100 + 99,
      base_min: 6,
      base_max: 9,
    })),
  });
}, 240_000);
afterAll(async () => {
  await t?.close();
});

/** Runs `query` as the Free broker while polling /healthz; answers the reply and the slowest /healthz answer. */
async function whilePollingHealth(query: string): Promise<{ reply: GraphQLReply; slowestHealthzMs: number }> {
  let done = false;
  let slowest = 0;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${t.baseUrl}/healthz`);
      await res.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const reply = await post(t, query, {}, free);
    return { reply, slowestHealthzMs: slowest };
  } finally {
    done = true;
    await poll;
  }
}

function expectCostRefusal(reply: GraphQLReply): void {
  expect(reply.status).toBe(400);
  expect(reply.body.data ?? null).toBeNull();
  expect(reply.body.errors?.[0]?.extensions?.code).toBe('COST_LIMIT_EXCEEDED');
  expect(messages(reply).join(' ')).toMatch(new RegExp(`exceeds the budget of ${MAX_COST}`));
  expect(reply.bytes).toBeLessThan(2000);
}

describe('A card whose brackets link back to their product: the nested lists are priced by the real card', () => {
  it('rateCard { rate_brackets { product { rate_brackets } } } is refused before it runs; /healthz keeps answering', async () => {
    const { reply, slowestHealthzMs } = await whilePollingHealth(
      `{ rateCard(organisationId: ${FINANCIER}) { ... on RateCard { rate_brackets { id product { rate_brackets { id } } } } } }`,
    );
    expectCostRefusal(reply);
    expect(slowestHealthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
  });

  it('products { edges { node { rate_brackets { product { rate_brackets } } } } } is refused; /healthz keeps answering', async () => {
    // The last page of one product: the large one (products are listed oldest first).
    const { reply, slowestHealthzMs } = await whilePollingHealth(
      `{ products(organisationId: ${FINANCIER}, last: 1) { ... on QueryProductsConnection {
          edges { node { rate_brackets { id product { rate_brackets { id } } } } } } } }`,
    );
    expectCostRefusal(reply);
    expect(slowestHealthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
  });

  it('what the budget buys on the same card is answered: every bracket of every product, once', async () => {
    const { reply, slowestHealthzMs } = await whilePollingHealth(
      `{ rateCard(organisationId: ${FINANCIER}) { ... on RateCard { products { id rate_brackets { id } } } } }`,
    );
    expect(reply.status).toBe(200);
    const products: { rate_brackets: unknown[] }[] = reply.body.data.rateCard.products;
    expect(Math.max(...products.map((p) => p.rate_brackets.length))).toBe(BRACKETS);
    expect(slowestHealthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
  });
});
