/** GET /api/v1/approvals/count over real HTTP on the demo catalogue: org 1 is a financier. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let broker: string;

beforeAll(async () => {
  t = await startTestApp();
  broker = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /approvals/count: how many approvals a financier has, for any signed-in caller', () => {
  it("answers 200 with the financier's count", async () => {
    const stored = await t.database.prisma.approval.count({ where: { organisation_id: 1 } });
    const res = await t.rest('GET', '/api/v1/approvals/count?organisation_id=1', { token: broker });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ organisation_id: 1, count: stored });
  });

  it('an organisation that is no financier is 404; a missing organisation_id is 400 naming it', async () => {
    expect((await t.rest('GET', '/api/v1/approvals/count?organisation_id=999999', { token: broker })).status).toBe(404);
    const res = await t.rest('GET', '/api/v1/approvals/count', { token: broker });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['organisation_id']);
  });

  it('without credentials is 401', async () => {
    expect((await t.rest('GET', '/api/v1/approvals/count?organisation_id=1', { token: null })).status).toBe(401);
  });
});
