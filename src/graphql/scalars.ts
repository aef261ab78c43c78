/** Custom scalars. Registered on the shared builder when imported (src/schema.ts imports every registration). */
import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';

builder.scalarType('DateTime', {
  description: 'ISO 8601 timestamp',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 timestamp');
    return date;
  },
});

/** Money and percentages: accepts a JSON number or a numeric string (the spec sends some amounts as strings). */
builder.scalarType('Decimal', {
  description: 'A decimal number, sent as a JSON number or a numeric string',
  serialize: (value) => (typeof value === 'string' ? Number(value) : value),
  parseValue: (value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new GraphQLError('A valid number is required.');
    return n;
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT || node.kind === Kind.STRING) {
      const n = Number(node.value);
      if (Number.isFinite(n)) return n;
    }
    throw new GraphQLError('A valid number is required.');
  },
});

builder.scalarType('JSON', { serialize: (v) => v, parseValue: (v) => v });
