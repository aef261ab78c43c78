/**
 * How a request finds its REST route (src/rest/router.ts): Express's router, one route per table entry in table order,
 * and what the service adds around it (the JSON 404, a broken escape answered after credentials).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let broker: string;

beforeAll(async () => {
  t = await startTestApp();
  broker = (await t.login('broker.admin@demo.test')).access;
});

afterAll(async () => {
  await t?.close();
});

const call = (method: string, path: string, token: string | null = broker) =>
  t.rest(method, path, { token, conformance: false });

describe('A path matches as Express matched it', () => {
  it.each([
    ['GET', '/api/v1/approvals/options'],
    ['GET', '/api/v1/APPROVALS/Options'],
    ['GET', '/api/v1/approvals/options/'],
    ['GET', '/api/v1/calculator/financiers'],
    ['GET', '/api/v1/feature-flags?x=1'],
  ])('%s %s: the route answers (case-insensitive, one optional trailing slash, any query string)', async (m, p) => {
    expect((await call(m, p)).status).toBe(200);
  });

  it.each([
    ['GET', '/api/v1//approvals/options'],
    ['GET', '/api/v1/approvals/options//'],
    ['GET', '/api/v1/approvals/options/extra'],
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v1/'],
    ['DELETE', '/api/v1/calculator'],
    ['OPTIONS', '/api/v1/calculator'],
  ])('%s %s: no route, the JSON 404', async (m, p) => {
    const r = await call(m, p);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Not found.' });
  });
});

describe('The first route of the table wins', () => {
  it('a fixed segment listed before a parameter takes the request (/approvals/options is not approval "options")', async () => {
    const options = await call('GET', '/api/v1/approvals/options');
    expect(options.status).toBe(200);
    expect(options.body).not.toHaveProperty('error');
  });
});

describe('HEAD runs the GET route, without a body', () => {
  it('same status and headers as GET, no body', async () => {
    const get = await fetch(`${t.baseUrl}/api/v1/feature-flags`, { headers: { authorization: `Bearer ${broker}` } });
    const head = await fetch(`${t.baseUrl}/api/v1/feature-flags`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${broker}` },
    });
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(await get.text())));
    expect(await head.text()).toBe('');
  });
});

describe('A reply is its JSON as UTF-8, Content-Length counting bytes', () => {
  it('text beyond ASCII comes back as sent, and the length is its byte count', async () => {
    const name = 'Zoë’s token: 東京 😀';
    const r = await fetch(`${t.baseUrl}/api/v1/api-tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${broker}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, scope: 'read' }),
    });
    const bytes = Buffer.from(await r.arrayBuffer());
    expect(r.status).toBe(201);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('content-length')).toBe(String(bytes.length));
    expect(JSON.parse(bytes.toString('utf8')).name).toBe(name);
  });
});

describe('Path parameters are decoded; a broken escape is a 400 after credentials', () => {
  it('an escaped parameter reaches the route decoded', async () => {
    const plain = await call('GET', '/api/v1/organisations/1');
    const escaped = await call('GET', '/api/v1/organisations/%31');
    expect(escaped.status).toBe(plain.status);
    expect(escaped.body).toEqual(plain.body);
  });

  it('PUT /users/%C0%80: 401 without credentials, 400 naming the path with them', async () => {
    expect((await call('PUT', '/api/v1/users/%C0%80', null)).status).toBe(401);
    const r = await call('PUT', '/api/v1/users/%C0%80');
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ path: ['Not valid percent-encoded UTF-8.'] });
  });

  it('GET /users/%C0%80: that method has no route there, so the JSON 404', async () => {
    expect((await call('GET', '/api/v1/users/%C0%80')).status).toBe(404);
  });
});

describe('Logs and metrics name the route template, never the raw path', () => {
  it('a parameterised route is counted under its template', async () => {
    await call('GET', '/api/v1/organisations/1');
    const metrics = await fetch(`${t.baseUrl}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/route="\/api\/v1\/organisations\/:id"/);
    expect(metrics).not.toMatch(/route="\/api\/v1\/organisations\/1"/);
  });
});
