/**
 * `approval` on Matrix and Matrix Calculator result rows: the row's approval, batched through a dataloader so asking
 * for it on 300 rows costs one query (its rate-bracket ids one more, its rate brackets two), not 300. Approvals are
 * readable by any signed-in caller (spec Authentication 10), so the whole record may be shown on another
 * organisation's rows. The key carries the row's `masked`: the approval of a masked row comes marked PAYWALLED, so
 * its `rate_brackets` stay hidden like the row's own `rate_bracket`, while the same approval on a visible row shows
 * them (two keys, one record read).
 */
import type { Approval } from '../../generated/prisma/client.ts';
import type { Context } from '../../graphql/context.ts';
import { ApprovalRef, PAYWALLED } from './approval.types.ts';
import { approvalsByIds } from './service.ts';

interface ApprovalKey {
  id: number;
  paywalled: boolean;
}

async function loadApprovals(keys: readonly ApprovalKey[], ctx: Context): Promise<(Approval | null)[]> {
  const ids = [...new Set(keys.map((k) => k.id))];
  const rows = await approvalsByIds(ctx.prisma, ids);
  const byId = new Map(ids.map((id, i) => [id, rows[i]]));
  return keys.map((k) => {
    const approval = byId.get(k.id) ?? null;
    return approval && k.paywalled ? { ...approval, [PAYWALLED]: true as const } : approval;
  });
}

export const approvalField = {
  type: ApprovalRef,
  // An approval deleted after the run's catalogue snapshot was read has no record left: null, not an error.
  nullable: true,
  description: "The row's approval with all its criteria (batched: one query for all rows)",
  loaderOptions: { cacheKeyFn: (k: ApprovalKey) => `${k.id}:${k.paywalled}` },
  load: loadApprovals,
  resolve: (row: { approval_id: number; masked?: boolean }): ApprovalKey => ({
    id: row.approval_id,
    paywalled: row.masked === true,
  }),
} as const;
