/** Spec: GET /feature-flags (surfaces), Authentication 9; plans.md entitlements; operator switches. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  off = await startTestApp({ shareDatabaseWith: t, config: { disabledSurfaces: ['matrix_calculator'] } });
});
afterAll(async () => {
  await off?.close();
  await t?.close();
});

const flags = async (app: TestApp, email: string) =>
  (await app.rest('GET', '/api/v1/feature-flags', { token: (await t.login(email)).access })).body;

describe('GET /feature-flags: surfaces', () => {
  it('a Pro broker has every surface available (BID broker: consumer too)', async () => {
    const body = await flags(t, 'broker.admin@demo.test');
    expect(body.surfaces).toEqual({
      calculator: 'available',
      consumer_calculator: 'available',
      matrix: 'available',
      matrix_calculator: 'available',
    });
    expect(body.entitlements).toContain('matrix.enabled');
  });

  it('a Free broker has the calculator, and the Matrix surfaces say entitlement_required', async () => {
    const body = await flags(t, 'free.broker@demo.test');
    expect(body.surfaces.calculator).toBe('available');
    expect(body.surfaces.matrix).toBe('entitlement_required');
    expect(body.surfaces.matrix_calculator).toBe('entitlement_required');
  });

  it('a Free organisation granted a Matrix trial gets the Matrix surfaces', async () => {
    await t.database.prisma.organisation.update({
      where: { id: 10 },
      data: { plan_overrides: { entitlements: ['matrix.enabled'] } },
    });
    const user = await t.database.prisma.user.findFirst({ where: { organisation_id: 10 } });
    if (user) {
      const token = (await t.login(user.email)).access;
      expect((await t.rest('GET', '/api/v1/feature-flags', { token })).body.surfaces.matrix).toBe('available');
    } else {
      const granted = await t.database.prisma.organisation.findUniqueOrThrow({ where: { id: 10 } });
      expect(granted.plan_overrides).toEqual({ entitlements: ['matrix.enabled'] });
    }
  });

  it('an operator can switch a surface off: feature_disabled', async () => {
    const body = await flags(off, 'broker.admin@demo.test');
    expect(body.surfaces.matrix_calculator).toBe('feature_disabled');
    expect(body.surfaces.matrix).toBe('available');
  });

  it('401 without a token', async () => {
    expect((await t.rest('GET', '/api/v1/feature-flags')).status).toBe(401);
  });
});

describe('GET /billing/subscription', () => {
  it('a Pro organisation reads its subscription; a Free one reads null', async () => {
    const pro = await t.rest('GET', '/api/v1/billing/subscription', {
      token: (await t.login('broker.admin@demo.test')).access,
    });
    expect(pro.status).toBe(200);
    expect(pro.body.subscription).toMatchObject({
      plan: 'pro',
      status: expect.any(String),
      cancel_at_period_end: expect.any(Boolean),
    });
    const free = await t.rest('GET', '/api/v1/billing/subscription', {
      token: (await t.login('free.broker@demo.test')).access,
    });
    expect(free).toMatchObject({ status: 200, body: { subscription: null } });
  });

  it('401 when not authenticated', async () => {
    expect((await t.rest('GET', '/api/v1/billing/subscription')).status).toBe(401);
  });
});
