/**
 * Saved scenarios stay true (docs/scenarios.md "Re-pricing saved scenarios", docs/notifications.md "Saved
 * scenarios"): after a committed catalogue change, the saved scenarios it can affect (and only those) are re-priced as
 * their owner would run them now, with no allowance consumed and no recent added; the owner is told once when the
 * cheapest repayment moves by their threshold. The worker is driven with runOnce() (no sleeps).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRepricingWorker } from '../../src/modules/repricing/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL as DEAL } from '../../testkit/demo.ts';
import { savedRun as savedRunAs } from './saved-run.ts';

let t: TestApp;
let broker: string;
let brokerId: number;

beforeAll(async () => {
  t = await startTestApp();
  broker = (await t.login('broker.admin@demo.test')).access;
  brokerId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});

const runOnce = () => t.app.repricing.runOnce();

beforeEach(async () => {
  await t.database.prisma.scenario.deleteMany({ where: { user_id: brokerId } });
  await t.database.prisma.notification.deleteMany({ where: { user_id: brokerId } });
  await t.database.prisma.notificationPreference.deleteMany({ where: { user_id: brokerId } });
  await runOnce(); // drains changes left by earlier tests (and the demo load)
});

const savedRun = (path: '/calculator' | '/matrix-calculator/', deal: object = DEAL) =>
  savedRunAs(t, broker, path, deal);

const scenarioRow = (id: number) => t.database.prisma.scenario.findUniqueOrThrow({ where: { id } });

async function savedCheapest(id: number) {
  const summary = (await scenarioRow(id)).summary as {
    cheapest: { financier: { id: number }; rate_bracket_id: number };
  };
  return summary.cheapest;
}

/** Raises a bracket's base rate by `points`, as any surface's write would (the database logs the change). */
async function raiseRate(bracketId: number, points: number): Promise<void> {
  const b = await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracketId } });
  await t.database.prisma.rateBracket.update({
    where: { id: bracketId },
    data: { base_min: b.base_min + points, base_max: b.base_max + points },
  });
}

async function graphqlScenario(id: number) {
  const res = await t.graphql(broker).request<any>(
    `{ scenarios(kind: saved) { __typename ... on QueryScenariosSuccess { data { id current_cheapest { organisation_id
       organisation_name approval_id rate repayment } saved_cheapest_stands repayment_change repriced_at
       repriced_version } } } }`,
  );
  return res.scenarios.data.find((s: { id: number }) => s.id === id);
}

const usage = async () =>
  (
    await t.database.prisma.$queryRawUnsafe<{ n: bigint }[]>(
      'SELECT coalesce(sum(count), 0)::bigint AS n FROM daily_usage',
    )
  )[0].n;
const recents = () => t.database.prisma.scenario.count({ where: { user_id: brokerId, kind: 'recent' } });

describe('A rate bracket change re-prices the saved scenarios it can affect, as a fresh run by the owner', () => {
  it('Calculator: figures equal a fresh run; no allowance consumed and no recent added', async () => {
    const id = await savedRun('/calculator');
    const cheapest = await savedCheapest(id);
    await raiseRate(cheapest.rate_bracket_id, 2);
    const [usedBefore, recentsBefore] = [await usage(), await recents()];
    const pass = await runOnce();
    expect(pass.repriced).toBeGreaterThanOrEqual(1);
    expect([await usage(), await recents()]).toEqual([usedBefore, recentsBefore]);

    const fresh = await t.rest('POST', '/api/v1/calculator', { token: broker, body: DEAL });
    const top = fresh.body.results[0];
    const shown = await graphqlScenario(id);
    expect(shown.current_cheapest).toEqual({
      organisation_id: top.organisation_id,
      organisation_name: top.organisation_name,
      approval_id: null,
      rate: top.e_min,
      repayment: top.repayment_min,
    });
    expect(shown.repriced_version).toBe(
      String((await t.database.prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version),
    );
    expect(shown.repriced_at).not.toBeNull();
    const saved = ((await scenarioRow(id)).summary as any).cheapest.repayment as string;
    const change = Math.round((Number(top.repayment_min) - Number(saved)) * 100) / 100;
    expect(Number(shown.repayment_change)).toBe(change);
  });

  it('Matrix Calculator: figures equal a fresh run (with the approval)', async () => {
    const id = await savedRun('/matrix-calculator/');
    const cheapest = await savedCheapest(id);
    await raiseRate(cheapest.rate_bracket_id, 3);
    await runOnce();
    const fresh = await t.rest('POST', '/api/v1/matrix-calculator/', { token: broker, body: DEAL });
    const shown = await graphqlScenario(id);
    const rows = (fresh.body.results as any[]).filter((r) => r.e_min !== null && r.repayment_min !== null);
    rows.sort((a, b) => Number(a.e_min) - Number(b.e_min) || Number(a.repayment_min) - Number(b.repayment_min));
    expect(shown.current_cheapest).toMatchObject({
      organisation_id: rows[0].organisation_id,
      approval_id: rows[0].approval_id,
      rate: rows[0].e_min,
      repayment: rows[0].repayment_min,
    });
  });
});

describe('Only the scenarios a change can affect are re-run', () => {
  it("a change to a financier with no mapping reachable from the scenario's asset queues nothing", async () => {
    await savedRun('/calculator');
    const org = await t.database.prisma.organisation.create({ data: { name: 'Unrelated Finance', type: 'f' } });
    await t.database.prisma.approval.create({
      data: { organisation_id: org.id, name: 'Unrelated approval', doc_level: 'low_doc' },
    });
    const pass = await runOnce();
    expect(pass.changes).toBeGreaterThanOrEqual(1);
    expect(pass.queued).toBe(0);
    expect(pass.repriced).toBe(0);
  });

  it('an asset mapping change of the saved financier re-prices the scenario', async () => {
    const id = await savedRun('/calculator');
    const cheapest = await savedCheapest(id);
    const mapping = await t.database.prisma.assetRateBracket.findFirstOrThrow({
      where: { organisation_id: cheapest.financier.id },
    });
    await t.database.prisma.assetRateBracket.delete({ where: { id: mapping.id } });
    const pass = await runOnce();
    expect(pass.queued).toBeGreaterThanOrEqual(1);
    expect((await scenarioRow(id)).repriced_at).not.toBeNull();
  });
});

describe('A rate-bracket change reaches only the deals whose term its brackets cover, before or after', () => {
  it("a bracket of the saved financier outside the deal's term queues nothing; moved onto it, queues the scenario", async () => {
    const id = await savedRun('/calculator'); // term 60
    const saved = await t.database.prisma.rateBracket.findUniqueOrThrow({
      where: { id: (await savedCheapest(id)).rate_bracket_id },
    });
    const { id: _id, created_at: _c, updated_at: _u, ...fields } = saved;
    const longer = await t.database.prisma.rateBracket.create({
      data: { ...fields, name: 'Long terms only', min_term: 72, max_term: 84 },
    });
    const outside = await runOnce();
    expect(outside.changes).toBe(1);
    expect(outside.queued).toBe(0);
    await t.database.prisma.rateBracket.update({ where: { id: longer.id }, data: { min_term: 60 } });
    const onto = await runOnce();
    expect(onto.queued).toBe(1);
    expect(onto.repriced).toBe(1);
    // Moved off again: the terms it covered before the change reach the deal, so the scenario is re-priced once more.
    await t.database.prisma.rateBracket.update({ where: { id: longer.id }, data: { min_term: 72 } });
    expect((await runOnce()).queued).toBe(1);
  });
});

describe('Notifications: one per scenario per pass, when the move reaches the threshold', () => {
  it('a burst of edits gives one rate_card notification naming the old and new figure and the financier', async () => {
    const id = await savedRun('/calculator');
    const cheapest = await savedCheapest(id);
    for (let i = 0; i < 3; i++) await raiseRate(cheapest.rate_bracket_id, 1);
    await runOnce();
    const queued = await t.database.prisma.notification.findMany({ where: { user_id: brokerId } });
    expect(queued).toHaveLength(1);
    expect(queued[0].category).toBe('rate_card');
    expect(queued[0].title).toContain(`Saved ${id}`);
    const current = (await scenarioRow(id)).current as any;
    expect(queued[0].body).toContain(current.cheapest.repayment);
    expect(queued[0].body).toContain(current.cheapest.organisation_name);
    // Nothing moved since: another pass tells nothing.
    await raiseRate(cheapest.rate_bracket_id, 0);
    await runOnce();
    expect(await t.database.prisma.notification.count({ where: { user_id: brokerId } })).toBe(1);
  });

  it("a move below the owner's threshold notifies nothing but still updates the figures", async () => {
    await t.database.prisma.notificationPreference.create({
      data: { user_id: brokerId, scenario_change_threshold: 100000 },
    });
    const id = await savedRun('/calculator');
    await raiseRate((await savedCheapest(id)).rate_bracket_id, 2);
    await runOnce();
    expect(await t.database.prisma.notification.count({ where: { user_id: brokerId } })).toBe(0);
    expect((await scenarioRow(id)).current).not.toBeNull();
  });
});

describe('Every surface is covered by the database: an approval edited over REST re-prices', () => {
  it("a financier's approval PUT re-prices a saved scenario its mappings reach", async () => {
    const id = await savedRun('/matrix-calculator/');
    const financier = (await t.login('financier.admin@demo.test')).access; // organisation 1, mapped on Motor Vehicles
    const approval = await t.database.prisma.approval.findFirstOrThrow({ where: { organisation_id: 1 } });
    const res = await t.rest('PUT', `/api/v1/approvals/${approval.id}`, {
      token: financier,
      body: { name: `${approval.name} (edited)`, doc_level: approval.doc_level },
    });
    expect(res.status).toBe(200);
    const pass = await runOnce();
    expect(pass.queued).toBeGreaterThanOrEqual(1);
    expect((await scenarioRow(id)).repriced_at).not.toBeNull();
  });
});

describe('A pass that stops at its bound is followed at once by the next, not after the poll interval', () => {
  it('13 queued scenarios at 5 a pass settle in three back-to-back passes of an hourly poll', async () => {
    const id = await savedRun('/calculator');
    await t.database.prisma.$executeRawUnsafe(
      `INSERT INTO scenarios (user_id, tool, kind, name, request, summary)
       SELECT user_id, tool, kind, name || ' copy ' || g, request, summary FROM scenarios, generate_series(1, 12) g
        WHERE id = $1::int`,
      id,
    );
    await raiseRate((await savedCheapest(id)).rate_bracket_id, 1);
    const passes: { repriced: number; more: boolean }[] = [];
    let settled!: () => void;
    const done = new Promise<void>((resolve) => {
      settled = resolve;
    });
    const worker = createRepricingWorker({
      ...t.app.deps,
      pollIntervalMs: 3_600_000,
      perPass: 5,
      onPass: (outcome) => {
        if ('error' in outcome) throw outcome.error;
        passes.push({ repriced: outcome.repriced, more: outcome.more });
        if (!outcome.more) settled();
      },
    });
    worker.start();
    try {
      await done;
    } finally {
      await worker.stop();
    }
    expect(passes).toEqual([
      { repriced: 5, more: true },
      { repriced: 5, more: true },
      { repriced: 3, more: false },
    ]);
  });
});
