/**
 * An approval write bumps the catalogue version in its own transaction (triggers, as it commits), so the very next
 * Matrix or Matrix Calculator run, which reuses the process's snapshot only while the version is unchanged, reads the
 * change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let broker: string;
let financier: string;
const DEAL = {
  cost: '50000',
  asset_value: 11,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
} as const;

beforeAll(async () => {
  t = await startTestApp();
  await seedKit(t.database.prisma).planOverrides(8, { calculator_allowance: null, matrix_allowance: null });
  broker = (await t.login('broker.admin@demo.test')).access;
  financier = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

async function matrixApprovals(): Promise<Map<number, any>> {
  const res = await t.rest('POST', '/api/v1/matrix/', { token: broker, body: DEAL });
  expect(res.status).toBe(200);
  return new Map(
    res.body.results.flatMap((g: any) =>
      g.approvals.map((a: any) => [a.approval_id, { organisation_id: g.organisation_id, ...a }]),
    ),
  );
}

async function version(): Promise<bigint> {
  return (await t.database.prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version;
}

describe('a changed approval is seen by the next Matrix run (the write bumps the catalogue version)', () => {
  it('PUT that rules the deal out drops the approval from the next run; putting it back returns it', async () => {
    const before = await matrixApprovals(); // the snapshot is now warm
    const id = [...before.values()].find((a) => a.organisation_id === 1)?.approval_id;
    const current = (await t.rest('GET', '/api/v1/approvals', { token: financier })).body.find((a: any) => a.id === id);
    expect(current.organisation_id).toBe(1);
    const v0 = await version();

    const narrowed = await t.rest('PUT', `/api/v1/approvals/${id}`, {
      token: financier,
      body: { ...current, max_asset_cost: '1000' },
    });
    expect(narrowed.status).toBe(200);
    expect(await version()).toBeGreaterThan(v0);
    expect((await matrixApprovals()).has(id)).toBe(false);

    const restored = await t.rest('PUT', `/api/v1/approvals/${id}`, { token: financier, body: current });
    expect(restored.status).toBe(200);
    const after = await matrixApprovals();
    expect(after.get(id)).toEqual(before.get(id));
  });

  it('a renamed approval shows its new name on the next Matrix Calculator run', async () => {
    const run = async () =>
      (await t.rest('POST', '/api/v1/matrix-calculator/', { token: broker, body: DEAL })).body.results as any[];
    const rows = await run();
    const row = rows.find((r) => r.organisation_id === 1);
    expect(row).toBeDefined();
    const current = (await t.rest('GET', '/api/v1/approvals?organisation_id=1', { token: financier })).body.find(
      (a: any) => a.id === row.approval_id,
    );
    const res = await t.rest('PUT', `/api/v1/approvals/${row.approval_id}`, {
      token: financier,
      body: { ...current, name: 'Renamed for the next run' },
    });
    expect(res.status).toBe(200);
    const next = (await run()).find((r) => r.approval_id === row.approval_id);
    expect(next.approval_name).toBe('Renamed for the next run');
  });
});
