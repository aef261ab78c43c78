/** Spec: GET /organisations/{id}; reliability AZ1 (cross-tenant probes over REST and GraphQL). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /organisations/{id}', () => {
  it('a broker reads its own organisation', async () => {
    const token = (await t.login('broker.admin@demo.test')).access;
    const res = await t.rest('GET', '/api/v1/organisations/8', { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'abn',
      'created_at',
      'id',
      'is_bid_broker',
      'name',
      'type',
      'updated_at',
    ]);
    expect(res.body).toMatchObject({ id: 8, type: 'b' });
  });

  it("404 for every other tenant not in the caller's results, identical to a missing organisation, over REST and GraphQL", async () => {
    const tokens = await Promise.all(
      ['broker.admin@demo.test', 'free.broker@demo.test', 'financier.admin@demo.test'].map(
        async (e) => (await t.login(e)).access,
      ),
    );
    const own: Record<number, number> = { 0: 8, 1: 9, 2: 1 };
    const missing = await t.rest('GET', '/api/v1/organisations/424242', { token: tokens[0] });
    expect(missing.status).toBe(404);
    let probes = 0;
    for (const [i, token] of tokens.entries()) {
      const client = t.graphql(token);
      for (let id = 1; id <= 10; id += 1) {
        if (id === own[i]) continue;
        const gql = await client.request<any>(
          `{ organisation(id: ${id}) { __typename ... on Organisation { name } } }`,
        );
        expect(gql.organisation.__typename).toBe('NotFoundError');
        probes += 1;
        // Brokers see the demo financiers (1 to 7) in their results: those answer a profile (organisation-view.test.ts).
        if (i < 2 && id <= 7) continue;
        const res = await t.rest('GET', `/api/v1/organisations/${id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(missing.body);
        probes += 1;
      }
    }
    expect(probes).toBeGreaterThanOrEqual(40);
  });

  it('401 without a token; a non-integer id is 400', async () => {
    expect((await t.rest('GET', '/api/v1/organisations/8')).status).toBe(401);
    const token = (await t.login('broker.admin@demo.test')).access;
    expect((await t.rest('GET', '/api/v1/organisations/abc', { token })).status).toBe(400);
  });
});
