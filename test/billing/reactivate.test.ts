/**
 * Spec: POST /billing/reactivate (Subscription cancellation flag; Errors rows 403, 404, 409, 502; Authentication 7),
 * GraphQL `reactivateSubscription`. The built-in processor (the embedded default) and Stripe through the SDK against
 * a stand-in of the test's own on 127.0.0.1. Reliability: the processor down answers 502, subscription unchanged;
 * concurrent reactivations change the processor at most once.
 */
import { gql } from 'graphql-request';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { PERIOD_END_SECONDS, closedPort, startStripeStandIn, type StripeStandIn } from './stripe-stand-in.ts';

const BROKER_ORG = 8; // Demo Brokers Pty Ltd: broker.admin@demo.test (admin), broker.user@demo.test
const SPEC_FIELDS = [
  'plan',
  'plan_name',
  'status',
  'seats',
  'trial_end',
  'current_period_end',
  'cancel_at_period_end',
  'card_brand',
  'card_last4',
];
const PERIOD_END = new Date('2027-03-01T00:00:00Z');

let t: TestApp; // built-in processor (no STRIPE_SECRET_KEY)
let stripe: TestApp; // Stripe SDK -> stand-in
let refused: TestApp; // Stripe SDK -> a closed port
let standIn: StripeStandIn;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  standIn = await startStripeStandIn();
  stripe = await startTestApp({ shareDatabaseWith: t, config: standIn.config() });
  refused = await startTestApp({
    shareDatabaseWith: t,
    config: standIn.config({ stripeApiBase: { host: '127.0.0.1', port: await closedPort(), protocol: 'http' } }),
  });
  admin = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await refused?.close();
  await stripe?.close();
  await standIn?.close();
  await t?.close();
});

/** The broker's subscription, scheduled to cancel at period end unless told otherwise. */
async function subscription(fields: Record<string, unknown> = {}) {
  await t.database.prisma.subscription.update({
    where: { organisation_id: BROKER_ORG },
    data: {
      status: 'active',
      cancel_at_period_end: true,
      current_period_end: PERIOD_END,
      processor_id: 'sub_broker',
      processor_event_at: null,
      ...fields,
    },
  });
}
const stored = () => t.database.prisma.subscription.findUniqueOrThrow({ where: { organisation_id: BROKER_ORG } });
const reactivate = (app: TestApp, token: string | null = admin) =>
  app.rest('POST', '/api/v1/billing/reactivate', { token });

beforeEach(async () => {
  standIn.mode = 'ok';
  standIn.delayMs = 0;
  standIn.requests.length = 0;
  await subscription();
});

describe('cancel_at_period_end true + reactivate -> false (renews normally): 200 with the Subscription', () => {
  it('built-in processor: 200 with the spec fields, stored, and read back by GET /billing/subscription', async () => {
    const res = await reactivate(t);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SPEC_FIELDS);
    expect(res.body).toMatchObject({
      plan: 'pro',
      status: 'active',
      cancel_at_period_end: false,
      current_period_end: PERIOD_END.toISOString(),
    });
    expect((await stored()).cancel_at_period_end).toBe(false);
    const read = await t.rest('GET', '/api/v1/billing/subscription', { token: admin });
    expect(read.body.subscription.cancel_at_period_end).toBe(false);
  });

  it('Stripe: the SDK updates the subscription at the processor (with an idempotency key), then our row', async () => {
    const res = await reactivate(stripe);
    expect(res.status).toBe(200);
    expect(res.body.cancel_at_period_end).toBe(false);
    expect(res.body.current_period_end).toBe(new Date(PERIOD_END_SECONDS * 1000).toISOString());
    expect(standIn.requests).toHaveLength(1);
    const [call] = standIn.requests;
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/v1/subscriptions/sub_broker');
    expect(call.form.get('cancel_at_period_end')).toBe('false');
    expect(call.headers['idempotency-key']).toMatch(/^reactivate-/);
    expect(call.headers.authorization).toBe('Bearer sk_test_standin');
    const row = await stored();
    expect(row.cancel_at_period_end).toBe(false);
    expect(row.current_period_end?.toISOString()).toBe(new Date(PERIOD_END_SECONDS * 1000).toISOString());
  });

  it('GraphQL reactivateSubscription answers the Subscription', async () => {
    const data: any = await t.graphql(admin).request(gql`
      mutation {
        reactivateSubscription {
          __typename
          ... on BillingSubscription { cancel_at_period_end status }
        }
      }
    `);
    expect(data.reactivateSubscription).toEqual({
      __typename: 'BillingSubscription',
      cancel_at_period_end: false,
      status: 'active',
    });
  });
});

describe('403: not a broker admin, or API-token auth (Authentication 7)', () => {
  it('a broker user who is not an admin', async () => {
    const user = (await t.login('broker.user@demo.test')).access;
    expect((await reactivate(t, user)).status).toBe(403);
  });

  it("a financier's admin", async () => {
    const financier = (await t.login('financier.admin@demo.test')).access;
    expect((await reactivate(t, financier)).status).toBe(403);
  });

  it("an API token of the broker's admin, even read_write; GraphQL refuses it too", async () => {
    const created = await t.rest('POST', '/api/v1/api-tokens', {
      token: admin,
      body: { name: 'billing', scope: 'read_write' },
    });
    expect(created.status).toBe(201);
    const res = await reactivate(t, created.body.token);
    expect(res.status).toBe(403);
    expect(typeof res.body.error).toBe('string');
    const data: any = await t.graphql(created.body.token).request(gql`
      mutation {
        reactivateSubscription {
          __typename
        }
      }
    `);
    expect(data.reactivateSubscription.__typename).toBe('ForbiddenError');
    expect((await stored()).cancel_at_period_end).toBe(true);
  });

  it('401 without credentials', async () => {
    expect((await reactivate(t, null)).status).toBe(401);
  });
});

describe('404: no subscription to reactivate (deleted at period end: subscribe again through checkout)', () => {
  it('an organisation that never subscribed', async () => {
    const free = (await t.login('free.broker@demo.test')).access;
    const res = await reactivate(t, free);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it.each(['canceled', 'incomplete', 'incomplete_expired'])('a subscription whose status is %s', async (status) => {
    await subscription({ status });
    expect((await reactivate(t)).status).toBe(404);
    expect((await stored()).cancel_at_period_end).toBe(true);
  });

  it('Stripe no longer has the subscription: 404, nothing changed', async () => {
    await subscription({ processor_id: 'sub_gone' });
    expect((await reactivate(stripe)).status).toBe(404);
    expect((await stored()).cancel_at_period_end).toBe(true);
  });
});

describe('409: not scheduled to cancel (cancel_at_period_end false stays unchanged)', () => {
  it('answers 409 and never calls the processor', async () => {
    await subscription({ cancel_at_period_end: false });
    const res = await reactivate(stripe);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'The subscription is not scheduled to cancel.' });
    expect(standIn.requests).toHaveLength(0);
    expect((await stored()).cancel_at_period_end).toBe(false);
  });
});

describe('502: the payment processor could not be reached (within a bounded time; the subscription unchanged)', () => {
  it('a processor that never answers: 502 once the processor timeout has passed, not later', async () => {
    standIn.mode = 'hang';
    const before = await stored();
    const started = performance.now();
    const res = await reactivate(stripe);
    const elapsed = performance.now() - started;
    expect(res.status).toBe(502);
    // The stand-in config bounds the processor at 400 ms; the answer comes after that bound and well before a client
    // would give up (a generous margin for a loaded machine, far below the test's own timeout).
    expect(elapsed).toBeGreaterThanOrEqual(stripe.config.paymentProcessorTimeoutMs);
    expect(elapsed).toBeLessThan(stripe.config.paymentProcessorTimeoutMs + 3_000);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(await stored()).toEqual(before);
  });

  it('a processor that refuses connections (a closed port)', async () => {
    const before = await stored();
    expect((await reactivate(refused)).status).toBe(502);
    expect(await stored()).toEqual(before);
  });

  it('a processor that answers 500', async () => {
    standIn.mode = 'error_500';
    const before = await stored();
    expect((await reactivate(stripe)).status).toBe(502);
    expect(await stored()).toEqual(before);
  });

  it('GraphQL: UpstreamUnavailableError', async () => {
    standIn.mode = 'error_500';
    const data: any = await stripe.graphql(admin).request(gql`
      mutation {
        reactivateSubscription {
          __typename
        }
      }
    `);
    expect(data.reactivateSubscription.__typename).toBe('UpstreamUnavailableError');
  });
});

describe('Concurrent reactivations change the processor at most once', () => {
  it('two at once, through two app instances (two processes on PostgreSQL): one 200, one 409, one processor call', async () => {
    standIn.delayMs = 150; // the first call is still at the processor when the second arrives
    const other = await startTestApp({ shareDatabaseWith: t, config: standIn.config() });
    const results = await Promise.all([reactivate(stripe), reactivate(other)]).finally(() => other.close());
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(standIn.requests).toHaveLength(1);
    expect((await stored()).cancel_at_period_end).toBe(false);
  });
});
