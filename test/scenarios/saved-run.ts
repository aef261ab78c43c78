import { expect } from 'vitest';
import type { TestApp } from '../../testkit/app.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';

/** Runs the tool over REST as `token`'s user (metered, a recent) and promotes the run; answers the saved scenario's id. */
export async function savedRun(
  t: TestApp,
  token: string,
  path: '/calculator' | '/matrix-calculator/',
  deal: object = DEMO_DEAL,
): Promise<number> {
  const res = await t.rest('POST', `/api/v1${path}`, { token, body: deal });
  expect(res.status).toBe(200);
  const id = Number(res.headers.get('x-scenario-id'));
  const promoted = await t.rest('POST', `/api/v1/calculator/scenarios/${id}/promote`, {
    token,
    body: { name: `Saved ${id}` },
  });
  expect(promoted.status).toBe(200);
  return id;
}
