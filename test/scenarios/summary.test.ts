/**
 * Scenario summaries (docs/team.md "Scenario summaries"): every recorded run carries what a list shows: the asset
 * (id and name), the amount, the term, and the cheapest result at the time of the run (financier, product,
 * repayment), exposed as a typed GraphQL object; written once by the statement that records the run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { recordRun } from '../../src/modules/scenarios/record-run.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';

let t: TestApp;
let pro: string;
let free: string;
const DEAL = DEMO_DEAL;
const SCENARIOS = `query($tool: ScenarioTool) { scenarios(tool: $tool) { ... on QueryScenariosSuccess { data { id kind
  summary { asset { id name } amount term cheapest { financier { id name } product { id name } rate_bracket_id repayment repayment_frequency } } } } } }`;

beforeAll(async () => {
  t = await startTestApp();
  pro = (await t.login('broker.admin@demo.test')).access;
  free = (await t.login('free.broker@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

async function newest(token: string, tool: string) {
  const data = await t.graphql(token).request<any>(SCENARIOS, { tool });
  return data.scenarios.data[0];
}
const assetName = async () => (await t.database.prisma.asset.findUniqueOrThrow({ where: { id: 11 } })).name;

describe('a Calculator run records asset, amount, term and its cheapest row', () => {
  it('the summary names the first (cheapest) row of the answer', async () => {
    const res = await t.rest('POST', '/api/v1/calculator', { token: pro, body: DEAL });
    expect(res.status).toBe(200);
    const first = res.body.results[0];
    const scenario = await newest(pro, 'calculator');
    expect(scenario.id).toBe(res.body.scenario_id);
    expect(scenario.summary).toEqual({
      asset: { id: 11, name: await assetName() },
      amount: '55000.00',
      term: 60,
      cheapest: {
        financier: { id: first.organisation_id, name: first.organisation_name },
        product: { id: first.product_id, name: first.product_name },
        rate_bracket_id: first.rate_bracket_id,
        repayment: first.repayment_min,
        repayment_frequency: 'monthly',
      },
    });
  });

  it('is the result at the time of the run: a later rate change does not rewrite it', async () => {
    await t.rest('POST', '/api/v1/calculator', { token: pro, body: DEAL });
    const before = await newest(pro, 'calculator');
    await t.database.prisma.rateBracket.update({
      where: { id: before.summary.cheapest.rate_bracket_id },
      data: { base_min: { increment: 1 } },
    });
    const after = await newest(pro, 'calculator');
    expect(after.summary).toEqual(before.summary);
    await t.database.prisma.rateBracket.update({
      where: { id: before.summary.cheapest.rate_bracket_id },
      data: { base_min: { decrement: 1 } },
    });
  });
});

describe('a Matrix Calculator run records the cheapest row it showed', () => {
  it("the row with the lowest effective rate (then repayment) among the answer's rows", async () => {
    const res = await t.rest('POST', '/api/v1/matrix-calculator/', { token: pro, body: DEAL });
    expect(res.status).toBe(200);
    const rows = res.body.results.filter((r: any) => r.e_min !== null);
    const cheapest = rows.reduce((a: any, b: any) =>
      Number(b.e_min) < Number(a.e_min) ||
      (Number(b.e_min) === Number(a.e_min) && Number(b.repayment_min) < Number(a.repayment_min))
        ? b
        : a,
    );
    const scenario = await newest(pro, 'matrix_calculator');
    expect(scenario.summary.cheapest).toMatchObject({
      financier: { id: cheapest.organisation_id },
      rate_bracket_id: cheapest.rate_bracket_id,
      repayment: cheapest.repayment_min,
    });
  });

  it('on the Free tier the summary is a row the caller was shown unmasked', async () => {
    await t.database.prisma.organisation.update({
      where: { id: 9 },
      data: { plan_overrides: { entitlements: ['matrix.enabled'] } },
    });
    const token = (await t.login('free.broker@demo.test')).access;
    const res = await t.rest('POST', '/api/v1/matrix-calculator/', { token, body: DEAL });
    expect(res.status).toBe(200);
    const scenario = await newest(token, 'matrix_calculator');
    const shown = res.body.results.filter((r: any) => !r.masked).map((r: any) => r.repayment_min);
    expect(shown).toContain(scenario.summary.cheapest.repayment);
    expect(free).toEqual(expect.any(String));
  });
});

describe('an Approval Matrix run prices nothing: its summary has no cheapest result', () => {
  it('asset, amount and term, cheapest null', async () => {
    expect((await t.rest('POST', '/api/v1/matrix/', { token: pro, body: DEAL })).status).toBe(200);
    const scenario = await newest(pro, 'matrix');
    expect(scenario.summary).toEqual({
      asset: { id: 11, name: await assetName() },
      amount: '55000.00',
      term: 60,
      cheapest: null,
    });
  });
});

describe('a saved scenario keeps the summary of its run', () => {
  it('promote keeps it', async () => {
    const res = await t.rest('POST', '/api/v1/calculator', { token: pro, body: DEAL });
    const before = await newest(pro, 'calculator');
    expect(
      (
        await t.rest('POST', `/api/v1/calculator/scenarios/${res.body.scenario_id}/promote`, {
          token: pro,
          body: { name: 'Kept' },
        })
      ).status,
    ).toBe(200);
    const data = await t.graphql(pro).request<any>(SCENARIOS, { tool: 'calculator' });
    const saved = data.scenarios.data.find((s: any) => s.id === res.body.scenario_id);
    expect(saved).toMatchObject({ kind: 'saved', summary: before.summary });
  });
});

describe('a stored summary of another shape (or none) reads as null, never failing the list', () => {
  it('null and foreign shapes answer summary null', async () => {
    const user = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } });
    for (const summary of [null, { n: 1 }, { asset: { id: 'x' } }, [1, 2]]) {
      await recordRun(t.database.prisma, {
        userId: user.id,
        day: '',
        metrics: [],
        limits: [],
        tool: 'calculator',
        request: {},
        summary,
      });
    }
    const token = (await t.login('broker.user@demo.test')).access;
    const data = await t.graphql(token).request<any>(SCENARIOS, { tool: 'calculator' });
    // Newest first: the four just recorded.
    expect(data.scenarios.data.slice(0, 4).map((s: any) => s.summary)).toEqual([null, null, null, null]);
  });
});

describe('scenarios recorded before summaries existed get one from their request (the backfill migration)', () => {
  it('asset (its name today), amount and term from the request; cheapest null; unreadable requests stay null', async () => {
    const user = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } });
    const legacy = [
      { cost: '55000', asset_value: 11, term: 48 },
      { cost: 12345.678, asset_value: '11' },
      { cost: 1000, asset_value: 99_999_999, term: 12 },
      { cost: 'abc', asset_value: 11, term: 12 },
      [1, 2],
    ];
    const ids: number[] = [];
    for (const request of legacy) {
      const row = await t.database.prisma.scenario.create({
        data: { user_id: user.id, tool: 'calculator', kind: 'saved', name: `legacy ${ids.length}`, request },
      });
      ids.push(row.id);
    }
    // A summary that exists is never touched.
    const kept = { asset: { id: 1, name: 'kept' }, amount: '1.00', term: null, cheapest: null };
    const keptRow = await t.database.prisma.scenario.create({
      data: { user_id: user.id, tool: 'calculator', kind: 'saved', name: 'kept', request: legacy[0], summary: kept },
    });
    const sql = readFileSync(
      path.resolve(
        import.meta.dirname,
        '../../prisma/migrations/20261125170000_scenario_summary_backfill/migration.sql',
      ),
      'utf8',
    );
    await t.database.prisma.$executeRawUnsafe(sql);
    const rows = await t.database.prisma.scenario.findMany({ where: { id: { in: [...ids, keptRow.id] } } });
    const summaryOf = (id: number) => rows.find((r) => r.id === id)?.summary;
    const asset = { id: 11, name: await assetName() };
    expect(summaryOf(ids[0])).toEqual({ asset, amount: '55000.00', term: 48, cheapest: null });
    expect(summaryOf(ids[1])).toEqual({ asset, amount: '12345.68', term: null, cheapest: null });
    expect([summaryOf(ids[2]), summaryOf(ids[3]), summaryOf(ids[4])]).toEqual([null, null, null]);
    expect(summaryOf(keptRow.id)).toEqual(kept);
  });
});
