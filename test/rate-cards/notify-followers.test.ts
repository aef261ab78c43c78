/**
 * A change to a rate card queues a `rate_card` notification for the users who follow it (docs/rate-card-versions.md,
 * Notifications), whatever surface the change came through: REST, import, restore and the AI assistant each queue
 * exactly one per follower, none for the actor (who follows its own card here), in the change's transaction, and a
 * refused change queues none. (GraphQL is covered in rate-cards.graphql.test.ts.)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

const FINANCIER = 1; // financier.admin@demo.test's organisation
let t: TestApp;
let actor: string; // financier.admin@demo.test: makes every change, and follows its own card
let actorId: number;
let followerIds: number[]; // broker.admin@demo.test, broker.user@demo.test
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
  actor = (await t.login('financier.admin@demo.test')).access;
  actorId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'financier.admin@demo.test' } })).id;
  followerIds = [];
  for (const email of ['broker.admin@demo.test', 'broker.user@demo.test', 'financier.admin@demo.test']) {
    const followed: any = await t
      .graphql((await t.login(email)).access)
      .request(
        `mutation { followRateCard(organisationId: ${FINANCIER}) { __typename ... on RateCardFollowing { following } } }`,
      );
    expect(followed.followRateCard).toEqual({ __typename: 'RateCardFollowing', following: true });
    const user = await t.database.prisma.user.findUniqueOrThrow({ where: { email } });
    if (user.id !== actorId) followerIds.push(user.id);
  }
  followerIds.sort((a, b) => a - b);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await t?.close();
});

const firstOf = {
  product: () =>
    t.database.prisma.product.findFirstOrThrow({ where: { organisation_id: FINANCIER }, orderBy: { id: 'asc' } }),
  bracket: () =>
    t.database.prisma.rateBracket.findFirstOrThrow({ where: { organisation_id: FINANCIER }, orderBy: { id: 'asc' } }),
};

/** The card version to send as `expected_version` (what the import's preview answers). */
async function expectedVersion(): Promise<number> {
  const card: any = await t.graphql(actor).request('{ rateCard { __typename ... on RateCard { version } } }');
  return card.rateCard.version;
}

/** The actor's assistant: an mcp read_write token, connected with the MCP SDK's client over real HTTP. */
let assistant: Client | undefined;
async function assistantTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  if (!assistant) {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: actor,
      body: { name: 'notify test', scope: 'read_write', origin: 'mcp' },
    });
    expect(minted.status).toBe(201);
    const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } },
    });
    assistant = new Client({ name: 'Notify Test Assistant', version: '1.0.0' });
    clients.push(assistant);
    await assistant.connect(transport);
  }
  return (await assistant.callTool({ name, arguments: args })) as CallToolResult;
}

const CSV = [
  'product_name,monthly_fee,name,min_term,max_term,base_min,base_max',
  'Imported Doc,5,Tier A,12,36,8.45,8.45',
  'Imported Doc,5,Tier B,37,60,9.10,9.10',
].join('\n');

/** Makes the change; answers whether the surface reported success. */
type Surface = { surface: string; change: () => Promise<boolean> };

const changes: Surface[] = [
  {
    surface: 'REST POST /api/v1/products',
    change: async () =>
      (await t.rest('POST', '/api/v1/products', { token: actor, body: { product_name: 'Announced' } })).status === 201,
  },
  {
    surface: 'REST PATCH /api/v1/products/{id}',
    change: async () => {
      const product = await firstOf.product();
      const res = await t.rest('PATCH', `/api/v1/products/${product.id}`, { token: actor, body: { monthly_fee: 7 } });
      return res.status === 200;
    },
  },
  {
    surface: 'import apply POST /api/v1/rate-cards/import',
    change: async () => {
      const preview = await t.rest('POST', '/api/v1/rate-cards/import/preview', {
        token: actor,
        body: { format: 'csv', content: CSV },
      });
      const body = { format: 'csv', content: CSV, expected_version: preview.body.expected_version };
      return (await t.rest('POST', '/api/v1/rate-cards/import', { token: actor, body })).status === 200;
    },
  },
  {
    surface: 'restore POST /api/v1/rate-card-versions/{id}/restore',
    change: async () => {
      // The baseline: the card as the catalogue loaded it, before the first change above.
      const baseline = await t.database.prisma.rateCardVersion.findFirstOrThrow({
        where: { organisation_id: FINANCIER, resource: 'rate_card' },
        orderBy: { id: 'asc' },
      });
      const res = await t.rest('POST', `/api/v1/rate-card-versions/${baseline.id}/restore`, { token: actor });
      return res.status === 200;
    },
  },
  {
    surface: 'assistant update_rate_bracket over POST /mcp',
    change: async () => {
      const bracket = await firstOf.bracket();
      const result = await assistantTool('update_rate_bracket', { id: bracket.id, input: { base_min: 7.77 } });
      return !result.isError;
    },
  },
];

const refusals: Surface[] = [
  {
    surface: 'REST POST /api/v1/products, 400 (blank product_name)',
    change: async () =>
      (await t.rest('POST', '/api/v1/products', { token: actor, body: { product_name: ' ' } })).status === 400,
  },
  {
    surface: 'REST PATCH /api/v1/products/{id}, 409 (stale expected_version)',
    change: async () => {
      const product = await firstOf.product();
      const body = { monthly_fee: 8, expected_version: (await expectedVersion()) - 1 };
      return (await t.rest('PATCH', `/api/v1/products/${product.id}`, { token: actor, body })).status === 409;
    },
  },
  {
    surface: 'import apply POST /api/v1/rate-cards/import, 400 (a bad file)',
    change: async () => {
      const body = {
        format: 'csv',
        content: 'product_name,base_min\nBroken,abc',
        expected_version: await expectedVersion(),
      };
      return (await t.rest('POST', '/api/v1/rate-cards/import', { token: actor, body })).status === 400;
    },
  },
  {
    surface: 'restore POST /api/v1/rate-card-versions/{id}/restore, 409 (stale expected_version)',
    change: async () => {
      const latest = await t.database.prisma.rateCardVersion.findFirstOrThrow({
        where: { organisation_id: FINANCIER, resource: 'rate_card' },
        orderBy: { id: 'desc' },
      });
      const res = await t.rest('POST', `/api/v1/rate-card-versions/${latest.id}/restore`, {
        token: actor,
        body: { expected_version: (await expectedVersion()) + 1 },
      });
      return res.status === 409;
    },
  },
  {
    surface: 'assistant update_rate_bracket over POST /mcp, refused (base_min above base_max)',
    change: async () => {
      const bracket = await firstOf.bracket();
      const result = await assistantTool('update_rate_bracket', {
        id: bracket.id,
        input: { base_min: 99, base_max: 1 },
      });
      return result.isError === true;
    },
  },
];

/** The newest notification id now: what a change queues comes after it. */
const newestNotification = async () =>
  (await t.database.prisma.notification.findFirst({ orderBy: { id: 'desc' }, select: { id: true } }))?.id ?? 0;

describe('A change to a rate card queues a rate_card notification for the users who follow it, from every surface', () => {
  it.each(changes)('$surface: one per follower, none for the actor, naming the change', async ({ change }) => {
    const after = await newestNotification();
    expect(await change()).toBe(true);
    // (Connecting the assistant queues the actor an `account` notice of its own: only rate_card ones count here.)
    const queued = await t.database.prisma.notification.findMany({
      where: { id: { gt: after }, category: 'rate_card' },
      orderBy: { id: 'asc' },
    });
    expect(queued.map((n) => n.user_id).sort((a, b) => a - b)).toEqual(followerIds);
    const version = await t.database.prisma.rateCardVersion.findFirstOrThrow({
      where: { organisation_id: FINANCIER, resource: 'rate_card' },
      orderBy: { id: 'desc' },
    });
    for (const n of queued) {
      expect(n.body).toBe(version.reason);
      expect(n.data).toMatchObject({ organisation_id: FINANCIER, rate_card_version_id: version.id });
    }
  });
});

describe('A refused change queues no notification', () => {
  it.each(refusals)('$surface', async ({ change }) => {
    const after = await newestNotification();
    expect(await change()).toBe(true);
    expect(await t.database.prisma.notification.count({ where: { id: { gt: after }, category: 'rate_card' } })).toBe(0);
  });
});
