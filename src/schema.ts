/**
 * The GraphQL schema: every module registers its types and fields on the shared builder when imported here.
 * schema.graphql is printed from this by `npm run schema:print`.
 */
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './lib/builder.ts';
import './modules/index.ts';

export const schema = builder.toSchema({ sortSchema: false });

export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
