/**
 * Processor webhooks: POST /api/v1/billing/webhooks/stripe keeps our subscription current (status,
 * cancel_at_period_end, current_period_end, trial_end, card brand/last4). Signed with the SDK's
 * generateTestHeaderString; verified with constructEvent over the raw body.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { startStripeStandIn, stripeSubscription, type StripeStandIn } from './stripe-stand-in.ts';

const BROKER_ORG = 8;
const FREE_ORG = 9; // Solo Finance Broking: free.broker@demo.test, no subscription
const SECRET = 'whsec_standin';
const PATH = '/api/v1/billing/webhooks/stripe';

let t: TestApp; // built-in processor
let stripe: TestApp;
let standIn: StripeStandIn;
let sequence = 0;
/** Event `created` times move forward from here, one second per event unless a test says otherwise. */
let clock = 1_800_000_000;

beforeAll(async () => {
  t = await startTestApp();
  standIn = await startStripeStandIn();
  stripe = await startTestApp({ shareDatabaseWith: t, config: standIn.config() });
});
afterAll(async () => {
  await stripe?.close();
  await standIn?.close();
  await t?.close();
});

beforeEach(async () => {
  await t.database.prisma.subscription.update({
    where: { organisation_id: BROKER_ORG },
    data: {
      status: 'active',
      cancel_at_period_end: false,
      processor_id: 'sub_broker',
      processor_customer_id: 'cus_broker',
      processor_event_at: null,
      card_event_at: null,
      card_brand: 'visa',
      card_last4: '4242',
    },
  });
});

function event(type: string, object: unknown, fields: { id?: string; created?: number } = {}) {
  return {
    id: fields.id ?? `evt_test_${++sequence}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: fields.created ?? ++clock,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

async function deliver(app: TestApp, payload: unknown, signature?: string | null) {
  const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const header =
    signature === undefined ? Stripe.webhooks.generateTestHeaderString({ payload: raw, secret: SECRET }) : signature;
  return app.rest('POST', PATH, { raw, headers: header === null ? {} : { 'stripe-signature': header } });
}

const broker = () => t.database.prisma.subscription.findUniqueOrThrow({ where: { organisation_id: BROKER_ORG } });
const subscriptionEvent = (
  type: string,
  fields: Record<string, unknown>,
  meta: { id?: string; created?: number } = {},
) => event(type, stripeSubscription('sub_broker', { customer: 'cus_broker', ...fields }), meta);

describe('The signature is verified over the raw body: invalid 400, nothing changed', () => {
  it('a wrong secret', async () => {
    const payload = JSON.stringify(subscriptionEvent('customer.subscription.updated', { status: 'past_due' }));
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const res = await deliver(stripe, payload, forged);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await broker()).status).toBe('active');
  });

  it('a body changed after signing', async () => {
    const payload = JSON.stringify(subscriptionEvent('customer.subscription.updated', { status: 'past_due' }));
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const res = await deliver(stripe, payload.replace('past_due', 'unpaid'), header);
    expect(res.status).toBe(400);
    expect((await broker()).status).toBe('active');
  });

  it('no Stripe-Signature header, or one that is not a signature', async () => {
    const payload = subscriptionEvent('customer.subscription.updated', { status: 'past_due' });
    expect((await deliver(stripe, payload, null)).status).toBe(400);
    expect((await deliver(stripe, payload, 'garbage')).status).toBe(400);
    expect((await broker()).status).toBe('active');
  });

  it('a signed body that is not JSON', async () => {
    expect((await deliver(stripe, 'not json')).status).toBe(400);
  });

  it('a body over the limit: 413', async () => {
    const res = await deliver(stripe, JSON.stringify({ pad: 'x'.repeat(stripe.config.maxBodyBytes + 1) }));
    expect(res.status).toBe(413);
  });
});

describe('The signature is checked on the exact bytes received and within 5 minutes either way: else 400', () => {
  const signed = (payload: string, timestamp?: number) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET, ...(timestamp ? { timestamp } : {}) });
  const seconds = () => Math.floor(Date.now() / 1000);
  const pastDue = () => JSON.stringify(subscriptionEvent('customer.subscription.updated', { status: 'past_due' }));

  it('a signature dated an hour ahead, or ten minutes ahead, is refused like one an hour old', async () => {
    for (const offset of [3600, 600, -3600]) {
      const payload = pastDue();
      const res = await deliver(stripe, payload, signed(payload, seconds() + offset));
      expect(res.status, `offset ${offset}`).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect((await broker()).status).toBe('active');
  });

  it('a signature a minute ahead (clock skew inside the tolerance) is accepted', async () => {
    const payload = pastDue();
    expect((await deliver(stripe, payload, signed(payload, seconds() + 60))).status).toBe(200);
    expect((await broker()).status).toBe('past_due');
  });

  it('a header with two timestamps is refused', async () => {
    const payload = pastDue();
    const header = signed(payload);
    expect((await deliver(stripe, payload, `t=${seconds() + 3600},${header}`)).status).toBe(400);
    expect((await broker()).status).toBe('active');
  });

  it('a signed body with a byte-order mark put in front is refused', async () => {
    const payload = pastDue();
    const res = await deliver(stripe, `\uFEFF${payload}`, signed(payload));
    expect(res.status).toBe(400);
    expect((await broker()).status).toBe('active');
  });

  it('a body whose bytes are not UTF-8 is refused, even where their lenient decoding was signed', async () => {
    const payload = JSON.stringify({
      ...subscriptionEvent('customer.subscription.updated', { status: 'past_due' }),
      note: '\uFFFD',
    });
    const bytes = Buffer.from(payload.replace('\uFFFD', '\u0000'), 'utf8');
    bytes[bytes.indexOf(0)] = 0xff; // a lone 0xFF: a lenient decoder reads it as U+FFFD, the text that was signed
    const res = await fetch(`${stripe.baseUrl}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed(payload) },
      body: bytes,
    });
    expect(res.status).toBe(400);
    expect((await broker()).status).toBe('active');
  });
});

describe('Subscription events keep status, cancel_at_period_end, current_period_end and trial_end current', () => {
  it('customer.subscription.updated: cancel at period end, with the new period and trial end', async () => {
    const res = await deliver(
      stripe,
      subscriptionEvent('customer.subscription.updated', {
        status: 'trialing',
        cancel_at_period_end: true,
        trial_end: 1_850_000_000,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'applied' });
    const row = await broker();
    expect(row).toMatchObject({ status: 'trialing', cancel_at_period_end: true });
    expect(row.trial_end?.toISOString()).toBe(new Date(1_850_000_000_000).toISOString());
    expect(row.current_period_end?.toISOString()).toBe(new Date(1_900_000_000_000).toISOString());
    const token = (await t.login('broker.admin@demo.test')).access;
    const read = await t.rest('GET', '/api/v1/billing/subscription', { token });
    expect(read.body.subscription).toMatchObject({ status: 'trialing', cancel_at_period_end: true });
  });

  it('customer.subscription.deleted: canceled, the plan falls back to Free, and reactivate answers 404', async () => {
    await t.database.prisma.subscription.update({
      where: { organisation_id: BROKER_ORG },
      data: { cancel_at_period_end: true },
    });
    const res = await deliver(stripe, subscriptionEvent('customer.subscription.deleted', { status: 'canceled' }));
    expect(res.body.outcome).toBe('applied');
    expect((await broker()).status).toBe('canceled');
    const organisation = await t.database.prisma.organisation.findUniqueOrThrow({ where: { id: BROKER_ORG } });
    expect(organisation.plan).toBe('free');
    const token = (await t.login('broker.admin@demo.test')).access;
    expect((await t.rest('POST', '/api/v1/billing/reactivate', { token })).status).toBe(404);
    // A new subscription through checkout replaces the ended one and gives the plan back.
    const created = event(
      'customer.subscription.created',
      stripeSubscription('sub_broker_2', {
        customer: 'cus_broker',
        metadata: { organisation_id: String(BROKER_ORG), plan: 'max' },
      }),
    );
    expect((await deliver(stripe, created)).body.outcome).toBe('applied');
    expect(await broker()).toMatchObject({ processor_id: 'sub_broker_2', status: 'active', plan: 'max' });
    expect((await t.database.prisma.organisation.findUniqueOrThrow({ where: { id: BROKER_ORG } })).plan).toBe('max');
    // A late event of the old, ended subscription resurrects nothing.
    const late = subscriptionEvent('customer.subscription.updated', { status: 'past_due' });
    expect((await deliver(stripe, late)).body.outcome).toBe('ignored');
    expect((await broker()).processor_id).toBe('sub_broker_2');
    await t.database.prisma.organisation.update({ where: { id: BROKER_ORG }, data: { plan: 'pro' } });
    await t.database.prisma.subscription.update({
      where: { organisation_id: BROKER_ORG },
      data: { plan: 'pro', plan_name: 'Pro' },
    });
  });

  it('customer.subscription.created for an organisation without one creates its subscription', async () => {
    const created = event(
      'customer.subscription.created',
      stripeSubscription('sub_free_org', {
        customer: 'cus_free_org',
        metadata: { organisation_id: String(FREE_ORG), plan: 'pro' },
        default_payment_method: { id: 'pm_1', object: 'payment_method', card: { brand: 'mastercard', last4: '4444' } },
      }),
    );
    expect((await deliver(stripe, created)).body.outcome).toBe('applied');
    const row = await t.database.prisma.subscription.findUniqueOrThrow({ where: { organisation_id: FREE_ORG } });
    expect(row).toMatchObject({
      plan: 'pro',
      plan_name: 'Pro',
      seats: 3,
      card_brand: 'mastercard',
      card_last4: '4444',
    });
    await t.database.prisma.subscription.delete({ where: { organisation_id: FREE_ORG } });
    await t.database.prisma.organisation.update({ where: { id: FREE_ORG }, data: { plan: 'free' } });
  });
});

describe('Card brand and last4 follow payment_method events', () => {
  it("payment_method.attached to the subscription's customer", async () => {
    const attached = event('payment_method.attached', {
      id: 'pm_2',
      object: 'payment_method',
      customer: 'cus_broker',
      card: { brand: 'amex', last4: '0005' },
    });
    expect((await deliver(stripe, attached)).body.outcome).toBe('applied');
    expect(await broker()).toMatchObject({ card_brand: 'amex', card_last4: '0005' });
  });
});

describe('Idempotent: a replayed event id is acknowledged and changes nothing', () => {
  it('the same event twice, with our row changed in between', async () => {
    const once = subscriptionEvent('customer.subscription.updated', { status: 'past_due' });
    expect((await deliver(stripe, once)).body.outcome).toBe('applied');
    await t.database.prisma.subscription.update({ where: { organisation_id: BROKER_ORG }, data: { status: 'active' } });
    const again = await deliver(stripe, once);
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe('duplicate');
    expect((await broker()).status).toBe('active');
  });

  it('the same event delivered twice at once: applied once', async () => {
    const once = subscriptionEvent('customer.subscription.updated', { status: 'past_due' });
    const results = await Promise.all([deliver(stripe, once), deliver(stripe, once)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.outcome).sort()).toEqual(['applied', 'duplicate']);
  });
});

describe('Out of order: an older event never overwrites newer state', () => {
  it('an event created before the last one applied is acknowledged as stale', async () => {
    const newer = subscriptionEvent(
      'customer.subscription.updated',
      { cancel_at_period_end: true },
      { created: clock + 100 },
    );
    const older = subscriptionEvent(
      'customer.subscription.updated',
      { cancel_at_period_end: false },
      { created: clock + 50 },
    );
    clock += 100;
    expect((await deliver(stripe, newer)).body.outcome).toBe('applied');
    const res = await deliver(stripe, older);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('stale');
    expect((await broker()).cancel_at_period_end).toBe(true);
  });

  it('an event from before a reactivation does not undo it', async () => {
    await t.database.prisma.subscription.update({
      where: { organisation_id: BROKER_ORG },
      data: { cancel_at_period_end: true },
    });
    const token = (await stripe.login('broker.admin@demo.test')).access;
    expect((await stripe.rest('POST', '/api/v1/billing/reactivate', { token })).status).toBe(200);
    const before = Math.floor(Date.now() / 1000) - 60;
    const res = await deliver(
      stripe,
      subscriptionEvent('customer.subscription.updated', { cancel_at_period_end: true }, { created: before }),
    );
    expect(res.body.outcome).toBe('stale');
    expect((await broker()).cancel_at_period_end).toBe(false);
  });
});

describe('Unknown event types are acknowledged 200', () => {
  it('invoice.finalized changes nothing', async () => {
    const res = await deliver(stripe, event('invoice.finalized', { id: 'in_1', object: 'invoice' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'ignored' });
  });

  it('an event for a subscription we do not know', async () => {
    const res = await deliver(stripe, event('customer.subscription.updated', stripeSubscription('sub_unknown')));
    expect(res.body.outcome).toBe('ignored');
  });
});

describe('Without Stripe configured the endpoint is not available', () => {
  it('the built-in processor answers 503 and reads nothing', async () => {
    const res = await deliver(t, subscriptionEvent('customer.subscription.updated', { status: 'past_due' }));
    expect(res.status).toBe(503);
    expect((await broker()).status).toBe('active');
  });
});
