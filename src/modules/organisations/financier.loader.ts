/**
 * `financier` on result rows: the financier's public profile, batched through a dataloader so a dashboard that asks
 * for it on 500 rows costs one query, not 500. Rows show other organisations, so the loader reads only the columns
 * the profile exposes: nothing else of another tenant's record leaves the database on this path.
 */
import type { Context } from '../../graphql/context.ts';
import { FinancierProfileRef, type FinancierProfile } from './organisation.types.ts';

function loadFinancierProfiles(ids: readonly number[], ctx: Context): Promise<FinancierProfile[]> {
  return ctx.prisma.organisation.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } });
}

/** Field options for a `financier` field on any row carrying `organisation_id`. */
export const financierField = {
  type: FinancierProfileRef,
  description: "The financier's public profile (batched: one query for all rows)",
  sort: (profile: FinancierProfile) => profile.id,
  load: loadFinancierProfiles,
  resolve: (row: { organisation_id: number }) => row.organisation_id,
} as const;
