import { builder } from '../../graphql/builder.ts';
import { ApprovalRef } from './approval.types.ts';
import { APPROVAL_ORDER, approvalsWhere } from './service.ts';

builder.queryField('approvals', (t) =>
  t.prismaConnection({
    type: ApprovalRef,
    cursor: 'id',
    description:
      "Every financier's approvals, or one financier's (organisationId), by financier, then priority (highest first), then id. Readable by any signed-in caller; pages are capped",
    authScopes: { signedIn: true },
    errors: {},
    args: { organisationId: t.arg.int({ description: 'Only this financier' }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.approval.findMany({ ...query, where: approvalsWhere(args.organisationId), orderBy: APPROVAL_ORDER }),
  }),
);
