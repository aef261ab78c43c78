/**
 * Saved scenarios stay true whichever surface changes the catalogue (docs/scenarios.md "Re-pricing saved scenarios"):
 * the change log is written by the database in the writer's transaction, so a rate-card import, a restore, an
 * assistant's write, a GraphQL mutation and a TRUNCATE each re-price the saved scenarios they can affect, to the
 * figures a fresh run shows; a preview, which writes nothing, re-prices nothing. The worker is driven with runOnce().
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readRateCard } from '../../src/modules/rate-cards/store.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL as DEAL } from '../../testkit/demo.ts';

let t: TestApp;
let broker: string;
let brokerId: number;
let financier: string; // financier.admin@demo.test: organisation 1, mapped on the demo deal's asset
let financierOrg: number;

beforeAll(async () => {
  t = await startTestApp();
  broker = (await t.login('broker.admin@demo.test')).access;
  brokerId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
  financier = (await t.login('financier.admin@demo.test')).access;
  financierOrg = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'financier.admin@demo.test' } }))
    .organisation_id!;
});
afterAll(async () => {
  await t?.close();
});

const runOnce = () => t.app.repricing.runOnce();

let scenarioId: number;

beforeEach(async () => {
  await t.database.prisma.scenario.deleteMany({ where: { user_id: brokerId } });
  await runOnce(); // drains changes left by earlier tests (and the demo load)
  const run = await t.rest('POST', '/api/v1/calculator', { token: broker, body: DEAL });
  expect(run.status).toBe(200);
  scenarioId = Number(run.headers.get('x-scenario-id'));
  const promoted = await t.rest('POST', `/api/v1/calculator/scenarios/${scenarioId}/promote`, {
    token: broker,
    body: { name: 'Watched' },
  });
  expect(promoted.status).toBe(200);
});

const catalogueVersion = async () =>
  (await t.database.prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version;

/** A pass re-prices the saved scenario against the catalogue as it is now, to the figures a fresh run shows. */
async function expectRepricedToNow(): Promise<void> {
  const pass = await runOnce();
  expect(pass.queued).toBe(1);
  expect(pass.repriced).toBe(1);
  const row = await t.database.prisma.scenario.findUniqueOrThrow({ where: { id: scenarioId } });
  expect(row.repriced_version).toBe(await catalogueVersion());
  const fresh = await t.rest('POST', '/api/v1/calculator', { token: broker, body: DEAL });
  const top = fresh.body.results[0];
  expect((row.current as any).cheapest).toMatchObject({
    organisation_id: top.organisation_id,
    rate: top.e_min,
    repayment: top.repayment_min,
  });
}

/** The financier's card as an import file (JSON), with one bracket's base rates raised by `points`. */
async function cardFile(points: number, bracketId: number): Promise<string> {
  const card = await readRateCard(t.database.prisma, financierOrg);
  const defined = (o: Record<string, unknown>, drop: string[]) =>
    Object.fromEntries(
      Object.entries(o)
        .filter(([k, v]) => v !== null && v !== undefined && !drop.includes(k))
        .map(([k, v]) => [k, typeof v === 'object' ? Number(v) : v]),
    );
  return JSON.stringify({
    products: card.products.map((p) => ({ key: p.id, ...defined(p as never, ['id', 'organisation_id']) })),
    rate_brackets: card.rate_brackets.map((b) => {
      const fields = defined(b as never, ['id', 'organisation_id', 'product_id']) as Record<string, number>;
      if (b.id === bracketId) {
        fields.base_min = Number((fields.base_min + points).toFixed(2));
        fields.base_max = Number((fields.base_max + points).toFixed(2));
      }
      return { product: b.product_id, ...fields };
    }),
  });
}

const financierBracket = () =>
  t.database.prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: financierOrg }, orderBy: { id: 'asc' } });

describe('A rate-card import: the preview re-prices nothing, the apply re-prices', () => {
  it('preview writes nothing and queues nothing; apply re-prices the saved scenario to a fresh run', async () => {
    const bracket = await financierBracket();
    const content = await cardFile(1.5, bracket.id);
    const preview = await t.rest('POST', '/api/v1/rate-cards/import/preview', {
      token: financier,
      body: { format: 'json', content },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.summary_lines.length).toBeGreaterThan(0);
    expect(await runOnce()).toMatchObject({ changes: 0, queued: 0, repriced: 0 });

    const applied = await t.rest('POST', '/api/v1/rate-cards/import', {
      token: financier,
      body: { format: 'json', content, expected_version: preview.body.expected_version },
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    await expectRepricedToNow();
  });
});

describe('A rate-card restore re-prices', () => {
  it('restoring an earlier version of the card re-prices the saved scenario to a fresh run', async () => {
    const bracket = await financierBracket();
    const before = await t.database.prisma.rateCardVersion.findFirstOrThrow({
      where: { organisation_id: financierOrg, resource: 'rate_card' },
      orderBy: { id: 'desc' },
    });
    const edited = await t
      .graphql(financier)
      .request<any>(
        `mutation($id: Int!) { updateRateBracket(id: $id, input: {base_min: ${bracket.base_min + 2}, base_max: ${bracket.base_max + 2}}) { __typename } }`,
        { id: bracket.id },
      );
    expect(edited.updateRateBracket.__typename).toBe('RateCardChange');
    await runOnce();
    const restored = await t.rest('POST', `/api/v1/rate-card-versions/${before.id}/restore`, { token: financier });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await t.database.prisma.rateBracket.findUniqueOrThrow({ where: { id: bracket.id } })).base_min).toBe(
      bracket.base_min,
    );
    await expectRepricedToNow();
  });
});

describe('A GraphQL mutation re-prices', () => {
  it('updateRateBracket re-prices the saved scenario to a fresh run', async () => {
    const bracket = await financierBracket();
    const edited = await t
      .graphql(financier)
      .request<any>(
        `mutation($id: Int!) { updateRateBracket(id: $id, input: {base_min: ${bracket.base_min + 0.25}}) { __typename } }`,
        { id: bracket.id },
      );
    expect(edited.updateRateBracket.__typename).toBe('RateCardChange');
    await expectRepricedToNow();
  });
});

describe("An assistant's write (MCP) re-prices", () => {
  it('update_rate_bracket through POST /mcp re-prices the saved scenario to a fresh run', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: financier,
      body: { name: 'repricing assistant', scope: 'read_write', origin: 'mcp' },
    });
    expect(minted.status).toBe(201);
    const client = new Client({ name: 'Repricing Test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } },
      }),
    );
    try {
      const bracket = await financierBracket();
      const result = (await client.callTool({
        name: 'update_rate_bracket',
        arguments: { id: bracket.id, input: { base_max: bracket.base_max + 0.5 } },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    await expectRepricedToNow();
  });
});

// Last: it empties a catalogue table. No surface truncates one except a reset catalogue load (scripts/seed.ts
// --reset), which truncates the users too and with them every saved scenario; the trigger is proved here directly.
describe('A TRUNCATE of a catalogue table re-prices every saved scenario', () => {
  it('TRUNCATE asset_rate_brackets: the saved scenario is re-priced and now priced by nothing', async () => {
    await t.database.prisma.$executeRawUnsafe('TRUNCATE asset_rate_brackets');
    const pass = await runOnce();
    expect(pass.queued).toBe(1);
    const row = await t.database.prisma.scenario.findUniqueOrThrow({ where: { id: scenarioId } });
    expect(row.repriced_version).toBe(await catalogueVersion());
    expect((row.current as any).cheapest).toBeNull();
    expect((row.current as any).saved_cheapest_stands).toBe(false);
  });
});
