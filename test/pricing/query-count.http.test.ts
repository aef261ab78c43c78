/**
 * Database round trips of a warm calculator run do not grow with the catalogue (issue; src/modules/catalogue/
 * snapshot.ts: a warm request reads one integer, the catalogue version). A warm POST /api/v1/calculator costs
 * exactly: the caller with the catalogue version (1), and the run's metering, which records the recent scenario in the
 * same statement (1) = 2, on the demo catalogue and on one ten times larger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';
import { recalculationBody } from '../../testkit/recalculation.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const DEAL = { cost: 50000, asset_value: 11, term: 48, advance_arrears: 'arrears', repayment_frequency: 'monthly' };

/** Runs one request and returns the statements it sent, with its response. */
async function counted(
  run: () => Promise<{ status: number; body: any }>,
): Promise<{ queries: number; status: number; body: any }> {
  const before = t.database.queryCount();
  const res = await run();
  return { queries: t.database.queryCount() - before, status: res.status, body: res.body };
}
const calculate = () => t.rest('POST', '/api/v1/calculator', { token, body: DEAL });

/** Grows the catalogue tenfold: nine copies of the demo financiers' catalogue (63 more financiers, 117 products, 360 brackets, 513 mappings, 270 approvals). */
async function growTenfold(): Promise<void> {
  const prisma = t.database.prisma;
  const before = {
    brackets: await prisma.rateBracket.count(),
    products: await prisma.product.count(),
    relations: await prisma.assetRateBracket.count(),
  };
  await seedKit(prisma).copyCatalogue(9);
  expect(await prisma.rateBracket.count()).toBe(before.brackets * 10);
  expect(await prisma.product.count()).toBe(before.products * 10);
  expect(await prisma.assetRateBracket.count()).toBe(before.relations * 10);
}

describe('Performance design: a warm calculator run sends a constant, small number of queries', () => {
  it('2 statements on the demo catalogue (caller with catalogue version, metering with the recent scenario), and 2 on a catalogue ten times larger', async () => {
    expect((await calculate()).status).toBe(200); // cold: loads the snapshot
    const demo = await counted(calculate);
    expect(demo.status).toBe(200);
    expect(demo.queries).toBe(2);

    await growTenfold();
    const cold = await counted(calculate); // the catalogue version moved: the snapshot reloads, once
    expect(cold.status).toBe(200);
    expect(cold.body.priced_count).toBeGreaterThan(demo.body.priced_count * 5);
    const large = await counted(calculate);
    expect(large.status).toBe(200);
    expect(large.body.priced_count).toBe(cold.body.priced_count);
    expect(large.queries).toBe(demo.queries);
  });

  it('a warm recalculation and a warm financier list cost 1 statement each (the caller, with the catalogue version)', async () => {
    const recalc = () =>
      t.rest('POST', '/api/v1/calculator/recalculate', {
        token,
        body: recalculationBody(7, { base_max: 9.5 }),
      });
    const financiers = () => t.rest('GET', '/api/v1/calculator/financiers?surface=matrix', { token });
    await recalc();
    const r = await counted(recalc);
    expect(r.status).toBe(200);
    expect(r.queries).toBe(1);
    const f = await counted(financiers);
    expect(f.status).toBe(200);
    const withApprovals = await t.database.prisma.approval.findMany({
      distinct: ['organisation_id'],
      select: { organisation_id: true },
    });
    expect(f.body.length).toBe(withApprovals.length);
    expect(f.queries).toBe(1);
  });
});
