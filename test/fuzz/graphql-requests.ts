/**
 * GraphQL documents generated from the schema: random root fields of Query and Mutation with generated arguments
 * (as literals or variables, sometimes of the wrong type), random selections through objects, unions and interfaces
 * (inline and named fragments, aliases, directives), plus documents that are too deep, too wide or broken.
 */
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import {
  authorizationArb,
  contentTypeArb,
  headersOf,
  percentEncode,
  serviceClientArb,
  utf8,
  type FuzzRequest,
  type Generators,
} from './requests.ts';
import { hostileJson, hostileString, MALFORMED_BODIES, valueFor } from './values.ts';

interface RootField {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
}

/** Small deterministic PRNG: the selection shape comes from one fast-check integer, so the run stays reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value as a GraphQL literal (enum-typed positions print bare names when they look like one). */
function literal(value: unknown, type: GraphQLInputType | null): string {
  const nullable = type ? getNullableType(type) : null;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    if (nullable && isEnumType(nullable) && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value)) return value;
    return JSON.stringify(value);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return `[${value.map((v) => literal(v, nullable && isListType(nullable) ? nullable.ofType : null)).join(', ')}]`;
  const fields = nullable && isInputObjectType(nullable) ? nullable.getFields() : {};
  const entries = Object.entries(value as Record<string, unknown>).filter(([k]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(k));
  return `{${entries.map(([k, v]) => `${k}: ${literal(v, fields[k]?.type ?? null)}`).join(', ')}}`;
}

function typeString(type: GraphQLInputType): string {
  return String(type);
}

class Selector {
  fragments: string[] = [];
  aliases = 0;
  constructor(
    private readonly rnd: () => number,
    private readonly schema: GraphQLSchema,
  ) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)];
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }

  alias(name: string): string {
    if (!this.chance(0.15)) return name;
    this.aliases += 1;
    return `${this.pick(['a', 'b', 'x', '_'])}${this.aliases}: ${name}`;
  }

  directive(): string {
    if (!this.chance(0.05)) return '';
    return this.pick([
      ' @skip(if: false)',
      ' @include(if: true)',
      ' @skip(if: true)',
      ' @include(if: "yes")',
      ' @deprecated',
      ' @nope',
      ' @skip',
    ]);
  }

  /** A selection set for `type`, `depth` levels deep at most ('' for leaves). */
  select(type: GraphQLOutputType, depth: number): string {
    const named = getNamedType(type) as GraphQLNamedType;
    if (isObjectType(named) || isInterfaceType(named)) {
      const fields = Object.values(named.getFields());
      const leaves = fields.filter(
        (f) =>
          !isObjectType(getNamedType(f.type)) &&
          !isUnionType(getNamedType(f.type)) &&
          !isInterfaceType(getNamedType(f.type)),
      );
      const pool = depth <= 1 && leaves.length ? leaves : fields;
      const count = 1 + Math.floor(this.rnd() * Math.min(4, pool.length));
      const parts: string[] = this.chance(0.4) ? ['__typename'] : [];
      for (let i = 0; i < count; i += 1) {
        const f = this.pick(pool);
        const sub = this.select(f.type, depth - 1);
        parts.push(`${this.alias(f.name)}${this.directive()}${sub}`);
      }
      if (isInterfaceType(named)) {
        const impls = this.schema.getPossibleTypes(named);
        if (impls.length && this.chance(0.5))
          parts.push(`... on ${this.pick(impls).name} ${this.select(this.pick(impls), depth - 1) || '{ __typename }'}`);
      }
      if (this.chance(0.03)) parts.push('notAField');
      return ` { ${parts.join(' ')} }`;
    }
    if (isUnionType(named)) {
      const members = named.getTypes();
      const parts = ['__typename'];
      const count = 1 + Math.floor(this.rnd() * Math.min(3, members.length));
      for (let i = 0; i < count; i += 1) {
        const m = this.pick(members);
        const sel = this.select(m, depth);
        if (this.chance(0.3)) {
          const name = `F${this.fragments.length}`;
          this.fragments.push(`fragment ${name} on ${m.name}${sel}`);
          parts.push(`...${name}`);
        } else parts.push(`... on ${m.name}${sel}`);
      }
      const errorIface = this.schema.getType('Error');
      if (errorIface && this.chance(0.5)) parts.push('... on Error { message code }');
      return ` { ${parts.join(' ')} }`;
    }
    return '';
  }
}

interface ArgValues {
  field: RootField;
  args: Record<string, unknown>;
  seed: number;
  asVariables: boolean;
  badVariable: boolean;
}

function rootFieldsOf(schema: GraphQLSchema): RootField[] {
  return [
    ...Object.values(schema.getQueryType()?.getFields() ?? {}).map((field) => ({ operation: 'query' as const, field })),
    ...Object.values(schema.getMutationType()?.getFields() ?? {}).map((field) => ({
      operation: 'mutation' as const,
      field,
    })),
  ];
}

function argValuesArb(root: RootField, g: Generators): fc.Arbitrary<ArgValues> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const wellFormed: Record<string, fc.Arbitrary<unknown>> = {};
  const plausible: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const arg of root.field.args) {
    model[arg.name] = valueFor(arg.type, arg.name, g.hints);
    wellFormed[arg.name] = valueFor(arg.type, arg.name, g.hints, 0, true);
    plausible[arg.name] = valueFor(arg.type, arg.name, g.hints, 0, 'plausible');
    if (String(arg.type).endsWith('!')) required.push(arg.name);
  }
  return fc.record({
    field: fc.constant(root),
    args: fc.oneof(
      { weight: 3, arbitrary: fc.record(plausible, { requiredKeys: required }) },
      { weight: 3, arbitrary: fc.record(wellFormed, { requiredKeys: required }) },
      { weight: 3, arbitrary: fc.record(model, { requiredKeys: required }) },
      { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
    ),
    seed: fc.integer(),
    asVariables: fc.boolean(),
    badVariable: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  });
}

interface Document {
  query: string;
  variables: Record<string, unknown>;
  rootFields: string[];
  tags: string[];
}

function render(parts: ArgValues[], schema: GraphQLSchema, extraSeed: number): Document {
  const s = new Selector(prng(extraSeed), schema);
  const operation = parts[0].field.operation;
  const definitions: string[] = [];
  const variables: Record<string, unknown> = {};
  const selections: string[] = [];
  const tags = [`gql:${operation}`];
  parts.forEach((p, i) => {
    const argText: string[] = [];
    for (const arg of p.field.field.args) {
      if (!(arg.name in p.args)) continue;
      const value = p.args[arg.name];
      if (p.asVariables) {
        const name = `v${i}_${arg.name}`;
        // A wrong declared type (String for Int, a list for an object) is a client mistake GraphQL must refuse cleanly.
        const declared = p.badVariable
          ? s.pick(['String', 'Int!', '[Int]', 'DealInput', 'Boolean!', 'JSON', 'Nope'])
          : typeString(arg.type);
        if (p.badVariable) tags.push('gql:bad-variable-type');
        definitions.push(`$${name}: ${declared}`);
        if (value !== undefined) variables[name] = value;
        argText.push(`${arg.name}: $${name}`);
      } else {
        argText.push(`${arg.name}: ${literal(value, arg.type)}`);
      }
    }
    const args = argText.length ? `(${argText.join(', ')})` : '';
    selections.push(
      `${s.alias(p.field.field.name)}${args}${s.directive()}${s.select(p.field.field.type, 2 + Math.floor(s.chance(0.5) ? 3 : 1))}`,
    );
  });
  if (parts.length > 1) tags.push('gql:several-root-fields');
  if (s.fragments.length) tags.push('gql:fragments');
  if (s.aliases) tags.push('gql:aliases');
  const head = definitions.length
    ? `${operation} Fuzz(${definitions.join(', ')})`
    : s.chance(0.5)
      ? operation
      : `${operation} Fuzz`;
  const query = `${head} { ${selections.join(' ')} }${s.fragments.length ? ` ${s.fragments.join(' ')}` : ''}`;
  return { query, variables, rootFields: parts.map((p) => p.field.field.name), tags };
}

/** Documents no schema walk produces: nesting far past the depth limit, alias floods, fragment cycles, junk. */
function hostileDocumentArb(roots: RootField[]): fc.Arbitrary<Document> {
  const doc = (
    query: string,
    tags: string[],
    rootFields: string[] = [],
    variables: Record<string, unknown> = {},
  ): Document => ({ query, variables, rootFields, tags });
  const names = roots.map((r) => r.field.name);
  const depth = fc.constantFrom(13, 50, 500, 3_000, 20_000);
  return fc.oneof(
    depth.map((n) => ({
      query: `{ ${'a { '.repeat(n)}b${' }'.repeat(n)} }`,
      variables: {},
      rootFields: [],
      tags: ['gql:deep-selection'],
    })),
    fc.tuple(depth, fc.constantFrom(...names)).map(([n, f]) => ({
      query: `{ ${f}(input: ${'['.repeat(n)}1${']'.repeat(n)}) { __typename } }`,
      variables: {},
      rootFields: [f],
      tags: ['gql:deep-list-literal'],
    })),
    fc.tuple(depth, fc.constantFrom(...names)).map(([n, f]) => ({
      query: `{ ${f}(input: ${'{a: '.repeat(n)}1${'}'.repeat(n)}) { __typename } }`,
      variables: {},
      rootFields: [f],
      tags: ['gql:deep-object-literal'],
    })),
    depth.map((n) => ({
      query: `{ ${'... on Query { '.repeat(n)}__typename${' }'.repeat(n)} }`,
      variables: {},
      rootFields: [],
      tags: ['gql:deep-inline-fragments'],
    })),
    fc
      .tuple(
        depth,
        fc.constantFrom(...roots.filter((r) => r.field.args.some((a) => isInputObjectType(getNullableType(a.type))))),
      )
      .map(([n, r]) => {
        const arg = r.field.args.find((a) => isInputObjectType(getNullableType(a.type)))!;
        let nested: unknown = 1;
        for (let i = 0; i < Math.min(n, 3_000); i += 1) nested = { a: nested };
        return {
          query: `${r.operation} Deep($v: ${String(arg.type)}) { ${r.field.name}(${arg.name}: $v) { __typename } }`,
          variables: { v: nested },
          rootFields: [r.field.name],
          tags: ['gql:deep-variables'],
        };
      }),
    fc
      .tuple(fc.integer({ min: 10, max: 60 }), fc.constantFrom('me', 'featureFlags', 'seats', 'subscription', ...names))
      .map(([n, f]) => ({
        query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${f} { __typename }`).join(' ')} }`,
        variables: {},
        rootFields: [f],
        tags: ['gql:alias-flood'],
      })),
    fc.constant(doc('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }', ['gql:fragment-cycle'])),
    fc.constant(doc('{ __schema { types { name fields { name } } } }', ['gql:introspection'])),
    fc.constant(doc('subscription { me { __typename } }', ['gql:subscription'])),
    fc.constant(
      doc('query A { me { __typename } } query B { seats { used } }', ['gql:two-operations'], ['me', 'seats']),
    ),
    hostileString.map((q) => ({ query: q, variables: {}, rootFields: [], tags: ['gql:junk-document'] })),
  );
}

function documentArb(schema: GraphQLSchema, g: Generators): fc.Arbitrary<Document> {
  const roots = rootFieldsOf(schema);
  const perField = roots.map((r) => argValuesArb(r, g));
  const oneField = fc.oneof(...perField);
  const generated = fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.array(oneField, { minLength: 1, maxLength: 1 }) },
        { weight: 1, arbitrary: fc.array(oneField, { minLength: 2, maxLength: 3 }) },
      ),
      fc.integer(),
    )
    .map(([parts, seed]) => render(parts, schema, seed));
  return fc.oneof(
    { weight: 16, arbitrary: generated },
    {
      weight: 2,
      arbitrary: generated.chain((d) =>
        fc.nat().map((n) => ({
          ...d,
          query: d.query.slice(0, n % Math.max(1, d.query.length)),
          tags: [...d.tags, 'gql:truncated'],
        })),
      ),
    },
    { weight: 3, arbitrary: hostileDocumentArb(roots) },
  );
}

/** POST /graphql: mostly a JSON envelope; sometimes a broken one, a batch, or another content type. */
export function graphqlPostArb(schema: GraphQLSchema, g: Generators): fc.Arbitrary<FuzzRequest> {
  const envelope = fc.tuple(documentArb(schema, g), fc.nat({ max: 40 }), hostileJson).map(([doc, mode, junk]) => {
    let body: string;
    let contentType: string | undefined = 'application/json';
    let tag = 'gql-body:json';
    if (mode < 30)
      body = JSON.stringify({
        query: doc.query,
        variables: doc.variables,
        ...(mode === 0 ? { operationName: 'Nope' } : {}),
      });
    else if (mode < 32) {
      body = JSON.stringify({ query: doc.query, variables: junk });
      tag = 'gql-body:bad-variables';
    } else if (mode < 33) {
      body = JSON.stringify({ query: junk, variables: doc.variables });
      tag = 'gql-body:query-not-string';
    } else if (mode < 34) {
      body = JSON.stringify([{ query: doc.query }, { query: doc.query }]);
      tag = 'gql-body:batch';
    } else if (mode < 35) {
      body = doc.query;
      contentType = 'application/graphql';
      tag = 'gql-body:application-graphql';
    } else if (mode < 36) {
      body = `query=${percentEncode(doc.query)}`;
      contentType = 'application/x-www-form-urlencoded';
      tag = 'gql-body:form';
    } else if (mode < 37) {
      body = JSON.stringify({ query: doc.query, extensions: junk, operationName: junk });
      tag = 'gql-body:junk-extensions';
    } else if (mode < 38) {
      body = '';
      tag = 'gql-body:empty';
    } else if (mode < 39) {
      body = JSON.stringify({ query: doc.query }).slice(0, -3);
      tag = 'gql-body:truncated-json';
    } else {
      body = MALFORMED_BODIES[doc.query.length % MALFORMED_BODIES.length];
      tag = 'gql-body:malformed';
    }
    return { doc, body, contentType, tag };
  });
  return fc
    .record({
      e: envelope,
      auth: authorizationArb(g.credentials),
      client: serviceClientArb,
      ct: fc.option(contentTypeArb, { freq: 12, nil: undefined }),
    })
    .map(({ e, auth, client, ct }) => ({
      target: 'POST /graphql',
      method: 'POST',
      url: '/graphql',
      headers: headersOf(auth, client, ct ?? e.contentType),
      body: utf8(e.body),
      tags: [auth.tag, e.tag, ...e.doc.tags, ...(ct ? [`ct:${ct}`] : [])],
      rootFields: e.doc.rootFields,
    }));
}

/** GET /graphql: the document in the query string (mutations must be refused; long URLs are kept under Node's limit). */
export function graphqlGetArb(schema: GraphQLSchema, g: Generators): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      doc: documentArb(schema, g),
      auth: authorizationArb(g.credentials),
      client: serviceClientArb,
      variablesMode: fc.constantFrom('json', 'json', 'none', 'junk'),
      junk: hostileString,
    })
    .map(({ doc, auth, client, variablesMode, junk }) => {
      const params = [`query=${percentEncode(doc.query)}`];
      if (variablesMode === 'json') params.push(`variables=${percentEncode(JSON.stringify(doc.variables))}`);
      if (variablesMode === 'junk') params.push(`variables=${percentEncode(junk)}`);
      let url = `/graphql?${params.join('&')}`;
      const tags = [auth.tag, ...doc.tags, `gql-get:variables-${variablesMode}`];
      if (url.length > 7_000) {
        // Cut by the encoded length: a character can take 9 (U+FFFD is %EF%BF%BD), and past Node's 16 kB header limit
        // the request never reaches the app (Node answers 431 itself).
        let query = doc.query.slice(0, 2_000);
        while (percentEncode(query).length > 7_000) query = query.slice(0, query.length >> 1);
        url = `/graphql?query=${percentEncode(query)}`;
        tags.push('gql:cut-for-url');
      }
      return {
        target: 'GET /graphql',
        method: 'GET',
        url,
        headers: headersOf(auth, client, undefined),
        tags,
        rootFields: doc.rootFields,
      };
    });
}
