/**
 * Nothing half-written: concurrent PUTs of one approval each replace the fields and the rate-bracket links in one
 * transaction under the approval's row lock, so the result is exactly one request's body, never a mix of two. On
 * PostgreSQL (TEST_DATABASE_URL) the requests really race; on PGlite they are serialised.
 * Approval writes racing rate-card writes never deadlock: the catalogue version is bumped at commit (after every
 * other lock), and both sides lock rate brackets in id order (docs/approvals.md, "The catalogue version").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { raceRounds } from '../../testkit/sizes.ts';

let t: TestApp;
let financier: string;

beforeAll(async () => {
  t = await startTestApp();
  financier = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

describe('concurrent PUTs of one approval: the last write wins whole', () => {
  it('leaves the name and the links of one and the same request', async () => {
    const prisma = t.database.prisma;
    const approval = await prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } });
    const brackets = (await prisma.rateBracket.findMany({ where: { organisation_id: 1 }, orderBy: { id: 'asc' } })).map(
      (b) => b.id,
    );
    expect(brackets.length).toBeGreaterThanOrEqual(3);
    // Request k links brackets [k, k+1, k+2] (mod the card), so two requests' links are told apart.
    const bodies = Array.from({ length: 12 }, (_, k) => ({
      name: `Writer ${k}`,
      doc_level: 'full_doc',
      rate_bracket_ids: [0, 1, 2].map((j) => brackets[(k + j) % brackets.length]),
    }));
    const replies = await Promise.all(
      bodies.map((body) => t.rest('PUT', `/api/v1/approvals/${approval.id}`, { token: financier, body })),
    );
    expect(replies.map((r) => r.status)).toEqual(bodies.map(() => 200));
    const stored = await prisma.approval.findUniqueOrThrow({
      where: { id: approval.id },
      include: { rate_brackets: { orderBy: { rate_bracket_id: 'asc' } } },
    });
    const winner = bodies.find((b) => b.name === stored.name)!;
    expect(stored.rate_brackets.map((l) => l.rate_bracket_id)).toEqual(
      [...winner.rate_bracket_ids].sort((a, b) => a - b),
    );
  });
});

describe('approval PUTs racing rate-card deletions of the rate brackets they link: no deadlock', () => {
  const gql = async (query: string, variables?: Record<string, unknown>): Promise<any> =>
    t.graphql(financier).request(query, variables);

  /**
   * Each round: a product with three rate brackets, the first mapped to an asset (so the deletion's first write, the
   * mappings, comes before its brackets'), then `remove` races three approval PUTs linking the brackets.
   */
  async function race(remove: (productId: number, brackets: number[]) => Promise<string>): Promise<void> {
    const approvals = (
      await t.database.prisma.approval.findMany({ where: { organisation_id: 1 }, orderBy: { id: 'asc' }, take: 3 })
    ).map((a) => a.id);
    for (let round = 0; round < raceRounds(20); round += 1) {
      const created = await gql(
        'mutation { createProduct(input: {product_name: "Racing"}) { ... on RateCardChange { product { id } } } }',
      );
      const productId: number = created.createProduct.product.id;
      const brackets: number[] = [];
      for (let k = 0; k < 3; k += 1) {
        const b = await gql(
          `mutation($p: Int!) { createRateBracket(input: {name: "R${k}", product_id: $p, base_min: 5, base_max: 6}) {
             ... on RateCardChange { rate_bracket { id } } } }`,
          { p: productId },
        );
        brackets.push(b.createRateBracket.rate_bracket.id);
      }
      await gql(
        'mutation($p: Int!, $b: Int) { createAssetMapping(input: {asset_id: 11, product_id: $p, rate_bracket_id: $b}) { __typename } }',
        { p: productId, b: brackets[0] },
      );
      const [removed, ...puts] = await Promise.all([
        remove(productId, brackets),
        ...approvals.map((id) =>
          t.rest('PUT', `/api/v1/approvals/${id}`, {
            token: financier,
            body: { name: `Racing ${id}`, doc_level: 'full_doc', rate_bracket_ids: [...brackets].reverse() },
          }),
        ),
      ]);
      expect(removed).toBe('RateCardChange');
      for (const put of puts) expect([200, 400]).toContain(put.status);
    }
  }

  // Lock order: both sides lock the brackets in id order.
  it(`deleting the product (its three brackets), ${raceRounds(20)} rounds: every deletion succeeds, every PUT answers 200 or 400`, async () => {
    await race(
      async (id) =>
        (await gql('mutation($id: Int!) { deleteProduct(id: $id) { __typename } }', { id })).deleteProduct.__typename,
    );
  });

  // The catalogue version: the deletion's first write no longer holds the version row while it waits for the PUT's
  // KEY SHARE on the bracket, and the PUT's approval update no longer waits for the version row.
  it(`deleting the mapped bracket, ${raceRounds(20)} rounds: every deletion succeeds, every PUT answers 200 or 400`, async () => {
    await race(
      async (_product, [bracket]) =>
        (await gql('mutation($id: Int!) { deleteRateBracket(id: $id) { __typename } }', { id: bracket }))
          .deleteRateBracket.__typename,
    );
  });
});
