/**
 * `financier` on result rows: the financier's Organisation, batched through a dataloader so a dashboard that asks for
 * it on 500 rows costs one query, not 500. Financier organisations are what every broker sees in results.
 */
import type { Context } from '../../graphql/context.ts';
import { OrganisationRef } from './organisation.types.ts';

export function loadOrganisations(ids: readonly number[], ctx: Context) {
  return ctx.prisma.organisation.findMany({ where: { id: { in: [...ids] } } });
}

/** Field options for a `financier` field on any row carrying `organisation_id`. */
export const financierField = {
  type: OrganisationRef,
  description: "The financier's organisation (batched: one query for all rows)",
  sort: (organisation: { id: number }) => organisation.id,
  load: loadOrganisations,
  resolve: (row: { organisation_id: number }) => row.organisation_id,
} as const;
