/**
 * GET /organisations/{id} (docs/team.md "Organisation profiles"): the caller's own organisation in full; a financier
 * that appears in the caller's results (in the caller's book, with a rate bracket or approval in the catalogue) as
 * its public profile {id, name, type}; anything else 404 with exactly the body of a missing id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type SeedKit } from '../../testkit/seed.ts';

let t: TestApp;
let kit: SeedKit;
let broker: string;
let lender: string;
let missing: { status: number; body: unknown };
beforeAll(async () => {
  t = await startTestApp();
  kit = seedKit(t.database.prisma);
  broker = (await t.login('broker.admin@demo.test')).access;
  lender = (await t.login('financier.admin@demo.test')).access;
  missing = await t.rest('GET', '/api/v1/organisations/424242', { token: broker });
});
afterAll(async () => {
  await t?.close();
});

const get = (token: string, id: number) => t.rest('GET', `/api/v1/organisations/${id}`, { token });

describe("the caller's own organisation answers in full", () => {
  it('a broker and a financier read their own record with every field', async () => {
    expect((await get(broker, 8)).body).toMatchObject({
      id: 8,
      type: 'b',
      is_bid_broker: expect.any(Boolean),
      created_at: expect.any(String),
    });
    expect((await get(lender, 1)).body).toMatchObject({ id: 1, type: 'f', abn: null, updated_at: expect.any(String) });
  });
});

describe("a financier in the caller's results answers its public profile, nothing more", () => {
  it('a broker reads a demo financier as {id, name, type}', async () => {
    const res = await get(broker, 2);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 2, name: 'Southern Cross Asset Finance', type: 'f' });
  });

  it('the profile carries no ABN, flags or timestamps even when the financier has them', async () => {
    await t.database.prisma.organisation.update({
      where: { id: 3 },
      data: { abn: '53004085616', is_bid_broker: true },
    });
    const res = await get(broker, 3);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'name', 'type']);
    expect(JSON.stringify(res.body)).not.toContain('53004085616');
  });

  it('GraphQL organisationView answers the same union', async () => {
    const data = await t
      .graphql(broker)
      .request<any>(
        '{ organisationView(id: 2) { ... on QueryOrganisationViewSuccess { data { __typename ... on FinancierProfile { id name } } } } }',
      );
    expect(data.organisationView.data).toEqual({
      __typename: 'FinancierProfile',
      id: 2,
      name: 'Southern Cross Asset Finance',
    });
  });
});

describe('any other id answers 404 with the same body as a missing one', () => {
  it('another broker, a financier with no catalogue, and (for a financier) every other financier', async () => {
    const empty = await kit.financier({ name: 'No Catalogue Finance' });
    for (const [token, id] of [
      [broker, 9],
      [broker, 10],
      [broker, empty.id],
      [lender, 2],
      [lender, 8],
    ] as const) {
      const res = await get(token, id);
      expect(res.status, `${id}`).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
  });

  it('a financier appears once it has a rate bracket', async () => {
    const fin = await kit.financier({ name: 'Newly Listed Finance' });
    expect((await get(broker, fin.id)).status).toBe(404);
    const product = await fin.product();
    await product.bracket();
    expect((await get(broker, fin.id)).body).toEqual({ id: fin.id, name: 'Newly Listed Finance', type: 'f' });
  });
});
