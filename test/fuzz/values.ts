/**
 * Value generators for the fuzzer: hostile strings and numbers, arbitrary JSON, and values shaped by a GraphQL input
 * type (so a request usually gets past coercion and reaches the code behind it), mixed with wrong ones.
 */
import fc from 'fast-check';
import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
} from 'graphql';

/** One character, weighted towards the ones that break things: NUL, lone surrogates, controls, astral, quotes. */
const hostileChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.constant('\u0000') },
  { weight: 2, arbitrary: fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff') },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x100, max: 0xd7ff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
  { weight: 1, arbitrary: fc.constantFrom('"', '\\', "'", '%', '<', '$', '{', '\u2028', '\ufeff', '\u202e', '\ufffd') },
);

const SPECIAL_STRINGS = [
  '',
  ' ',
  '   ',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1e20',
  '-1',
  '0',
  '-0',
  '2147483648',
  '1e400',
  '9'.repeat(40),
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '\u0000',
  '\ud800',
  '\udfff',
  'a\u0000b',
  '\ud800\udc00',
  '%00',
  "' OR 1=1 --",
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '1.5',
  '١٢٣',
  '１２',
  '\t12\n',
  '12abc',
];

const EMAILS = [
  'broker.admin@demo.test',
  'BROKER.ADMIN@DEMO.TEST',
  ' broker.admin@demo.test ',
  'broker.admin@demo.test\u0000',
  'broker.admin\u0000@demo.test',
  'broker.user@demo.test',
  'nobody@demo.test',
  'a@b.c',
  '@',
  'x@y',
  'not-an-email',
  `${'x'.repeat(300)}@demo.test`,
  '\ud800@demo.test',
  'ünïcødé@demo.test',
  'a@b.c\r\nBcc: x@y.z',
];

export const shortString = fc.string({ unit: hostileChar, maxLength: 24 });

/** Long strings, up to 60k characters (a JSON body stays under the 256 kB limit most of the time). */
const longString = fc
  .tuple(
    fc.constantFrom('a', 'x', '\u0000', '\ud800', 'é', '😀', '9', ' '),
    fc.constantFrom(256, 1_000, 10_000, 60_000),
  )
  .map(([c, n]) => c.repeat(n));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: shortString },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...EMAILS) },
  { weight: 1, arbitrary: longString },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -10, max: 120 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      0,
      -0,
      -1,
      1,
      2147483647,
      2147483648,
      -2147483648,
      -2147483649,
      1e20,
      -1e20,
      1e308,
      -1e308,
      5e-324,
      Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      0.1,
      1.5,
      -0.5,
      100,
      100.0001,
      1e9,
      999999999,
    ),
  },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/** Any JSON value whose strings and numbers are hostile, nested a few levels. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(shortString, fc.constantFrom('__proto__', 'constructor', 'input', 'id')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** Good values for fields the catalogue gives meaning to, so some requests get all the way through. */
export interface Hints {
  assetIds: number[];
  rateBracketIds: number[];
  organisationIds: number[];
  userIds: number[];
  assetWords: string[];
  refreshTokens: string[];
}

function hinted(field: string, hints: Hints): fc.Arbitrary<unknown> | null {
  switch (field) {
    case 'email':
      return fc.constantFrom(...EMAILS);
    case 'password':
      return fc.constantFrom('demo-password-1', 'wrong-password', '', 'demo-password-1\u0000', '\ud800');
    case 'refresh':
      return fc.oneof(
        fc.constantFrom(...hints.refreshTokens),
        fc.constantFrom('rt_', `rt_${'0'.repeat(32)}.${'A'.repeat(43)}`, 'rt_x.y'),
      );
    case 'abn':
      return fc.constantFrom(
        '51824753556',
        '51 824 753 556',
        '51824753557',
        '00000000000',
        '5182475355',
        '518247535560',
        'ABN51824753556',
        '５１８２４７５３５５６',
      );
    case 'asset_value':
      return fc.constantFrom(...hints.assetIds);
    case 'rate_bracket_id':
      return fc.constantFrom(...hints.rateBracketIds);
    case 'preferred_financier':
      return fc.subarray(hints.organisationIds, { maxLength: Math.min(3, hints.organisationIds.length) });
    case 'organisation_id':
      return fc.constantFrom(...hints.organisationIds, null);
    case 'q':
      return fc.constantFrom(...hints.assetWords);
    case 'term':
      return fc.constantFrom(12, 24, 36, 48, 60, 84, 0, 1, 600);
    case 'cost':
      return fc.oneof(
        fc.integer({ min: 1_000, max: 500_000 }),
        fc.constantFrom('25000', '25000.50', 0, -1, '1e400', 'NaN', '0x10', ' 100 ', '1_000'),
      );
    case 'pv':
      return fc.constantFrom(0, 25_000, 50_000, -1, 1e20, 0.01);
    case 'noi_min':
    case 'noi_max':
      return fc.constantFrom(0, 1, 12, 36, 60, -12, 1e9, 0.5);
    case 'compounding_freq_value':
      return fc.constantFrom(0, 1, 4, 12, 52, -1, 2147483647);
    case 'base_min':
    case 'base_max':
      return fc.constantFrom(0, 5.5, 9.99, 12, -3, 100, 1e6);
    case 'name':
      return fc.oneof(fc.constantFrom('fuzz', '  ', 'x'.repeat(256)), shortString);
    default:
      return null;
  }
}

/** A value the GraphQL type would accept (often), with hostile contents. */
/**
 * 'hostile': anything; true (well-formed): the right type throughout, contents still hostile; 'plausible': also
 * numbers a real client would send (so validation passes and hostile strings reach the queries behind it).
 */
export type Shape = false | true | 'plausible';

/** Fields whose hint is a real reference (an id, an email, an ABN ...), kept in plausible mode. */
const REFERENCE_FIELDS = new Set([
  'email',
  'password',
  'refresh',
  'abn',
  'asset_value',
  'rate_bracket_id',
  'preferred_financier',
  'q',
  'name',
]);

function plausibleNumber(field: string, integer: boolean): fc.Arbitrary<number> {
  if (field === 'cost' || field === 'pv') return fc.integer({ min: 5_000, max: 250_000 });
  if (field === 'term' || field.startsWith('noi_')) return fc.constantFrom(12, 24, 36, 48, 60);
  if (field.startsWith('base_')) return fc.constantFrom(5.5, 7.25, 9.9);
  if (field === 'compounding_freq_value') return fc.constantFrom(12);
  return integer ? fc.integer({ min: 0, max: 60 }) : fc.constantFrom(0, 1, 10, 20);
}

function typedValue(
  type: GraphQLInputType,
  field: string,
  hints: Hints,
  depth: number,
  wellFormed: Shape,
): fc.Arbitrary<unknown> {
  const plausible = wellFormed === 'plausible';
  const hint = !plausible || REFERENCE_FIELDS.has(field) ? hinted(field, hints) : null;
  const nullable = getNullableType(type) as GraphQLInputType;
  let base: fc.Arbitrary<unknown>;
  if (isListType(nullable)) {
    base = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.array(valueFor(nullable.ofType, field, hints, depth + 1, wellFormed), { maxLength: 4 }),
      },
      { weight: wellFormed ? 0 : 1, arbitrary: valueFor(nullable.ofType, field, hints, depth + 1, wellFormed) },
    );
  } else if (isInputObjectType(nullable)) {
    const fields = nullable.getFields();
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const [name, f] of Object.entries(fields)) {
      model[name] = depth > 3 ? hostileJson : valueFor(f.type, name, hints, depth + 1, wellFormed);
      if (isNonNullType(f.type)) required.push(name);
    }
    const object = fc.oneof(
      { weight: 4, arbitrary: fc.record(model, { requiredKeys: required }) },
      { weight: wellFormed ? 0 : 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
    );
    base = wellFormed
      ? object
      : fc
          .tuple(
            object,
            fc.dictionary(
              fc.oneof(shortString, fc.constantFrom('__proto__', 'id', 'is_admin', 'secret')),
              hostileJson,
              { maxKeys: 2 },
            ),
          )
          .map(([o, extra]) => ({ ...extra, ...(o as object) }));
  } else if (isEnumType(nullable)) {
    const names = nullable.getValues().map((v) => v.name);
    base = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...names) },
      { weight: wellFormed ? 0 : 1, arbitrary: fc.constantFrom(...names).map((n) => n.toUpperCase()) },
    );
  } else if (isScalarType(nullable)) {
    switch (nullable.name) {
      case 'Int':
        base = plausible
          ? plausibleNumber(field, true)
          : hostileNumber.map((n) => (Number.isFinite(n) ? Math.trunc(n) : n));
        break;
      case 'Float':
        base = plausible ? plausibleNumber(field, false) : hostileNumber;
        break;
      case 'Decimal':
        base = plausible
          ? plausibleNumber(field, false)
          : fc.oneof(
              hostileNumber,
              hostileNumber.map(String),
              fc.constantFrom('NaN', 'Infinity', '0x10', '1e400', '-0', ' 12 ', '12.345.6', ''),
            );
        break;
      case 'Boolean':
        base = fc.oneof(
          { weight: 4, arbitrary: fc.boolean() },
          { weight: wellFormed ? 0 : 1, arbitrary: fc.constantFrom('true', 0, 1, 'yes') },
        );
        break;
      case 'DateTime':
        base = plausible
          ? fc.constantFrom('2030-01-01T00:00:00Z', '2027-06-30T12:00:00.000Z')
          : fc.constantFrom(
              '2030-01-01T00:00:00Z',
              '2020-01-01T00:00:00Z',
              '2026-13-45T99:99:99Z',
              '0000-00-00',
              '+275760-09-13T00:00:00.000Z',
              '-271821-04-20T00:00:00.000Z',
              '9999-12-31T23:59:59Z',
              '2030-01-01',
              'tomorrow',
              '',
              0,
              1e20,
              -1,
              '2030-01-01T00:00:00\u0000Z',
            );
        break;
      // Plausible bodies are there to carry a NUL or a lone surrogate as far as it goes.
      case 'String':
        base = plausible
          ? fc.oneof(fc.constantFrom('a\u0000b', '\u0000', 'a\ud800b', '\udfff', 'Olivia'), hostileString)
          : hostileString;
        break;
      default:
        base = hostileJson;
    }
  } else {
    base = hostileJson;
  }
  return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 2, arbitrary: base }) : base;
}

/**
 * Mostly a well-typed value; sometimes null, a value of the wrong type, or an array where an object goes.
 * `wellFormed`: of the right type throughout (contents still hostile), so the request gets past coercion and a
 * deep input (every field of a result card, a whole deal) reaches the code behind it.
 */
export function valueFor(
  type: GraphQLInputType,
  field: string,
  hints: Hints,
  depth = 0,
  wellFormed: Shape = false,
): fc.Arbitrary<unknown> {
  if (wellFormed) return typedValue(type, field, hints, depth, wellFormed);
  return fc.oneof(
    { weight: 12, arbitrary: typedValue(type, field, hints, depth, false) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: depth > 2 ? hostileString : hostileJson },
  );
}

/** Numeric and string literals JSON.stringify can never produce (1e999 parses to Infinity, for one). */
export const RAW_LITERALS = [
  '1e999',
  '-1e999',
  '1e-999',
  '123456789012345678901234567890',
  '-0',
  '0.0000000000000000000001',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u0000"',
  '"a\\u0000b"',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '1e20',
  '"1e20"',
  '"0x10"',
  '"NaN"',
  '"-Infinity"',
  '[]',
  '{}',
  '[{}]',
  '[[1]]',
  '{"__proto__":{"is_admin":true}}',
  'true',
  'null',
];

/** Syntactically broken or unusual request bodies, independent of the route. */
export const MALFORMED_BODIES = [
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  '{a:1}',
  "{'a':1}",
  '[',
  'nul',
  'tru',
  'undefined',
  'NaN',
  'Infinity',
  '-',
  '01',
  '.5',
  '"unterminated',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '\u0000',
  ' ',
  '\n',
  '{"a":1e999}',
  '{"__proto__":null}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '[]',
  '""',
  '"x"',
  '0',
  '-1',
  'null',
  'true',
  '{"a":"\ud800"}',
];

/** Deeply nested JSON built as text (JSON.stringify of it on our side would be the thing that overflows). */
export function deepJson(field: string, depth: number, kind: 'array' | 'object'): string {
  const open = kind === 'array' ? '['.repeat(depth) : '{"a":'.repeat(depth);
  const close = kind === 'array' ? ']'.repeat(depth) : '}'.repeat(depth);
  return `{${JSON.stringify(field)}:${open}1${close}}`;
}
