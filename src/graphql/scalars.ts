/** Custom scalars. Registered on the shared builder when imported (src/graphql-server/schema.ts imports every registration). */
import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

builder.scalarType('DateTime', {
  description: 'An instant as an ISO 8601 timestamp; answers are in UTC (e.g. "2025-03-07T01:30:00.000Z")',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    // ISO 8601 only: Date() alone would also read "1", "2024" or "March 7" as some instant.
    const date = typeof value === 'string' && ISO_8601.test(value) ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 timestamp');
    return date;
  },
});

/**
 * The spellings money accepts as a string: plain decimals, optionally negative ("1250", "-3.5"). Number() would
 * also read "0x10" as 16, "1e3", " 12 ", "Infinity" and "" (as 0); none of those is how anyone writes an amount.
 */
const DECIMAL_STRING = /^-?\d+(\.\d+)?$/;

/** A Decimal input value, or null when it is not one: a finite JSON number, or a plain decimal string. */
function parseDecimal(value: unknown): number | null {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && DECIMAL_STRING.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Money and percentages: accepts a JSON number or a plain decimal string (the spec sends some amounts as strings). */
builder.scalarType('Decimal', {
  description: 'A decimal number, sent as a JSON number or a plain decimal string such as "1250.50"',
  serialize: (value) => (typeof value === 'string' ? Number(value) : value),
  parseValue: (value) => {
    const n = parseDecimal(value);
    if (n === null) throw new GraphQLError('A valid number is required.');
    return n;
  },
  parseLiteral: (node) => {
    // A literal is a GraphQL number (Int or Float, exponent allowed as in JSON) or a string spelled as above.
    const n =
      node.kind === Kind.INT || node.kind === Kind.FLOAT
        ? Number(node.value)
        : node.kind === Kind.STRING
          ? parseDecimal(node.value)
          : null;
    if (n === null || !Number.isFinite(n)) throw new GraphQLError('A valid number is required.');
    return n;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value: an object, list, string, number, boolean or null; its shape is described on each field',
  serialize: (v) => v,
  parseValue: (v) => v,
});
