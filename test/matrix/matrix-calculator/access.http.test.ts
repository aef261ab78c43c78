/**
 * Spec (api-v1.md): who may run POST /api/v1/matrix-calculator/: Errors 403 entitlement_required (Matrix not on this
 * account) and 403 feature_disabled (surface switched off), client-worded (Authentication 11); Authentication 5 (a read
 * API token may run it); a financier caller sees only its own organisation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../testkit/app.ts';
import { clock, t, pro, free, DEAL, SALES_TALK, useMatrixCalculatorApp, run } from './fixtures.ts';

useMatrixCalculatorApp();

describe('Errors: POST /matrix-calculator/ 403 entitlement_required (Matrix not on this account)', () => {
  it('web: {error, detail, message, entitlement}; the web message may name the upgrade', async () => {
    const res = await run(free, DEAL);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'entitlement_required',
      detail: expect.any(String),
      message: expect.any(String),
      entitlement: 'matrix.enabled',
    });
    expect(res.body.detail.length).toBeGreaterThan(0);
  });

  it('android: detail equals message; no plan, price or link; an unknown client (blackberry) reads like android', async () => {
    const web = await run(free, DEAL);
    const android = await run(free, DEAL, { 'X-Service-Client': 'android' });
    const odd = await run(free, DEAL, { 'X-Service-Client': 'blackberry' });
    const ios = await run(free, DEAL, { 'X-Service-Client': 'ios' });
    expect(android.status).toBe(403);
    expect(android.body).toEqual({
      error: 'entitlement_required',
      detail: expect.any(String),
      message: expect.any(String),
      entitlement: 'matrix.enabled',
    });
    expect(android.body.message).toBe(android.body.detail);
    expect(android.body.message).not.toMatch(SALES_TALK);
    expect(odd.body).toEqual(android.body);
    expect(ios.body).toEqual(android.body);
    expect(web.body.message).not.toBe(android.body.message);
  });
});

describe('Errors: POST /matrix-calculator/ 403 feature_disabled (surfaces.matrix_calculator switched off)', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ clock, shareDatabaseWith: t, config: { disabledSurfaces: ['matrix_calculator'] } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('{error: feature_disabled, detail} with no message or entitlement, client-worded', async () => {
    const web = await off.rest('POST', '/api/v1/matrix-calculator/', { token: pro, body: DEAL });
    expect(web.status).toBe(403);
    expect(web.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
    const android = await off.rest('POST', '/api/v1/matrix-calculator/', {
      token: pro,
      body: DEAL,
      headers: { 'X-Service-Client': 'android' },
    });
    const odd = await off.rest('POST', '/api/v1/matrix-calculator/', {
      token: pro,
      body: DEAL,
      headers: { 'X-Service-Client': 'blackberry' },
    });
    expect(android.body).toEqual({ error: 'feature_disabled', detail: expect.any(String) });
    expect(android.body.detail).not.toMatch(SALES_TALK);
    expect(odd.body).toEqual(android.body);
  });

  it('the standalone Matrix is unaffected', async () => {
    expect((await off.rest('POST', '/api/v1/matrix/', { token: pro, body: DEAL })).status).toBe(200);
  });
});

describe('Authentication 5: a read API token may run the Matrix Calculator', () => {
  it('answers 200 with the same body as a session of the same user; 401 without credentials', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', { token: pro, body: { name: 'mc read', scope: 'read' } });
    expect(minted.status).toBe(201);
    const viaToken = await run(minted.body.token, DEAL);
    expect(viaToken.status).toBe(200);
    expect(viaToken.body).toEqual((await run(pro, DEAL)).body);
    expect((await run(null, DEAL)).status).toBe(401);
    expect((await run(null, {})).status).toBe(401);
  });
});

describe('Both Matrix surfaces: a financier caller sees only its own organisation', () => {
  it("financier.admin@demo.test (org 1): every row, priced card and count is org 1's, whatever preferred_financier says", async () => {
    const lender = (await t.login('financier.admin@demo.test')).access;
    const own = await run(lender, DEAL);
    expect(own.status).toBe(200);
    expect(own.body.results.length).toBeGreaterThan(0);
    expect(new Set(own.body.results.map((r: any) => r.organisation_id))).toEqual(new Set([1]));
    const broker = await run(pro, { ...DEAL, preferred_financier: [1] });
    expect(own.body).toEqual(broker.body);
    const others = await run(lender, { ...DEAL, preferred_financier: [2, 3] });
    expect(others.body).toEqual({ results: [], priced_count: 0, destination_count: 0, degraded: null });
  });
});
