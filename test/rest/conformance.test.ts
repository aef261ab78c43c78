/**
 * The conformance check testkit/app.ts runs on every REST answer can fail (that every route of the table has its
 * operation is test/rest/openapi-routes.test.ts). Real answers from the real app are checked as they are (they
 * pass), then altered the ways drift looks (they must not).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/rest/openapi/document.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { ConformanceChecker, type ObservedResponse, useConformanceChecker } from '../../testkit/conformance.ts';

let t: TestApp;
let broker: string;
let free: string;
const checker = new ConformanceChecker();

beforeAll(async () => {
  t = await startTestApp();
  broker = (await t.login('broker.admin@demo.test')).access;
  free = (await t.login('free.broker@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

/** One real answer, as the checker sees it. */
async function observe(method: string, url: string, token: string, body?: unknown): Promise<ObservedResponse> {
  const res = await fetch(`${t.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    method,
    url,
    status: res.status,
    contentType: res.headers.get('content-type'),
    headers: res.headers,
    text,
    body: JSON.parse(text),
  };
}

/** The same answer with another body (or status), as drift would send it. */
function altered(response: ObservedResponse, change: (body: any) => void, status = response.status): ObservedResponse {
  const body = structuredClone(response.body);
  change(body);
  return { ...response, status, body, text: JSON.stringify(body) };
}

describe('A correct answer passes', () => {
  it('a list of resources with its required header', async () => {
    const res = await observe('GET', '/api/v1/approvals', broker);
    expect(res.status).toBe(200);
    expect((res.body as unknown[]).length).toBeGreaterThan(0);
    expect(() => checker.check(res)).not.toThrow();
  });

  it('a typed refusal: 403 entitlement_required', async () => {
    const res = await observe('POST', '/api/v1/matrix/', free, { cost: '10000', asset_value: 11 });
    expect(res.status).toBe(403);
    expect((res.body as { error: string }).error).toBe('entitlement_required');
    expect(() => checker.check(res)).not.toThrow();
  });

  it('an unknown route is not checked: no operation claims it', async () => {
    const res = await observe('GET', '/api/v1/nope', broker);
    expect(res.status).toBe(404);
    expect(() => checker.check(res)).not.toThrow();
  });

  it('paths outside /api/v1 are not checked', () => {
    expect(() =>
      checker.check({
        method: 'GET',
        url: '/healthz',
        status: 200,
        contentType: 'text/plain',
        headers: new Headers(),
        text: 'x',
        body: 'x',
      }),
    ).not.toThrow();
  });
});

describe('Drift fails the check', () => {
  let approvals: ObservedResponse;
  let refusal: ObservedResponse;
  beforeAll(async () => {
    approvals = await observe('GET', '/api/v1/approvals', broker);
    refusal = await observe('POST', '/api/v1/matrix/', free, { cost: '10000', asset_value: 11 });
  });

  it('a status the operation does not document', () => {
    expect(() => checker.check(altered(approvals, () => {}, 409))).toThrow(
      /GET \/api\/v1\/approvals answered 409: status 409 is not documented/,
    );
  });

  it('an extra field on a resource', () => {
    expect(() => checker.check(altered(approvals, (b) => (b[0].created_at = '2026-01-01T00:00:00Z')))).toThrow(
      /must NOT have additional properties[\s\S]*created_at/,
    );
  });

  it('a missing required field', () => {
    expect(() => checker.check(altered(approvals, (b) => delete b[0].doc_level))).toThrow(
      /must have required property 'doc_level'/,
    );
  });

  it('a value outside the enum', () => {
    expect(() => checker.check(altered(approvals, (b) => (b[0].doc_level = 'no_doc')))).toThrow(
      /\/0\/doc_level must be equal to one of the allowed values/,
    );
  });

  it('null where the field is not nullable', () => {
    expect(() => checker.check(altered(approvals, (b) => (b[0].name = null)))).toThrow(/\/0\/name must be string/);
  });

  it('a typed error body missing its fields', () => {
    expect(() => checker.check(altered(refusal, (b) => delete b.entitlement))).toThrow(/answered 403/);
  });

  it('a required header missing', () => {
    const headers = new Headers(approvals.headers);
    headers.delete('x-total-count');
    expect(() => checker.check({ ...approvals, headers })).toThrow(/required header X-Total-Count is missing/);
  });

  it('a body where the documented response has none', () => {
    const document = structuredClone(openApiDocument) as any;
    delete document.paths['/api/v1/approvals'].get.responses['200'].content;
    delete document.paths['/api/v1/approvals'].get.responses['200'].headers;
    expect(() => new ConformanceChecker(document).check(approvals)).toThrow(/has no body, but one was sent/);
  });

  it('an operation the document does not have (unless TEST_CONFORMANCE_ONLY_DOCUMENTED skips it)', () => {
    const document = structuredClone(openApiDocument) as any;
    delete document.paths['/api/v1/approvals'].get;
    expect(() => new ConformanceChecker(document).check(approvals)).toThrow(
      /GET \/api\/v1\/approvals answered 200: the operation is not documented/,
    );
    expect(() => new ConformanceChecker(document, { onlyDocumented: true }).check(approvals)).not.toThrow();
  });

  it('every REST call of the test kit is checked, unless it opts out', async () => {
    const document = structuredClone(openApiDocument) as any;
    delete document.paths['/api/v1/approvals'].get;
    useConformanceChecker(new ConformanceChecker(document));
    try {
      await expect(t.rest('GET', '/api/v1/approvals', { token: broker })).rejects.toThrow(/not documented/);
      expect((await t.rest('GET', '/api/v1/approvals', { token: broker, conformance: false })).status).toBe(200);
    } finally {
      useConformanceChecker(undefined);
    }
    expect((await t.rest('GET', '/api/v1/approvals', { token: broker })).status).toBe(200);
  });
});
