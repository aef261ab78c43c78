/**
 * `approval` on Matrix and Matrix Calculator result rows: the row's approval, batched through a dataloader so asking
 * for it on 300 rows costs one query (and its rate-bracket ids one more), not 300. Approvals are readable by any
 * signed-in caller (spec Authentication 10), so the whole record may be shown on another organisation's rows.
 */
import type { Context } from '../../graphql/context.ts';
import { ApprovalRef } from './approval.types.ts';
import { approvalsByIds } from './service.ts';

export const approvalField = {
  type: ApprovalRef,
  // An approval deleted after the run's catalogue snapshot was read has no record left: null, not an error.
  nullable: true,
  description: "The row's approval with all its criteria (batched: one query for all rows)",
  load: (ids: number[], ctx: Context) => approvalsByIds(ctx.prisma, ids),
  resolve: (row: { approval_id: number }) => row.approval_id,
} as const;
