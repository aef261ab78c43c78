import { builder } from '../../graphql/builder.ts';
import { ApprovalListRef } from './approval.types.ts';
import { listApprovals } from './service.ts';

builder.queryField('approvalList', (t) =>
  t.field({
    type: ApprovalListRef,
    description:
      'GET /api/v1/approvals: at most 1000 approvals in one list, with the total that matched. Prefer the approvals connection',
    authScopes: { signedIn: true },
    args: { organisationId: t.arg.int({ description: 'Only this financier' }) },
    errors: { directResult: true },
    resolve: (_root, args, ctx) => listApprovals(ctx, args.organisationId),
  }),
);
