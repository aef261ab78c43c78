/**
 * POST /calculator/abn-lookup (spec: "Referenced but unspecified"; Authentication 5: one of the five computation
 * endpoints a read API token may call) and GraphQL `abnLookup`, against a stand-in for the Australian Business
 * Register's ABN Lookup JSON service. Reliability: outbound dependencies time out and fail as 502, never 500.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

type Mode =
  | 'active'
  | 'no_gst'
  | 'cancelled'
  | 'not_found'
  | 'bad_guid'
  | 'malformed'
  | 'bad_types'
  | 'status_500'
  | 'hang';

const GUID = 'test-guid-0000';
const TIMEOUT_MS = 300;
const ATO = {
  Abn: '51824753556',
  AbnStatus: 'Active',
  AbnStatusEffectiveFrom: '2000-02-22',
  Acn: '',
  AddressDate: '2018-11-05',
  AddressPostcode: '2600',
  AddressState: 'ACT',
  BusinessName: ['TAX HQ', 'ATO'],
  EntityName: 'AUSTRALIAN TAXATION OFFICE',
  EntityTypeCode: 'CGE',
  EntityTypeName: 'Commonwealth Government Entity',
  Gst: '2000-07-01',
  Message: '',
};
const EMPTY = {
  Abn: '',
  AbnStatus: '',
  AbnStatusEffectiveFrom: '',
  Acn: '',
  AddressDate: null,
  AddressPostcode: '',
  AddressState: '',
  BusinessName: [],
  EntityName: '',
  EntityTypeCode: '',
  EntityTypeName: null,
  Gst: null,
  Message: '',
};

/** The register stand-in: answers as the current `mode` says and records every request it receives. */
let mode: Mode = 'active';
const received: URL[] = [];
let register: Server;
let registerUrl: string;

function answer(req: IncomingMessage, res: import('node:http').ServerResponse): unknown {
  const url = new URL(req.url ?? '/', 'http://stand-in');
  received.push(url);
  const callback = url.searchParams.get('callback') ?? 'c';
  const jsonp = (body: unknown) => {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(`${callback}(${JSON.stringify(body)})`);
  };
  if (url.pathname !== '/json/AbnDetails.aspx' || url.searchParams.get('guid') !== GUID) {
    return jsonp({ ...EMPTY, Message: 'The GUID entered is not recognised as a Registered Party' });
  }
  const abn = url.searchParams.get('abn');
  switch (mode) {
    case 'active':
      return jsonp({ ...ATO, Abn: abn });
    case 'no_gst':
      return jsonp({ ...ATO, Abn: abn, Gst: null, BusinessName: [] });
    case 'cancelled':
      return jsonp({ ...ATO, Abn: abn, AbnStatus: 'Cancelled', AbnStatusEffectiveFrom: '2015-07-01', Gst: null });
    case 'not_found':
      return jsonp({ ...EMPTY, Message: 'No record found' });
    case 'bad_guid':
      return jsonp({ ...EMPTY, Message: 'The GUID entered is not recognised as a Registered Party' });
    case 'malformed':
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body>Service Unavailable</body></html>');
    case 'bad_types':
      return jsonp({ ...ATO, Abn: abn, AbnStatusEffectiveFrom: 20000222, BusinessName: 'TAX HQ' });
    case 'status_500':
      res.writeHead(500, { 'content-type': 'text/plain' });
      return void res.end('Internal Server Error at System.Web');
    case 'hang':
      return; // never answers
  }
}

// 2026-11-21T13:30Z is 00:30 on 22 November in Sydney (AEDT, UTC+11): ages count in the service's zone.
const clock = new ManualClock(new Date('2026-11-21T01:00:00Z'));
let t: TestApp;
let session: string;

beforeAll(async () => {
  register = createServer(answer);
  await new Promise<void>((resolve) => register.listen(0, '127.0.0.1', () => resolve()));
  registerUrl = `http://127.0.0.1:${(register.address() as AddressInfo).port}`;
  t = await startTestApp({
    clock,
    config: {
      abnLookupUrl: registerUrl,
      abnLookupGuid: GUID,
      abnLookupTimeoutMs: TIMEOUT_MS,
      serviceTimeZone: 'Australia/Sydney',
    },
  });
  session = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
  register?.closeAllConnections();
  await new Promise<void>((resolve) => (register ? register.close(() => resolve()) : resolve()));
});
beforeEach(() => {
  mode = 'active';
  received.length = 0;
  clock.set(new Date('2026-11-21T01:00:00Z'));
});

const lookup = (abn: unknown, token: string | null = session) =>
  t.rest('POST', '/api/v1/calculator/abn-lookup', { token, body: { abn } });

describe('POST /calculator/abn-lookup: the business and its ages', () => {
  it("an active ABN registered for GST: 200 with the register's details and ages in whole months", async () => {
    const res = await lookup('51 824 753 556');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      abn: '51824753556',
      entity_name: 'AUSTRALIAN TAXATION OFFICE',
      entity_type: 'Commonwealth Government Entity',
      abn_status: 'Active',
      abn_status_effective_from: '2000-02-22',
      business_names: ['TAX HQ', 'ATO'],
      state: 'ACT',
      postcode: '2600',
      abn_registered_from: '2000-02-22',
      gst_registered_from: '2000-07-01',
      abn_age: 320, // 2000-02-22 to 2026-11-21: the 321st month completes on the 22nd
      gst_age: 316,
    });
    expect(received).toHaveLength(1);
    expect(received[0].pathname).toBe('/json/AbnDetails.aspx');
    expect(Object.fromEntries(received[0].searchParams)).toEqual({ abn: '51824753556', callback: 'c', guid: GUID });
  });

  it('counts months to today in the service time zone', async () => {
    clock.set(new Date('2026-11-21T13:30:00Z')); // still the 21st in UTC, already the 22nd in Sydney
    const later = (await t.login('broker.admin@demo.test')).access; // the morning's access token has expired
    const res = await lookup('51824753556', later);
    expect(res.status).toBe(200);
    expect(res.body.abn_age).toBe(321);
  });

  it('not registered for GST: gst_registered_from and gst_age are null', async () => {
    mode = 'no_gst';
    const res = await lookup('51824753556');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ gst_registered_from: null, gst_age: null, abn_age: 320, business_names: [] });
  });

  it('a cancelled ABN: its status date is the cancellation, so no registration date and no age', async () => {
    mode = 'cancelled';
    const res = await lookup('51824753556');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      abn_status: 'Cancelled',
      abn_status_effective_from: '2015-07-01',
      abn_registered_from: null,
      abn_age: null,
      gst_age: null,
    });
  });

  it('a read API token may look an ABN up (a computation endpoint)', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: 'abn', scope: 'read' } });
    expect(minted.status).toBe(201);
    const res = await lookup('51824753556', minted.body.token);
    expect(res.status).toBe(200);
    expect(res.body.abn).toBe('51824753556');
  });
});

describe('POST /calculator/abn-lookup: errors', () => {
  it('400 naming abn for a bad checksum, the wrong length, non-digits or no abn; the register is not asked', async () => {
    for (const abn of ['51 824 753 557', '5182475355', '518247535561', 'ABCDEFGHIJK', '   ', undefined, 51824753556]) {
      const res = await lookup(abn);
      expect(res.status, String(abn)).toBe(400);
      expect(Object.keys(res.body.errors), String(abn)).toEqual(['abn']);
    }
    expect(received).toHaveLength(0);
  });

  it('401 without a token, and the register is not asked', async () => {
    expect((await lookup('51824753556', null)).status).toBe(401);
    expect((await lookup(undefined, null)).status).toBe(401);
    expect(received).toHaveLength(0);
  });

  it('404 when the register has no record', async () => {
    mode = 'not_found';
    const res = await lookup('51824753556');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ABN not found.' }); // the one 404 wording (docs/api-decisions.md)
  });

  it.each<[Mode, string]>([
    ['malformed', 'an HTML page instead of JSONP'],
    ['bad_types', 'fields of the wrong type'],
    ['status_500', 'a 500'],
    ['bad_guid', 'its own error (GUID not recognised)'],
  ])('502 when the register answers %s (%s), never a 500 or a stack', async (m) => {
    mode = m;
    const res = await lookup('51824753556');
    expect(res.status).toBe(502);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(JSON.stringify(res.body)).not.toMatch(/System\.Web|stack|at \w+ \(|guid|test-guid/i);
    expect(received).toHaveLength(1);
  });

  it('502 within the configured timeout when the register never answers', async () => {
    mode = 'hang';
    const started = performance.now();
    const res = await lookup('51824753556');
    const elapsed = performance.now() - started;
    expect(res.status).toBe(502);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('502 when the register cannot be reached at all', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const previous = t.config.abnLookupUrl;
    t.config.abnLookupUrl = `http://127.0.0.1:${port}`; // the app reads its config per request
    try {
      expect((await lookup('51824753556')).status).toBe(502);
    } finally {
      t.config.abnLookupUrl = previous;
    }
  });
});

describe('POST /calculator/abn-lookup: not configured', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp({ config: { abnLookupUrl: null, abnLookupGuid: null } });
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('503 with a clear message when ABN_LOOKUP_URL or ABN_LOOKUP_GUID is not set', async () => {
    const token = (await bare.login('broker.admin@demo.test')).access;
    const res = await bare.rest('POST', '/api/v1/calculator/abn-lookup', { token, body: { abn: '51824753556' } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/not .*configured/i);
    // A bad ABN is still the client's error first.
    expect(
      (await bare.rest('POST', '/api/v1/calculator/abn-lookup', { token, body: { abn: '51824753557' } })).status,
    ).toBe(400);
    bare.config.abnLookupUrl = registerUrl; // a URL without a GUID is still not configured
    expect(
      (await bare.rest('POST', '/api/v1/calculator/abn-lookup', { token, body: { abn: '51824753556' } })).status,
    ).toBe(503);
    expect(received).toHaveLength(0);
  });
});

describe('GraphQL abnLookup', () => {
  it('answers AbnDetails, or a typed error', async () => {
    const client = t.graphql(session);
    const query = `query ($abn: String!) { abnLookup(abn: $abn) { __typename
      ... on AbnDetails { abn entity_name abn_age gst_age }
      ... on ValidationError { errors { field } }
      ... on Error { message } } }`;
    const ok = await client.request<any>(query, { abn: '51824753556' });
    expect(ok.abnLookup).toEqual({
      __typename: 'AbnDetails',
      abn: '51824753556',
      entity_name: 'AUSTRALIAN TAXATION OFFICE',
      abn_age: 320,
      gst_age: 316,
    });
    const bad = await client.request<any>(query, { abn: '123' });
    expect(bad.abnLookup).toMatchObject({ __typename: 'ValidationError', errors: [{ field: 'abn' }] });
    mode = 'not_found';
    expect((await client.request<any>(query, { abn: '51824753556' })).abnLookup.__typename).toBe('NotFoundError');
    mode = 'status_500';
    expect((await client.request<any>(query, { abn: '51824753556' })).abnLookup.__typename).toBe(
      'UpstreamUnavailableError',
    );
  });
});
