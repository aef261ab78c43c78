/**
 * The GraphQL schema: the builder, its scalars and shared error types (src/graphql/), then every module's
 * registrations. schema.graphql is printed from this by `npm run schema:print`.
 */
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from '../graphql/builder.ts';
import '../graphql/scalars.ts';
import '../graphql/errors.ts';
import './modules.ts';
import { boundWrites } from '../graphql/write-bound.ts';

export const schema = boundWrites(builder.toSchema({ sortSchema: false }));

export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
