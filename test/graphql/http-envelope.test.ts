/**
 * What /graphql answers to a request it cannot read: a 4xx whose body is JSON (`{errors: [{message, extensions:
 * {code}}]}`), never a 500, an empty body or an exception's own text. Media types are matched case-insensitively.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function send(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; type: string | null; text: string; body: any }> {
  const res = await fetch(`${t.baseUrl}${path}`, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the assertions say so */
  }
  return { status: res.status, type: res.headers.get('content-type'), text, body };
}

const DOC = JSON.stringify({ query: '{ __typename }' });
const postWith = (contentType: string | null, body = DOC, accept?: string) =>
  send('/graphql', {
    method: 'POST',
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...(accept ? { accept } : {}) },
    body,
  });

describe('GET /graphql: a query parameter that is not JSON is a 400 naming it', () => {
  it.each([
    ['variables', 'notjson'],
    ['variables', '[1'],
    ['variables', '{"a":'],
    ['extensions', 'x'],
  ])('%s=%s', async (name, value) => {
    const reply = await send(
      `/graphql?query=${encodeURIComponent('{ __typename }')}&${name}=${encodeURIComponent(value)}`,
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      { message: `The ${name} query parameter is not valid JSON.`, extensions: { code: 'BAD_REQUEST' } },
    ]);
  });

  it('JSON variables are read', async () => {
    const reply = await send(
      `/graphql?query=${encodeURIComponent('query($q: String!) { assetSearch(q: $q) { __typename } }')}&variables=${encodeURIComponent('{"q":"ute"}')}`,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data.assetSearch.__typename).toBe('UnauthenticatedError');
  });
});

describe('POST /graphql: JSON bodies, the media type matched case-insensitively; anything else a JSON 415', () => {
  it.each(['application/json', 'APPLICATION/JSON', 'Application/Json; Charset=UTF-8', 'application/graphql+json'])(
    '%s is read',
    async (type) => {
      const reply = await postWith(type);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ data: { __typename: 'Query' } });
    },
  );

  it.each([
    'text/plain',
    'application/xml',
    'application/graphql',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/jsonx',
  ])('%s: 415 naming the accepted types', async (type) => {
    const reply = await postWith(type);
    expect(reply.status).toBe(415);
    expect(reply.type).toMatch(/^application\/json/);
    expect(reply.body.errors).toEqual([
      { message: expect.stringContaining('application/json'), extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
    ]);
  });

  it('no content type at all: 415 as JSON', async () => {
    const reply = await send('/graphql', { method: 'POST', body: new Uint8Array(Buffer.from(DOC)) });
    expect(reply.status).toBe(415);
    expect(reply.body.errors[0].extensions.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe("Malformed JSON: a 400 in our words, without the parser's own message", () => {
  it.each(['{"query":', '', 'nul', '{"query": "{ __typename }"} trailing'])('%j', async (raw) => {
    const reply = await postWith('application/json', raw);
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      { message: 'The request body is not valid JSON.', extensions: { code: 'BAD_REQUEST' } },
    ]);
    expect(reply.text).not.toMatch(/originalError|SyntaxError|position/);
  });

  it.each(['[{"query":"{ __typename }"}]', '"query"', '1', 'null'])(
    'a JSON body that is not an object (%s): 400',
    async (raw) => {
      const reply = await postWith('application/json', raw);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    },
  );
});

describe('The answer is JSON whatever the Accept header asks for', () => {
  it.each(['text/html', 'text/event-stream', 'multipart/mixed', 'image/png'])('Accept: %s', async (accept) => {
    const reply = await postWith('application/json', JSON.stringify({ query: '{ me { __typename } }' }), accept);
    expect(reply.status).toBe(200);
    expect(reply.type).toMatch(/^application\/json/);
    expect(reply.body).toEqual({ data: { me: { __typename: 'UnauthenticatedError' } } });
  });
});

describe("Paths below /graphql are unknown paths: the service's JSON 404", () => {
  it.each([
    ['GET', '/graphql/x'],
    ['POST', '/graphql/x'],
    ['GET', '/graphql/graphql'],
    ['OPTIONS', '/graphql/%00'],
  ])('%s %s', async (method, path) => {
    const reply = await send(path, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: DOC } : {}),
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ error: 'Not found.' });
  });

  it('the endpoint itself, with a trailing slash, is still the endpoint', async () => {
    const reply = await send(`/graphql/?query=${encodeURIComponent('{ __typename }')}`);
    expect(reply.body).toEqual({ data: { __typename: 'Query' } });
  });
});
