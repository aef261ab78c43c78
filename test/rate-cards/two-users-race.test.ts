/**
 * Two financier users editing the same card at once: no lost update. Two different users of one organisation each
 * read the card's version, then change the same product with that version at the same moment (REST If-Match, and
 * GraphQL expectedVersion against REST). Exactly one change lands; the other is told the winner's version (409
 * `version_conflict`) and is nowhere: not in the product, not in any restore point, no version of its own.
 * PostgreSQL only (TEST_DATABASE_URL): each app request has its own pooled connection, so the writers really meet at
 * the card's row lock; on PGlite's single connection they would only queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

const PG = process.env.TEST_DATABASE_URL;
const ORG = 1; // Harbour Equipment Finance (demo)
const ROUNDS = 20;

let t: TestApp;
/** The two editors, each with its own token: financier.admin (demo) and a second user of the same organisation. */
const users: { email: string; token: string }[] = [];
let productId: number;

/** The card version as one user reads it (GraphQL rateCard), like a client about to send If-Match. */
async function readVersion(token: string): Promise<number> {
  const res = await t
    .graphql(token)
    .request<{ rateCard: { version: number } }>(`{ rateCard { ... on RateCard { version } } }`);
  return res.rateCard.version;
}

const storedVersion = async () =>
  (await t.database.prisma.rateCardState.findUniqueOrThrow({ where: { organisation_id: ORG } })).version;
const restorePoints = () =>
  t.database.prisma.rateCardVersion.findMany({
    where: { organisation_id: ORG, resource: 'rate_card' },
    orderBy: { id: 'asc' },
  });
const product = () => t.database.prisma.product.findUniqueOrThrow({ where: { id: productId } });
const pointProduct = (point: { payload: unknown }) =>
  (
    point.payload as { products: { id: number; product_name: string; monthly_fee: string | number | null }[] }
  ).products.find((p) => p.id === productId);

/** What a writer sends in a round: a name and a fee that say who wrote them. */
const change = (round: number, writer: number) => ({
  product_name: `Round ${round} by writer ${writer}`,
  monthly_fee: 10 * (writer + 1) + round,
});

/** Checks the outcome of one round whose winner is `winner` and whose card version now is `won`. */
async function expectOnlyWinnerLanded(round: number, winner: number, won: number, pointsBefore: number) {
  const loser = 1 - winner;
  expect(await storedVersion()).toBe(won);
  const stored = await product();
  expect(stored.product_name).toBe(change(round, winner).product_name);
  expect(Number(stored.monthly_fee)).toBe(change(round, winner).monthly_fee); // both fields: no half-write
  const points = await restorePoints();
  expect(points).toHaveLength(pointsBefore + 1); // the winner's, none for the loser
  const last = points.at(-1)!;
  expect(last.actor_email).toBe(users[winner].email);
  expect(pointProduct(last)).toMatchObject({ product_name: change(round, winner).product_name });
  const loserName = change(round, loser).product_name;
  expect(points.some((p) => JSON.stringify(p.payload).includes(loserName))).toBe(false);
}

describe.skipIf(!PG)('Two financier users editing the same card at once: no lost update (PostgreSQL)', () => {
  beforeAll(async () => {
    t = await startTestApp();
    const kit = seedKit(t.database.prisma);
    const second = await (await kit.financierOf(ORG)).user({
      email: 'second.editor@kit.test',
      groups: [{ name: 'Rate card editors', permissions: ['change_rate_card'] }],
    });
    for (const email of ['financier.admin@demo.test', second.email])
      users.push({ email, token: (await t.login(email)).access });
    // Made through the pipeline, so the card's first change (and any starting point it records) is behind us.
    const made = await t.rest('POST', '/api/v1/products', {
      token: users[0].token,
      body: { product_name: 'Contested product' },
    });
    expect(made.status).toBe(201);
    productId = made.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`${ROUNDS} rounds of PATCH /products/{id} with the same If-Match: one 200, one 409 naming the winner's version`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const read = await Promise.all(users.map((u) => readVersion(u.token)));
      expect(read[0]).toBe(read[1]);
      const pointsBefore = (await restorePoints()).length;
      const answers = await Promise.all(
        users.map((u, writer) =>
          t.rest('PATCH', `/api/v1/products/${productId}`, {
            token: u.token,
            body: change(round, writer),
            headers: { 'if-match': `"${read[writer]}"` },
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
      const winner = answers.findIndex((a) => a.status === 200);
      const won = Number(JSON.parse(answers[winner].headers.get('etag')!));
      expect(won).toBeGreaterThan(read[0]);
      expect(answers[winner].body.data).toMatchObject({
        id: productId,
        ...change(round, winner),
        monthly_fee: expect.anything(),
      });
      expect(answers[1 - winner].body).toEqual({ error: 'version_conflict', current_version: won });
      await expectOnlyWinnerLanded(round, winner, won, pointsBefore);
    }
  });

  it('GraphQL updateProduct(expectedVersion) against REST PATCH (If-Match) at once: the same one-winner outcome', async () => {
    const round = ROUNDS;
    const read = await Promise.all(users.map((u) => readVersion(u.token)));
    const pointsBefore = (await restorePoints()).length;
    const [viaGraphql, viaRest] = await Promise.all([
      t.graphql(users[0].token).request<any>(
        `mutation($id: Int!, $input: ProductPatchInput!, $v: Int) { updateProduct(id: $id, input: $input, expectedVersion: $v) {
            __typename ... on RateCardChange { card_version } ... on RateCardVersionConflictError { current_version } } }`,
        { id: productId, input: change(round, 0), v: read[0] },
      ),
      t.rest('PATCH', `/api/v1/products/${productId}`, {
        token: users[1].token,
        body: change(round, 1),
        headers: { 'if-match': `"${read[1]}"` },
      }),
    ]);
    const g = viaGraphql.updateProduct;
    if (g.__typename === 'RateCardChange') {
      expect(viaRest.status).toBe(409);
      expect(viaRest.body).toEqual({ error: 'version_conflict', current_version: g.card_version });
      await expectOnlyWinnerLanded(round, 0, g.card_version, pointsBefore);
    } else {
      expect(g.__typename).toBe('RateCardVersionConflictError');
      expect(viaRest.status).toBe(200);
      const won = Number(JSON.parse(viaRest.headers.get('etag')!));
      expect(g.current_version).toBe(won);
      await expectOnlyWinnerLanded(round, 1, won, pointsBefore);
    }
  });
});
