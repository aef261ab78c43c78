/**
 * Request generators: one arbitrary per target (a REST route, POST /graphql, GET /graphql, /healthz, unknown paths).
 * Each request carries tags naming its input classes (credential, body kind, content type), so a report can say which
 * class of input a failure comes from.
 */
import fc from 'fast-check';
import type { GraphQLInputType } from 'graphql';
import type { RestTarget } from './targets.ts';
import {
  deepJson,
  hostileJson,
  hostileString,
  MALFORMED_BODIES,
  RAW_LITERALS,
  shortString,
  valueFor,
  type Hints,
} from './values.ts';

export interface FuzzRequest {
  /** Which target generated it ("POST /api/v1/calculator", "POST /graphql" ...). */
  target: string;
  method: string;
  /** Path and query, already percent-encoded as it goes on the wire. */
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  tags: string[];
  /** GraphQL only: the root fields the document selects (for the secret allowances). */
  rootFields?: string[];
  /** REST route requests only: whether the route needs credentials, the method it answers, its path template. */
  route?: { method: string; public: boolean; path?: string };
}

/** Credential tags that authenticate nobody (absent, malformed, forged, expired, wrongly signed). */
export function isUnauthenticated(tags: string[]): boolean {
  const auth = tags.find((t) => t.startsWith('auth:'));
  return auth !== undefined && !auth.startsWith('auth:session:') && !auth.startsWith('auth:api:');
}

/** Named Authorization header values, made once the app runs (sessions, API tokens, forged JWTs). */
export type Credentials = Record<string, string | null>;

export interface Generators {
  credentials: Credentials;
  hints: Hints;
}

const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');

/** Percent-encodes every byte outside the unreserved set (a lone surrogate goes out as U+FFFD, as UTF-8 must). */
export function percentEncode(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Raw path or query pieces, already "encoded": broken escapes and encoded surrogates that no encoder produces. */
const RAW_ENCODED = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  '%00',
  '%F0%9F%98%80',
  '%2F',
  '%25',
  '%u0041',
  '%0A',
  '%20',
];

const headerSafe = fc.string({
  unit: fc
    .oneof(
      { weight: 10, arbitrary: fc.integer({ min: 0x21, max: 0x7e }) },
      { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
    )
    .map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 60,
});

export function authorizationArb(credentials: Credentials): fc.Arbitrary<{ tag: string; value: string | null }> {
  const names = Object.keys(credentials);
  const valid = names.filter((n) => n.startsWith('session:') || n.startsWith('api:'));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid).map((n) => ({ tag: `auth:${n}`, value: credentials[n] })) },
    { weight: 4, arbitrary: fc.constantFrom(...names).map((n) => ({ tag: `auth:${n}`, value: credentials[n] })) },
    { weight: 1, arbitrary: headerSafe.map((g) => ({ tag: 'auth:bearer-garbage', value: `Bearer ${g}` })) },
    { weight: 1, arbitrary: headerSafe.map((g) => ({ tag: 'auth:garbage', value: g })) },
  );
}

const serviceClientArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'web',
      'ios',
      'android',
      'IOS',
      'Android',
      '',
      'desktop',
      'web, ios',
      'x'.repeat(2000),
      'w\u00e9b',
      'null',
    ),
  },
  { weight: 1, arbitrary: headerSafe },
);

const JSON_TYPE = 'application/json';
const contentTypeArb = fc.oneof(
  { weight: 14, arbitrary: fc.constant(JSON_TYPE) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json; charset=bogus',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json',
      'APPLICATION/JSON',
      'application/json;',
      'application/graphql',
      'application/json; charset=utf-8',
      '*/*',
      'application/xml',
    ),
  },
);

function headersOf(
  auth: { value: string | null },
  client: string | undefined,
  contentType: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth.value !== null) headers.authorization = auth.value;
  if (client !== undefined) headers['x-service-client'] = client;
  if (contentType !== undefined) headers['content-type'] = contentType;
  return headers;
}

/** A JSON object over the route's fields, mostly well-typed, with unknown keys now and then. */
function typedBody(fields: Map<string, GraphQLInputType | null>, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const wellFormed: Record<string, fc.Arbitrary<unknown>> = {};
  const plausible: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [name, type] of fields) {
    model[name] = type ? valueFor(type, name, hints) : hostileJson;
    wellFormed[name] = type ? valueFor(type, name, hints, 0, true) : hostileJson;
    plausible[name] = type ? valueFor(type, name, hints, 0, 'plausible') : hostileJson;
    if (type && String(type).endsWith('!')) required.push(name);
  }
  // Plausible bodies carry the required fields and at most two optional ones: every extra optional field is another
  // chance of an early, unrelated refusal (moving a user to another organisation ...) before the hostile string lands.
  const optional = [...fields.keys()].filter((k) => !required.includes(k));
  const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, plausible[k]]));
  const plausibleObject = fc
    .tuple(
      fc.record(pick(required)),
      fc.subarray(optional, { maxLength: Math.min(2, optional.length) }).chain((keys) => fc.record(pick(keys))),
    )
    .map(([a, b]) => ({ ...a, ...b }));
  const object = fc.oneof(
    { weight: 6, arbitrary: plausibleObject },
    { weight: 3, arbitrary: fc.record(wellFormed, { requiredKeys: required }) },
    { weight: 3, arbitrary: fc.record(model, { requiredKeys: required }) },
    { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
  );
  return fc
    .tuple(object, fc.option(fc.dictionary(shortString, hostileJson, { maxKeys: 3 }), { freq: 4 }))
    .map(([o, extra]) => ({ ...(extra ?? {}), ...(o as Record<string, unknown>) }));
}

type Body = { bytes: Uint8Array; tag: string };

function bodyArb(fields: Map<string, GraphQLInputType | null>, hints: Hints): fc.Arbitrary<Body> {
  const names = [...fields.keys()];
  const someField = names.length ? fc.constantFrom(...names) : shortString;
  const typed = typedBody(fields, hints);
  return fc.oneof(
    { weight: 48, arbitrary: typed.map((o) => ({ bytes: utf8(JSON.stringify(o)), tag: 'body:typed' })) },
    {
      weight: 6,
      arbitrary: hostileJson.map((v) => ({ bytes: utf8(JSON.stringify(v) ?? 'null'), tag: 'body:any-json' })),
    },
    {
      weight: 4,
      arbitrary: fc
        .array(typed, { maxLength: 3 })
        .map((a) => ({ bytes: utf8(JSON.stringify(a)), tag: 'body:array-for-object' })),
    },
    {
      weight: 6,
      arbitrary: fc.tuple(typed, someField, fc.constantFrom(...RAW_LITERALS)).map(([o, f, lit]) => {
        const { [f]: _dropped, ...rest } = o;
        const tail = JSON.stringify(rest).slice(1);
        return {
          bytes: utf8(`{${JSON.stringify(f)}:${lit}${tail === '}' ? '}' : `,${tail}`}`),
          tag: 'body:raw-literal',
        };
      }),
    },
    {
      weight: 4,
      arbitrary: fc.constantFrom(...MALFORMED_BODIES).map((s) => ({ bytes: utf8(s), tag: 'body:malformed' })),
    },
    {
      weight: 4,
      arbitrary: fc.tuple(typed, fc.nat()).map(([o, n]) => {
        const text = JSON.stringify(o);
        return { bytes: utf8(text.slice(0, Math.max(1, n % text.length))), tag: 'body:truncated' };
      }),
    },
    { weight: 2, arbitrary: fc.constant({ bytes: new Uint8Array(0), tag: 'body:empty' }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          someField,
          fc.constantFrom(64, 1_000, 10_000, 60_000),
          fc.constantFrom('array' as const, 'object' as const),
        )
        .map(([f, depth, kind]) => ({ bytes: utf8(deepJson(f, depth, kind)), tag: `body:deep-${kind}` })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          someField,
          fc.constantFrom([0xff, 0xfe], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0x80], [0xf4, 0x90, 0x80, 0x80]),
        )
        .map(([f, bad]) => ({
          bytes: Buffer.concat([utf8(`{${JSON.stringify(f)}:"a`), Buffer.from(bad), utf8('b"}')]),
          tag: 'body:invalid-utf8',
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({ bytes: utf8(JSON.stringify({ pad: 'x'.repeat(300_000) })), tag: 'body:too-large' }),
    },
  );
}

/**
 * Path ids: existing ones of the resource the segment before the parameter names (`/users/:id`: the demo users),
 * so requests reach the resource's code, and every kind of id that is not one.
 */
function pathIdArb(hints: Hints, resource: string): fc.Arbitrary<{ raw: string; tag: string }> {
  const known = /user/.test(resource) ? hints.userIds : /organisation/.test(resource) ? hints.organisationIds : [];
  const good = [...new Set(known.length ? known : [...hints.userIds, ...hints.organisationIds, 1, 2, 3])].map(String);
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...good).map((raw) => ({ raw, tag: 'id:existing' })) },
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(
          '0',
          '-1',
          '1e20',
          '2147483648',
          '2147483647',
          '999999999',
          '1000000000',
          '1.5',
          'abc',
          'NaN',
          'Infinity',
          '0x10',
          '%201',
          '1%20',
          '+1',
          '01',
          '%D9%A3',
          '%EF%BC%91',
          '9'.repeat(400),
          'null',
          'undefined',
          'true',
          '%5B%5D',
          '..',
          '.',
          '~',
        )
        .map((raw) => ({ raw, tag: 'id:bad' })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ENCODED).map((raw) => ({ raw, tag: 'id:raw-escape' })) },
    {
      weight: 1,
      arbitrary: shortString.filter((s) => s.length > 0).map((s) => ({ raw: percentEncode(s), tag: 'id:unicode' })),
    },
  );
}

function queryValueArb(type: GraphQLInputType | null, name: string, hints: Hints): fc.Arbitrary<string[]> {
  const one = fc.oneof(
    {
      weight: 4,
      arbitrary: (type ? valueFor(type, name, hints) : hostileString).map((v) =>
        percentEncode(typeof v === 'string' ? v : (JSON.stringify(v) ?? '')),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ENCODED) },
  );
  return fc.oneof(
    { weight: 5, arbitrary: one.map((v) => [v]) },
    { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 3 }) },
  );
}

function queryArb(fields: Map<string, GraphQLInputType | null>, hints: Hints): fc.Arbitrary<string> {
  const model: Record<string, fc.Arbitrary<string[]>> = {};
  for (const [name, type] of fields) model[name] = queryValueArb(type, name, hints);
  const extra = fc.option(
    fc.tuple(
      fc.oneof(shortString.map(percentEncode), fc.constantFrom('q[]', 'q[a]', 'limit[]', '__proto__', '')),
      hostileString.map(percentEncode),
    ),
    { freq: 5 },
  );
  return fc.tuple(fc.record(model, { requiredKeys: [] }), extra).map(([values, more]) => {
    const pairs: string[] = [];
    for (const [k, vs] of Object.entries(values)) for (const v of vs ?? []) pairs.push(`${percentEncode(k)}=${v}`);
    if (more) pairs.push(`${more[0]}=${more[1]}`);
    // Node refuses request heads over 16 kB (431, not the app's answer): keep URLs well below that.
    return pairs.join('&').slice(0, 6_000);
  });
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

export function restRequestArb(target: RestTarget, g: Generators): fc.Arbitrary<FuzzRequest> {
  const params: Record<string, fc.Arbitrary<{ raw: string; tag: string }>> = {};
  for (const p of target.params)
    params[p] = pathIdArb(
      g.hints,
      /([^/]*)\/:\w+/.exec(target.path.slice(0, target.path.indexOf(`:${p}`) + p.length + 1))?.[1] ?? '',
    );
  return fc
    .record({
      method: fc.oneof(
        { weight: 14, arbitrary: fc.constant(target.method) },
        { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
      ),
      params: fc.record(params),
      query: target.query.size
        ? fc.option(queryArb(target.query, g.hints), { freq: 8, nil: '' })
        : fc.option(queryArb(new Map(), g.hints), { freq: 1, nil: '' }),
      auth: authorizationArb(g.credentials),
      client: serviceClientArb,
      contentType: contentTypeArb,
      body: bodyArb(target.body, g.hints),
    })
    .map(({ method, params: ids, query, auth, client, contentType, body }) => {
      let path = target.path;
      const tags = [auth.tag];
      for (const [p, id] of Object.entries(ids)) {
        path = path.replace(`:${p}`, id.raw);
        tags.push(id.tag);
      }
      if (query) tags.push('query');
      const hasBody = method !== 'GET' && method !== 'HEAD';
      if (hasBody) tags.push(body.tag, `ct:${contentType ?? 'none'}`);
      if (method !== target.method) tags.push(`method:${method}`);
      if (client !== undefined) tags.push('x-service-client');
      return {
        target: target.name,
        method,
        url: query ? `${path}?${query}` : path,
        headers: headersOf(auth, client, hasBody ? contentType : undefined),
        body: hasBody ? body.bytes : undefined,
        tags,
        route: { method: target.method, public: target.public, path: target.path },
      };
    });
}

export function healthzRequestArb(g: Generators): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.constantFrom('GET', 'GET', 'GET', 'POST', 'HEAD', 'PUT'),
      auth: authorizationArb(g.credentials),
      client: serviceClientArb,
      query: fc.option(
        hostileString.map((q) => percentEncode(q).slice(0, 6_000)),
        { nil: '' },
      ),
    })
    .map(({ method, auth, client, query }) => ({
      target: 'GET /healthz',
      method,
      url: query ? `/healthz?${query}` : '/healthz',
      headers: headersOf(auth, client, undefined),
      tags: [auth.tag],
    }));
}

export function unknownPathRequestArb(g: Generators, knownPaths: string[]): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(
    shortString.filter((s) => s.length > 0).map(percentEncode),
    fc.constantFrom(...RAW_ENCODED),
    fc.constantFrom('1', 'v1', 'api', '..', 'graphql', 'admin', '.env'),
  );
  const prefix = fc.constantFrom(
    '/api/v1/',
    '/api/v2/',
    '/',
    '/api/',
    '/graphql/',
    '/healthz/',
    ...knownPaths.map((p) => `${p.replace(/:\w+/g, '1')}/`),
  );
  return fc
    .record({
      method: fc.constantFrom(...OTHER_METHODS),
      prefix,
      segments: fc.array(segment, { minLength: 1, maxLength: 3 }),
      auth: authorizationArb(g.credentials),
      client: serviceClientArb,
      contentType: contentTypeArb,
      body: bodyArb(new Map(), g.hints),
    })
    .map(({ method, prefix: p, segments, auth, client, contentType, body }) => {
      const hasBody = method !== 'GET' && method !== 'HEAD';
      return {
        target: 'unknown paths',
        method,
        url: `${p}${segments.join('/')}`,
        headers: headersOf(auth, client, hasBody ? contentType : undefined),
        body: hasBody ? body.bytes : undefined,
        tags: [auth.tag, ...(hasBody ? [body.tag] : [])],
      };
    });
}

export { headersOf, serviceClientArb, contentTypeArb, utf8 };
