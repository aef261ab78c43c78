/**
 * `product` and `rate_bracket` on result rows: the records a row was priced from, batched through dataloaders so a
 * page of rows costs one query per field, not one per row. Rows only ever name financiers in the caller's book.
 */
import type { Context } from '../../graphql/context.ts';
import { ProductRef, RateBracketRef } from './rate-card.types.ts';

export const productField = {
  type: ProductRef,
  description: 'The product this row was priced from (batched: one query for all rows)',
  sort: (product: { id: number }) => product.id,
  load: (ids: readonly number[], ctx: Context) => ctx.prisma.product.findMany({ where: { id: { in: [...ids] } } }),
  resolve: (row: { product_id: number }) => row.product_id,
} as const;

export const rateBracketField = {
  type: RateBracketRef,
  description: 'The rate bracket this row was priced from (batched: one query for all rows)',
  sort: (bracket: { id: number }) => bracket.id,
  load: (ids: readonly number[], ctx: Context) => ctx.prisma.rateBracket.findMany({ where: { id: { in: [...ids] } } }),
  resolve: (row: { rate_bracket_id: number }) => row.rate_bracket_id,
} as const;
