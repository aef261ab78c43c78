import { builder } from '../../graphql/builder.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { ApprovalCountRef } from './approval.types.ts';
import { countApprovals } from './service.ts';

builder.queryField('approvalCount', (t) =>
  t.field({
    type: ApprovalCountRef,
    description: 'How many approvals a financier has (readable by any signed-in caller, as the approvals are)',
    authScopes: { signedIn: true },
    args: { organisationId: t.arg.int({ required: true, description: 'The financier' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_root, args, ctx) => countApprovals(ctx, args.organisationId),
  }),
);
