/**
 * Parsing and body limits: whatever its shape, a request's document and body are bounded before any heavy work,
 * and a bound that is hit answers 4xx with a JSON body, never a 500 or a stack overflow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { MAX_DEPTH, MAX_NESTING, MAX_TOKENS } from '../../src/graphql-server/limits.ts';
import { DEAL, messages, post } from './http.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('broker.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const nestedList = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);

describe('Deep nesting: refused with 400 before execution', () => {
  it('a 2,000-deep list literal in the document', async () => {
    const reply = await post(t, `query { calculate(input: { cost: ${nestedList(2000)} }) { __typename } }`, {}, token);
    expect(reply.status).toBe(400);
    expect(messages(reply).join(' ')).toMatch(new RegExp(`nests more than ${MAX_NESTING} levels`));
  });

  it('a 2,000-deep list in the variables', async () => {
    const reply = await post(
      t,
      'query Q($input: DealInput!) { calculate(input: $input) { __typename } }',
      { input: { ...DEAL, cost: JSON.parse(nestedList(2000)) } },
      token,
    );
    expect(reply.status).toBe(400);
    expect(messages(reply).join(' ')).toMatch(/\$input/);
  });

  it('a 100,000-deep list in the variables body is still only a 400', async () => {
    const body = `{"query":"query Q($n: Int) { me { __typename } }","variables":{"n":${nestedList(100_000)}}}`;
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        authorization: `Bearer ${token}`,
      },
      body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toMatch(/\$n/);
  });

  it('a 5,000-deep selection', async () => {
    const reply = await post(
      t,
      `query { ${'me { ... on User { organisation { '.repeat(2500)} id ${'} } }'.repeat(2500)} }`,
      {},
      token,
    );
    expect(reply.status).toBe(400);
    expect(messages(reply).join(' ')).toMatch(
      new RegExp(`more than ${MAX_TOKENS} tokens|nests more than ${MAX_NESTING}`),
    );
  });

  it(`a document of more than ${MAX_TOKENS} tokens, however shallow`, async () => {
    const reply = await post(
      t,
      `query { ${Array.from({ length: MAX_TOKENS }, (_, k) => `a${k}: __typename`).join(' ')} }`,
      {},
      token,
    );
    expect(reply.status).toBe(400);
    expect(messages(reply).join(' ')).toMatch(new RegExp(`more than ${MAX_TOKENS} tokens`));
  });

  it(`a selection within the token limit but deeper than ${MAX_DEPTH} levels`, async () => {
    // The service's own types do not nest that deep; the meta-schema (introspection, outside prod) does.
    const reply = await post(
      t,
      `query { __schema { types { fields { type ${'{ ofType '.repeat(MAX_DEPTH)} { name } ${'} '.repeat(MAX_DEPTH)} } } } }`,
      {},
      token,
    );
    expect(reply.status).toBe(400);
    expect(messages(reply).join(' ')).toMatch(new RegExp(`exceeds the limit of ${MAX_DEPTH}`));
  });
});

describe('Body size: one limit for both surfaces, 413 with a JSON body', () => {
  const big = 'x'.repeat(23 * 1024 * 1024);

  it('a 23 MB body on /graphql, anonymous', async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename } # ${big}` }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].message).toMatch(/Request body is too large\. The limit is 262144 bytes\./);
  });

  it('a 23 MB body on /api/v1', async () => {
    const res = await t.rest('POST', '/api/v1/auth/login', { raw: JSON.stringify({ email: big, password: 'x' }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body is too large.' });
  });

  it('a chunked body (no Content-Length) over the limit on /graphql', async () => {
    const chunks = (async function* () {
      for (let i = 0; i < 40; i++) yield new TextEncoder().encode('x'.repeat(16 * 1024));
    })();
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ReadableStreamFrom(chunks),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('a body just under the limit is read (and answered by GraphQL)', async () => {
    const reply = await post(t, `{ __typename } # ${'x'.repeat(200 * 1024)}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ __typename: 'Query' });
  });
});

function ReadableStreamFrom(source: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await source.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
}
