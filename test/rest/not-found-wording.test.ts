/**
 * One wording rule for every 404 the route table can produce (docs/api-decisions.md "404 wording"): the body is
 * `{error: "<Thing> not found."}`. Every route with a path parameter (read from src/rest/routes/index.ts, so a new one
 * must be added here) is called with an id nobody has, as a caller who may otherwise use it, and its body is held to
 * the rule. The spec's own exception: promote answers `{error: "not_found"}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../src/rest/define-route.ts';
import { routes } from '../../src/rest/routes/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

const MISSING_ID = 987_654;
const RULE = /^[A-Z][A-Za-z -]* not found\.$/;

let t: TestApp;
const callers: Record<'broker' | 'financier', string> = { broker: '', financier: '' };

beforeAll(async () => {
  t = await startTestApp();
  callers.broker = (await t.login('broker.admin@demo.test')).access;
  callers.financier = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

/** Who may use each route (a broker admin, or the demo financier's admin, who may edit equipment and rate cards). */
const PROBES: Record<string, { caller: keyof typeof callers; body?: unknown; expected?: unknown }> = {
  'DELETE /api-tokens/:id': { caller: 'broker' },
  'DELETE /mcp-connections/:id': { caller: 'broker' },
  'GET /organisations/:id': { caller: 'broker' },
  'PUT /users/:id': { caller: 'broker', body: { first_name: 'Nobody' } },
  'PATCH /assets/:id': { caller: 'financier', body: { name: 'Nothing' } },
  'PUT /approvals/:id': { caller: 'financier', body: { name: 'Nothing', doc_level: 'low_doc' } },
  'PATCH /products/:id': { caller: 'financier', body: { product_name: 'Nothing' } },
  'GET /rate-card-versions/:id/diff': { caller: 'financier' },
  'POST /rate-card-versions/:id/restore': { caller: 'financier', body: {} },
  'POST /calculator/scenarios/:id/promote': {
    caller: 'broker',
    body: { name: 'Nothing' },
    expected: { error: 'not_found' },
  },
};

const key = (r: RouteDefinition) => `${r.method.toUpperCase()} ${r.path}`;
const withPathParameter = routes.filter((r) => r.path.includes('/:'));

describe('404 wording: "<Thing> not found." on every route with a path parameter', () => {
  it('every such route of the table is probed here (a new one must be added)', () => {
    expect(withPathParameter.map(key).sort()).toEqual(Object.keys(PROBES).sort());
  });

  it.each(withPathParameter.map((r) => [key(r), r] as const))('%s with a missing id', async (name, route) => {
    const probe = PROBES[name];
    const res = await t.rest(route.method.toUpperCase(), `/api/v1${route.path.replace(/:\w+/g, String(MISSING_ID))}`, {
      token: callers[probe.caller],
      body: probe.body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    if (probe.expected) expect(res.body).toEqual(probe.expected);
    else {
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(RULE);
    }
  });
});
