/**
 * Checkout sessions (spec: "Referenced but unspecified"; docs/billing.md): POST /billing/checkout-session
 * {plan, seats?} and GraphQL `createCheckoutSession` answer {url, id}, the way back to a subscription after one
 * ended. Broker admins, session only. The built-in processor's URL on this service completes the purchase.
 */
import { gql } from 'graphql-request';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.ts';

const FREE_ORG = 9; // free.broker@demo.test: admin, no subscription
const PATH = '/api/v1/billing/checkout-session';

let t: TestApp; // built-in processor
let stripe: TestApp;
let standIn: StripeStandIn;
let free: string;

beforeAll(async () => {
  t = await startTestApp();
  standIn = await startStripeStandIn();
  stripe = await startTestApp({ shareDatabaseWith: t, config: standIn.config() });
  free = (await t.login('free.broker@demo.test')).access;
});
afterAll(async () => {
  await stripe?.close();
  await standIn?.close();
  await t?.close();
});
beforeEach(async () => {
  standIn.mode = 'ok';
  standIn.requests.length = 0;
  await t.database.prisma.subscription.deleteMany({ where: { organisation_id: FREE_ORG } });
  await t.database.prisma.organisation.update({ where: { id: FREE_ORG }, data: { plan: 'free' } });
});

const checkout = (app: TestApp, body: unknown, token: string | null = free) => app.rest('POST', PATH, { token, body });

describe('201 {url, id}: the built-in processor answers a URL on this service that completes the purchase', () => {
  it('checkout, open the page, complete it: the organisation has the plan and its subscription', async () => {
    const res = await checkout(t, { plan: 'pro', seats: 2 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['url', 'id']);
    expect(res.body.url).toBe(`${t.config.publicBaseUrl}/api/v1/billing/checkout-sessions/${res.body.id}`);
    const path = new URL(res.body.url).pathname;
    const page = await t.rest('GET', path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const done = await t.rest('POST', path, { headers: { accept: 'application/json' } });
    expect(done.status).toBe(200);
    expect(done.body.subscription).toMatchObject({
      plan: 'pro',
      status: 'active',
      seats: 2,
      cancel_at_period_end: false,
    });
    const organisation = await t.database.prisma.organisation.findUniqueOrThrow({ where: { id: FREE_ORG } });
    expect(organisation.plan).toBe('pro');
    const read = await t.rest('GET', '/api/v1/billing/subscription', { token: free });
    expect(read.body.subscription).toMatchObject({ plan: 'pro', status: 'active' });
    // The URL completes once.
    expect((await t.rest('POST', path, { headers: { accept: 'application/json' } })).status).toBe(409);
    expect((await t.rest('GET', path)).status).toBe(404);
  });

  it('two sessions of one organisation completed at once: one subscription (200), the other 409', async () => {
    const paths = await Promise.all(
      ['pro', 'max'].map(async (plan) => new URL((await checkout(t, { plan })).body.url).pathname),
    );
    const done = await Promise.all(
      paths.map((path) => t.rest('POST', path, { headers: { accept: 'application/json' } })),
    );
    expect(done.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await t.database.prisma.subscription.count({ where: { organisation_id: FREE_ORG } })).toBe(1);
  });

  it('a browser form post is sent back to the app (303)', async () => {
    const res = await checkout(t, { plan: 'max' });
    const done = await fetch(`${t.baseUrl}${new URL(res.body.url).pathname}`, {
      method: 'POST',
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toContain('checkout=success');
  });

  it('an unknown or malformed session id is 404', async () => {
    const base = '/api/v1/billing/checkout-sessions/';
    expect((await t.rest('POST', `${base}bcs_AAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await t.rest('POST', `${base}nope`)).status).toBe(404);
    expect((await t.rest('GET', `${base}bcs_AAAAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });

  it('GraphQL createCheckoutSession answers {url, id}', async () => {
    const data: any = await t.graphql(free).request(gql`
      mutation {
        createCheckoutSession(plan: team, seats: 5) {
          __typename
          ... on CheckoutSession { url id }
        }
      }
    `);
    expect(data.createCheckoutSession.__typename).toBe('CheckoutSession');
    expect(data.createCheckoutSession.id).toMatch(/^bcs_/);
  });
});

describe('201 {url, id}: Stripe Checkout through the SDK', () => {
  it('creates a subscription-mode session with the plan price, the seats and the organisation in the metadata', async () => {
    const res = await checkout(stripe, { plan: 'pro', seats: 3 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ url: 'https://checkout.stripe.test/c/pay/cs_test_standin', id: 'cs_test_standin' });
    expect(standIn.requests).toHaveLength(1);
    const form = standIn.requests[0].form;
    expect(standIn.requests[0].path).toBe('/v1/checkout/sessions');
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('line_items[0][price]')).toBe('price_pro');
    expect(form.get('line_items[0][quantity]')).toBe('3');
    expect(form.get('subscription_data[metadata][organisation_id]')).toBe(String(FREE_ORG));
    expect(form.get('subscription_data[metadata][plan]')).toBe('pro');
    expect(form.get('customer_email')).toBe('free.broker@demo.test');
  });

  it('503 when no price is configured for the plan', async () => {
    expect((await checkout(stripe, { plan: 'team' })).status).toBe(503);
    expect(standIn.requests).toHaveLength(0);
  });

  it('502 when Stripe cannot be reached', async () => {
    standIn.mode = 'hang';
    expect((await checkout(stripe, { plan: 'pro' })).status).toBe(502);
  });
});

describe('400: plan and seats are checked, naming the field', () => {
  it.each([
    [{}, 'plan'],
    [{ plan: 'free' }, 'plan'],
    [{ plan: 'enterprise' }, 'plan'],
    [{ plan: 'gold' }, 'plan'],
    [{ plan: 'pro', seats: 0 }, 'seats'],
    [{ plan: 'pro', seats: 4 }, 'seats'], // Pro's user limit is 3
    [{ plan: 'pro', seats: 'two' }, 'seats'],
    [{ plan: 'pro', seats: 1.5 }, 'seats'],
  ])('%j', async (body, field) => {
    const res = await checkout(stripe, body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(standIn.requests).toHaveLength(0);
  });
});

describe('400: plan is an enum of the plans checkout sells; REST answers any other value with the same body', () => {
  it.each(['free', 'enterprise', 'gold', 'PRO', ''])('%j', async (plan) => {
    const res = await checkout(stripe, { plan });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid request.', errors: { plan: ['Must be one of pro, max, team.'] } });
  });

  it('a valid value passes the enum (and reaches the processor)', async () => {
    const res = await checkout(t, { plan: 'max', seats: 1 });
    expect(res.status).toBe(201);
  });
});

describe('409: the organisation already has a subscription that has not ended', () => {
  it('a live subscription refuses a second checkout; an ended one does not', async () => {
    const admin = (await t.login('broker.admin@demo.test')).access;
    const res = await checkout(t, { plan: 'max' }, admin);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String) });
    await t.database.prisma.subscription.update({ where: { organisation_id: 8 }, data: { status: 'canceled' } });
    expect((await checkout(t, { plan: 'max' }, admin)).status).toBe(201);
    await t.database.prisma.subscription.update({ where: { organisation_id: 8 }, data: { status: 'active' } });
  });
});

describe('403: broker admins only, session only', () => {
  it('a broker user, a financier admin, an API token', async () => {
    const user = (await t.login('broker.user@demo.test')).access;
    const financier = (await t.login('financier.admin@demo.test')).access;
    const created = await t.rest('POST', '/api/v1/api-tokens', {
      token: free,
      body: { name: 'checkout', scope: 'read_write' },
    });
    for (const token of [user, financier, created.body.token])
      expect((await checkout(t, { plan: 'pro' }, token)).status).toBe(403);
  });

  it('401 without credentials', async () => {
    expect((await checkout(t, { plan: 'pro' }, null)).status).toBe(401);
  });
});
