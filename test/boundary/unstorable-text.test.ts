/**
 * Text PostgreSQL cannot store (a NUL, an unpaired surrogate) is refused at the boundary of both surfaces with a 400
 * naming the field, wherever it sits: a body field, a nested object or list, an object key, the query string, a
 * path parameter, a GraphQL variable or a string literal. Never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/rest/routes/index.ts';
import { isStorableText, unstorableTextPaths } from '../../src/graphql/input-text.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { scopeRefusal } from '../../testkit/route-access.ts';

let t: TestApp;
let token: string;
let financierToken: string;
let userId: number;
beforeAll(async () => {
  t = await startTestApp();
  token = (await t.login('broker.admin@demo.test')).access;
  financierToken = (await t.login('financier.admin@demo.test')).access;
  userId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});

const BAD = {
  nul: 'a\u0000b',
  'lone high surrogate': 'a\ud800b',
  'lone low surrogate': '\udc00',
  'reversed pair': '\udc00\ud800',
};
const DEAL = { cost: 50000, asset_value: 11, term: 48, advance_arrears: 'arrears', repayment_frequency: 'monthly' };

async function graphqlRaw(
  query: string,
  variables?: unknown,
  accept = 'application/graphql-response+json',
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json() };
}

describe('What counts as unstorable: NUL and unpaired surrogates; paired surrogates (emoji) are fine', () => {
  it.each(Object.entries(BAD))('%s is refused', (_name, text) => {
    expect(isStorableText(text)).toBe(false);
  });
  it.each(['', 'plain', 'Ünïcödé', 'emoji \ud83d\ude00 ok', '\ufffd', 'tab\tnew\nline'])('%j is stored', (text) => {
    expect(isStorableText(text)).toBe(true);
  });
  it('names every path, keys included, at any depth', () => {
    expect(unstorableTextPaths({ a: ['ok', 'x\u0000'], 'k\u0000': 1, b: { c: { '\ud800': 'v' } } }).sort()).toEqual([
      'a.1',
      'b.c.\ufffd',
      'k\ufffd',
    ]);
  });
  it('a deeply nested body does not exhaust the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableTextPaths(deep)).toHaveLength(1);
  });
});

describe('REST: the attacked fields answer 400 naming the field', () => {
  for (const [name, text] of Object.entries(BAD)) {
    it(`login, forgot-password, resend-verification: ${name}`, async () => {
      for (const [url, body, field] of [
        ['/api/v1/auth/login', { email: text, password: 'x' }, 'email'],
        ['/api/v1/auth/login', { email: 'broker.admin@demo.test', password: text }, 'password'],
        ['/api/v1/auth/forgot-password', { email: text }, 'email'],
        ['/api/v1/auth/resend-verification', { email: text }, 'email'],
      ] as const) {
        const res = await t.rest('POST', url, { body });
        expect(res.status, url).toBe(400);
        expect(Object.keys(res.body.errors), url).toEqual([field]);
        expect(typeof res.body.error).toBe('string');
      }
    });

    it(`PUT /users/{id} names: ${name}`, async () => {
      const res = await t.rest('PUT', `/api/v1/users/${userId}`, {
        token,
        body: { first_name: text, last_name: 'ok' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ first_name: [expect.any(String)] });
    });

    it(`industry, employment_status, citizenship_status on the three computation endpoints: ${name}`, async () => {
      for (const url of ['/api/v1/calculator/', '/api/v1/matrix/', '/api/v1/matrix-calculator/']) {
        for (const field of ['industry', 'employment_status', 'citizenship_status']) {
          const res = await t.rest('POST', url, { token, body: { ...DEAL, [field]: text } });
          expect(res.status, `${url} ${field}`).toBe(400);
          expect(Object.keys(res.body.errors)).toEqual([field]);
        }
      }
    });
  }
});

describe('REST: nested values, lists, object keys, query string and path parameters', () => {
  it('a string inside a list and inside an unknown nested object', async () => {
    const res = await t.rest('POST', '/api/v1/calculator/', {
      token,
      body: { ...DEAL, preferred_financier: ['1', 'x\u0000'], extra: { deep: ['\ud800'] } },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['extra.deep.0', 'preferred_financier.1']);
  });

  it('an object key, even one the endpoint would have ignored', async () => {
    const res = await t.rest('PUT', `/api/v1/users/${userId}`, { token, body: { first_name: 'ok', 'x\u0000y': 1 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['x\ufffdy']);
  });

  it('a query-string value', async () => {
    for (const url of ['/api/v1/assets/search?q=ab%00cd', '/api/v1/calculator/financiers?surface=%00']) {
      const res = await t.rest('GET', url, { token });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.body.errors)).toHaveLength(1);
    }
  });

  it('a path parameter', async () => {
    const res = await t.rest('PUT', '/api/v1/users/1%00', { token, body: { first_name: 'ok' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['id']);
  });

  it('nothing was written', async () => {
    const user = await t.database.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    expect(isStorableText(user.first_name ?? '')).toBe(true);
  });
});

describe('REST: every route of the table refuses a NUL in any body field or query value (the next route included)', () => {
  it.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s', async (_label, route) => {
    const url = `/api/v1${route.path.replace(/:[a-z_]+/g, '1')}`;
    const fields = ['name', 'email', 'q', 'first_name', 'industry', 'abn', 'refresh', 'surface', 'scope'];
    const body = Object.fromEntries(fields.map((f) => [f, 'x\u0000']));
    // A financier's route is sent by the financier admin: the broker admin would get its 403 before the body is read.
    const caller = (await scopeRefusal(t, route, token)) ? financierToken : token;
    const res =
      route.method === 'get'
        ? await t.rest('GET', `${url}?${fields.map((f) => `${f}=x%00`).join('&')}`, { token: caller })
        : await t.rest(route.method.toUpperCase(), url, { token: caller, body });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
  });
});

describe('GraphQL: variables and string literals answer 400 with a validation error naming the place', () => {
  for (const [name, text] of Object.entries(BAD)) {
    it(`a variable, nested in an input object: ${name}`, async () => {
      const res = await graphqlRaw(
        'mutation($id: Int!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { __typename } }',
        { id: userId, input: { first_name: text } },
      );
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('input.first_name'),
          extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'input.first_name' }),
        }),
      ]);
    });
  }

  it('a variable inside a list and an object key of a variable', async () => {
    const res = await graphqlRaw('query($input: DealInput!) { calculate(input: $input) { __typename } }', {
      input: { ...DEAL, preferred_financier: [1], industry: 'ok', 'k\u0000': 1, list: ['\ud800'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.extensions.field).sort()).toEqual(['input.k\ufffd', 'input.list.0']);
  });

  it('a string literal (escaped NUL) in the document', async () => {
    for (const query of [
      'mutation { login(email: "a\\u0000b", password: "x") { __typename } }',
      'mutation { forgotPassword(email: """a\u0000b""") { __typename } }',
      `query { calculate(input: {cost: 1, asset_value: 11, term: 48, industry: "\\u0000"}) { __typename } }`,
    ]) {
      const res = await graphqlRaw(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors?.[0]?.message, query).toMatch(/NUL character or an unpaired surrogate/);
    }
  });

  it('a client accepting plain application/json gets the same 400 and errors', async () => {
    const variable = await graphqlRaw(
      'mutation($email: String!) { forgotPassword(email: $email) { __typename } }',
      { email: 'a\u0000' },
      'application/json',
    );
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions.field).toBe('email');
    const literal = await graphqlRaw(
      'mutation { forgotPassword(email: "a\\u0000") { __typename } }',
      undefined,
      'application/json',
    );
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].message).toMatch(/NUL character/);
  });

  it('the same document without the bad byte runs (the check is not a blanket refusal)', async () => {
    const res = await graphqlRaw(
      'mutation($id: Int!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { __typename } }',
      { id: userId, input: { first_name: 'Emoji \ud83d\ude00' } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.updateUser.__typename).toBe('User');
  });
});

describe('The text fields a fuzz run reached with a NUL: each refused on both surfaces, nothing written', () => {
  const REST_CASES: [string, string, Record<string, unknown>, string][] = [
    ['POST', '/api/v1/api-tokens', { name: 'a\u0000b', scope: 'read' }, 'name'],
    ['POST', '/api/v1/calculator/scenarios/1/promote', { name: 'a\u0000b' }, 'name'],
    ['PUT', '/api/v1/users/:user', { first_name: 'a\u0000b' }, 'first_name'],
    ['PUT', '/api/v1/users/:user', { last_name: 'a\u0000b' }, 'last_name'],
  ];
  it.each(REST_CASES)('REST %s %s: %j', async (method, url, body, field) => {
    const res = await t.rest(method, url.replace(':user', String(userId)), { token, body });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ [field]: [expect.stringMatching(/NUL character/)] });
  });

  const GRAPHQL_CASES: [string, string, Record<string, unknown>, string][] = [
    [
      'createApiToken(name:)',
      'mutation($v: String!) { createApiToken(name: $v, scope: read) { __typename } }',
      { v: 'a\u0000b' },
      'v',
    ],
    ['scenarios(tool:)', 'query($v: ScenarioTool) { scenarios(tool: $v) { __typename } }', { v: 'a\u0000b' }, 'v'],
    [
      'renameScenario(name:)',
      'mutation($v: String) { renameScenario(id: 1, name: $v) { __typename } }',
      { v: 'a\u0000b' },
      'v',
    ],
    [
      'promoteScenario(name:)',
      'mutation($v: String) { promoteScenario(id: 1, name: $v) { __typename } }',
      { v: 'a\u0000b' },
      'v',
    ],
    [
      'updateUser(input: {last_name})',
      'mutation($id: Int!, $v: UpdateUserInput!) { updateUser(id: $id, input: $v) { __typename } }',
      { v: { last_name: 'a\u0000b' } },
      'v.last_name',
    ],
  ];
  it.each(GRAPHQL_CASES)('GraphQL %s, as a variable', async (_label, query, variables, field) => {
    const res = await graphqlRaw(query, { id: userId, ...variables });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field }) }),
    ]);
  });
  it.each(GRAPHQL_CASES)('GraphQL %s, as a string literal', async (_label, query) => {
    // The same field with the value written into the document (`"a\u0000b"`), no variable.
    const literal = query
      .replace(/^(query|mutation)\([^)]*\)/, '$1')
      .replace(/\$id/, String(userId))
      .replace(/\$v\b(?=[,)])/, query.includes('UpdateUserInput') ? '{ last_name: "a\\u0000b" }' : '"a\\u0000b"');
    const res = await graphqlRaw(literal);
    expect(res.status, literal).toBe(400);
    expect(res.body.errors[0].message).toMatch(/NUL character/);
  });

  it('nothing was written: no token, scenario or user name holds a NUL', async () => {
    const prisma = t.database.prisma;
    expect((await prisma.apiToken.findMany({ select: { name: true } })).filter((x) => !isStorableText(x.name))).toEqual(
      [],
    );
    expect(
      (await prisma.scenario.findMany({ select: { name: true } })).filter(
        (x) => x.name !== null && !isStorableText(x.name),
      ),
    ).toEqual([]);
    const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
    expect(isStorableText(user.last_name ?? '')).toBe(true);
  });
});
