/**
 * Authentication 5: a computation run "consumes the daily allowance and adds to the caller's own recents", from a
 * session or an API token; a refused run does neither (metering and recording are one statement: record_run).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let session: string;
let userId: number;
const DEAL = {
  cost: '55000',
  cost_gst: true,
  asset_value: 11,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
};

beforeAll(async () => {
  t = await startTestApp();
  session = (await t.login('broker.user@demo.test')).access;
  userId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});

const recents = (tool: string) =>
  t.database.prisma.scenario.findMany({ where: { user_id: userId, tool, kind: 'recent' }, orderBy: { id: 'asc' } });

describe("Each run adds to the caller's recents, per tool", () => {
  it.each([
    ['/api/v1/calculator', 'calculator'],
    ['/api/v1/matrix/', 'matrix'],
    ['/api/v1/matrix-calculator/', 'matrix_calculator'],
  ])('POST %s records a %s recent holding the request', async (url, tool) => {
    const before = (await recents(tool)).length;
    const res = await t.rest('POST', url, { token: session, body: DEAL });
    expect(res.status).toBe(200);
    const after = await recents(tool);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.request).toMatchObject({ cost: 55000, asset_value: 11, term: 60 });
  });

  it("a read API token's run is recorded too", async () => {
    const read = (await t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: 'r', scope: 'read' } }))
      .body.token;
    const before = (await recents('matrix_calculator')).length;
    expect((await t.rest('POST', '/api/v1/matrix-calculator/', { token: read, body: DEAL })).status).toBe(200);
    expect(await recents('matrix_calculator')).toHaveLength(before + 1);
  });
});

describe('A refused run records nothing and consumes nothing', () => {
  it('cap_hit: no recent, no count', async () => {
    await t.database.prisma.organisation.update({
      where: { id: 8 },
      data: { plan_overrides: { matrix_allowance: 0 } },
    });
    const before = (await recents('matrix_calculator')).length;
    const usage = await t.database.prisma.dailyUsage.findMany({ where: { user_id: userId } });
    const res = await t.rest('POST', '/api/v1/matrix-calculator/', { token: session, body: DEAL });
    expect(res.status).toBe(429);
    expect(await recents('matrix_calculator')).toHaveLength(before);
    expect(await t.database.prisma.dailyUsage.findMany({ where: { user_id: userId } })).toEqual(usage);
    await t.database.prisma.organisation.update({ where: { id: 8 }, data: { plan_overrides: {} } });
  });

  it('a 400 records nothing', async () => {
    const before = (await recents('calculator')).length;
    expect((await t.rest('POST', '/api/v1/calculator', { token: session, body: { ...DEAL, term: 0 } })).status).toBe(
      400,
    );
    expect(await recents('calculator')).toHaveLength(before);
  });
});
