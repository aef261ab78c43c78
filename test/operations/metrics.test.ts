/**
 * GET /metrics: Prometheus figures for requests (by route template and status, with latency), engine time,
 * allowance refusals, sign-in throttling and the database pool. Guarded by METRICS_TOKEN; off in prod without one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let open: TestApp;
let guarded: TestApp;
let prod: TestApp;
beforeAll(async () => {
  open = await startTestApp();
  guarded = await startTestApp({ shareDatabaseWith: open, config: { metricsToken: 'scrape-secret' } });
  prod = await startTestApp({ shareDatabaseWith: open, config: { environment: 'prod' } });
});
afterAll(async () => {
  await prod?.close();
  await guarded?.close();
  await open?.close();
});

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(`${t.baseUrl}/metrics`, { headers });
  return { status: res.status, text: await res.text() };
}

/** The value of one series (exact label set as Prometheus prints it), or 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('Requests are counted by method, route template and status, with a latency histogram', () => {
  it('counts a templated route once per request, never by its raw path', async () => {
    const before = value(
      (await scrape(open)).text,
      'http_requests_total{method="PUT",route="/api/v1/users/:id",status="401"}',
    );
    await fetch(`${open.baseUrl}/api/v1/users/123`, { method: 'PUT' });
    await fetch(`${open.baseUrl}/api/v1/users/456`, { method: 'PUT' });
    const { status, text } = await scrape(open);
    expect(status).toBe(200);
    expect(value(text, 'http_requests_total{method="PUT",route="/api/v1/users/:id",status="401"}')).toBe(before + 2);
    expect(text).not.toContain('/api/v1/users/123');
    expect(text).toContain('http_request_duration_seconds_bucket{');
  });

  it('an unknown path is one series, "unmatched", whatever the path', async () => {
    await fetch(`${open.baseUrl}/no/such/${Math.random()}`);
    const { text } = await scrape(open);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(text).not.toContain('/no/such/');
  });
});

describe('Engine time, allowance refusals, sign-in throttling and the database pool are exported', () => {
  it('names each family', async () => {
    const t = await open.login('broker.admin@demo.test');
    await fetch(`${open.baseUrl}/api/v1/matrix-calculator/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.access}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cost: '55000',
        cost_gst: true,
        asset_value: 11,
        term: 60,
        advance_arrears: 'arrears',
        repayment_frequency: 'monthly',
        abn_age: 36,
        gst_age: 30,
        credit_score: 720,
      }),
    });
    const { text } = await scrape(open);
    expect(value(text, 'engine_duration_seconds_count{engine="pricing"}')).toBeGreaterThan(0);
    expect(value(text, 'engine_duration_seconds_count{engine="approvals"}')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE allowance_refusals_total counter');
    expect(text).toContain('# TYPE sign_in_throttled_total counter');
    expect(value(text, 'database_pool_connections{state="total"}')).toBeGreaterThan(0);
  });
});

describe('METRICS_TOKEN guards /metrics; prod serves none without it', () => {
  it('401 without the bearer token, 200 with it', async () => {
    expect((await scrape(guarded)).status).toBe(401);
    expect((await scrape(guarded, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await scrape(guarded, { authorization: 'Bearer scrape-secret' })).status).toBe(200);
  });

  it('404 in prod when no token is configured', async () => {
    expect((await scrape(prod)).status).toBe(404);
  });
});
