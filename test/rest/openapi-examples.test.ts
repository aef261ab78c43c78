/**
 * The API reference (/docs) pre-fills "Try it out" with each operation's request example, so every example must be
 * one that works: run against the demo data as the demo user who would send it, each answers 2xx (and the pricing
 * routes a non-empty result list). Ids in paths are real demo ids; an id of something the demo data does not hold
 * until someone makes it (an API token, a scenario, a rate-card version) is the first one made, and the run makes it
 * first on a fresh copy of the demo data. A copy costs a database and an app, so runs that make things of different
 * kinds share one: each still makes the first of its kind there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/rest/openapi/document.ts';
import { type AbnRegisterStandIn, startAbnRegisterStandIn } from '../../testkit/abn-register.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';

type DemoUser =
  | 'broker.admin@demo.test'
  | 'broker.user@demo.test'
  | 'free.broker@demo.test'
  | 'financier.admin@demo.test';

interface Run {
  /** Who sends it; null: no credentials (the public routes). */
  as: DemoUser | null;
  /**
   * Runs on a fresh copy of the demo data (`copy`: each made once, shared by runs that make different kinds of
   * things) after `make`, which makes what the example's ids name.
   */
  fresh?: { copy: Copy; make: (t: TestApp, token: string) => Promise<void> };
  /** The example's `refresh` is a placeholder: a refresh token of a fresh sign-in is sent in its place. */
  refreshToken?: true;
  /** The pricing routes: the answer's `results` must not be empty. */
  results?: true;
  /** POST /mcp: sent with an AI-assistant token (origin `mcp`) the user mints first, as an assistant would be. */
  mcpToken?: true;
}

type Copy = 'a' | 'b' | 'c';

const BROKER = 'broker.admin@demo.test';
const FINANCIER = 'financier.admin@demo.test';

async function expectStatus(pending: Promise<{ status: number; body: unknown }>, status: number): Promise<any> {
  const res = await pending;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** A change to the financier's rate card: its first version ids exist after it. */
const changeRateCard = async (t: TestApp, token: string) => {
  await expectStatus(t.rest('PATCH', '/api/v1/products/1', { token, body: { monthly_fee: 5.5 } }), 200);
};

/** Every operation of the document, and how its example is sent. */
const RUNS: Record<string, Run> = {
  listApiTokens: { as: BROKER },
  createApiToken: { as: BROKER },
  revokeApiToken: {
    as: BROKER,
    fresh: {
      copy: 'a',
      make: async (t, token) => {
        await expectStatus(
          t.rest('POST', '/api/v1/api-tokens', { token, body: { name: 'Script', scope: 'read' } }),
          201,
        );
      },
    },
  },
  listApprovals: { as: BROKER },
  approvalOptions: { as: BROKER },
  updateApproval: { as: FINANCIER },
  assetSearch: { as: BROKER },
  updateAsset: { as: FINANCIER },
  login: { as: null },
  refresh: { as: null, refreshToken: true },
  logout: { as: null, refreshToken: true },
  resendVerification: { as: null },
  forgotPassword: { as: null },
  getSubscription: { as: BROKER },
  reactivateSubscription: {
    as: BROKER,
    // The demo broker's subscription renews; reactivating needs one scheduled to cancel at the period's end.
    fresh: {
      copy: 'a',
      make: async (t) => {
        await t.database.prisma.subscription.update({
          where: { organisation_id: 8 },
          data: { cancel_at_period_end: true, processor_id: 'sub_demo' },
        });
      },
    },
  },
  createCheckoutSession: { as: 'free.broker@demo.test' },
  calculate: { as: BROKER, results: true },
  recalculate: { as: BROKER },
  financiers: { as: BROKER },
  promoteScenario: {
    as: BROKER,
    fresh: {
      copy: 'a',
      make: async (t, token) => {
        await expectStatus(t.rest('POST', '/api/v1/calculator', { token, body: DEMO_DEAL }), 200);
      },
    },
  },
  abnLookup: { as: BROKER },
  getFeatureFlags: { as: BROKER },
  matrix: { as: BROKER, results: true },
  matrixCalculator: { as: BROKER, results: true },
  whatWouldItTake: { as: BROKER },
  mcp: { as: BROKER, mcpToken: true },
  revokeMcpConnection: {
    as: BROKER,
    fresh: {
      copy: 'b',
      make: async (t, token) => {
        const minted = await expectStatus(
          t.rest('POST', '/api/v1/api-tokens', { token, body: { name: 'Claude', scope: 'read', origin: 'mcp' } }),
          201,
        );
        // The assistant's handshake records its connection.
        const initialize = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Claude', version: '1' } },
        };
        await expectStatus(
          t.rest('POST', '/mcp', {
            token: minted.token,
            body: initialize,
            headers: { accept: 'application/json, text/event-stream' },
          }),
          200,
        );
      },
    },
  },
  getNotificationPreferences: { as: BROKER },
  updateNotificationPreferences: { as: BROKER },
  registerDevice: { as: BROKER },
  unregisterDevice: { as: BROKER },
  getOrganisation: { as: BROKER },
  createProduct: { as: FINANCIER },
  updateProduct: { as: FINANCIER },
  rateCardVersionDiff: { as: FINANCIER, fresh: { copy: 'a', make: changeRateCard } },
  restoreRateCardVersion: { as: FINANCIER, fresh: { copy: 'b', make: changeRateCard } },
  previewRateCardImport: { as: FINANCIER },
  // A card no one has changed since the demo data was loaded is at version 0 (the preview says so).
  applyRateCardImport: { as: FINANCIER, fresh: { copy: 'c', make: async () => {} } },
  reportDuplicates: { as: BROKER },
  fileIssueReport: { as: BROKER },
  updateUser: { as: BROKER },
};

interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: any[];
  requestBody?: any;
  responses: Record<string, unknown>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries<any>(openApiDocument.paths))
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) =>
        p.$ref ? openApiDocument.components.parameters[p.$ref.split('/').at(-1)] : p,
      );
      found.push({ ...op, method: method.toUpperCase(), path, parameters });
    }
  return found;
}

/** The request "Try it out" pre-fills: the path and query parameters' examples and the body's. */
function exampleRequest(op: Operation): { url: string; body: unknown } {
  let url = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
    else if (p.in === 'query' && p.example !== undefined) query.set(p.name, String(p.example));
  }
  const search = query.toString();
  return {
    url: search ? `${url}?${search}` : url,
    body: op.requestBody?.content?.['application/json']?.example,
  };
}

const OPERATIONS = operations();

describe('Every operation carries a request example: each path parameter, each required query parameter, each body', () => {
  it('the examples are there (a missing one pre-fills Swagger UI generated placeholders)', () => {
    const missing: string[] = [];
    for (const op of OPERATIONS) {
      for (const p of op.parameters)
        if ((p.in === 'path' || (p.in === 'query' && p.required)) && p.example === undefined)
          missing.push(`${op.operationId}: ${p.in} ${p.name}`);
      if (op.requestBody && op.requestBody.content?.['application/json']?.example === undefined)
        missing.push(`${op.operationId}: body`);
    }
    expect(missing).toEqual([]);
  });

  it('the run table below names every operation of the document', () => {
    expect(OPERATIONS.map((op) => op.operationId).sort()).toEqual(Object.keys(RUNS).sort());
  });
});

describe('Each example answers 2xx against the demo data, sent as the demo user who would send it', () => {
  let shared: TestApp;
  let register: AbnRegisterStandIn;
  const copies = new Map<Copy, TestApp>();
  const sessions = new WeakMap<TestApp, Map<string, { access: string; refresh: string }>>();

  async function signIn(t: TestApp, email: DemoUser): Promise<{ access: string; refresh: string }> {
    let byUser = sessions.get(t);
    if (!byUser) sessions.set(t, (byUser = new Map()));
    let session = byUser.get(email);
    if (!session) byUser.set(email, (session = await t.login(email)));
    return session;
  }

  beforeAll(async () => {
    register = await startAbnRegisterStandIn();
    shared = await startTestApp({
      config: {
        abnLookupUrl: register.url,
        abnLookupGuid: 'demo-guid',
      },
    });
    for (const name of new Set(Object.values(RUNS).flatMap((run) => (run.fresh ? [run.fresh.copy] : []))))
      copies.set(name, await startTestApp());
  }, 240_000); // four apps
  afterAll(async () => {
    for (const app of copies.values()) await app.close();
    await shared?.close();
    await register?.close();
  });

  for (const op of OPERATIONS) {
    it(`${op.operationId}: ${op.method} ${op.path}`, async () => {
      const run = RUNS[op.operationId];
      expect(run, `${op.operationId} has no entry in RUNS`).toBeDefined();
      const t = run.fresh ? copies.get(run.fresh.copy)! : shared;
      let token = run.as ? (await signIn(t, run.as)).access : null;
      if (run.fresh) await run.fresh.make(t, token ?? '');
      if (run.mcpToken) {
        const body = { name: 'Claude', scope: 'read', origin: 'mcp' };
        token = (await expectStatus(t.rest('POST', '/api/v1/api-tokens', { token, body }), 201)).token;
      }
      const { url, body } = exampleRequest(op);
      let sent = body;
      if (run.refreshToken) {
        expect(Object.keys(body as object)).toEqual(['refresh']);
        sent = { refresh: (await t.login('broker.user@demo.test')).refresh };
      }
      const headers = run.mcpToken ? { accept: 'application/json, text/event-stream' } : undefined;
      const res = await t.rest(op.method, url, { token, body: sent, headers });
      const documented2xx = Object.keys(op.responses).filter((status) => status.startsWith('2'));
      expect(documented2xx, JSON.stringify(res.body).slice(0, 500)).toContain(String(res.status));
      if (run.results) expect((res.body as { results: unknown[] }).results.length).toBeGreaterThan(0);
    });
  }
});
