import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import { DeletedApprovalRef } from './approval.types.ts';
import { deleteApproval } from './service.ts';

builder.mutationField('deleteApproval', (t) =>
  t.field({
    type: DeletedApprovalRef,
    description: "Deletes one of the caller's own approvals and its rate-bracket links",
    authScopes: { $all: { write: true, permission: 'change_approval' } },
    args: { id: t.arg.int({ required: true, description: "One of the caller's own approvals" }) },
    errors: { types: [NotFoundError, ForbiddenError], directResult: true },
    resolve: (_root, args, ctx) => deleteApproval(ctx, callerOf(ctx), args.id),
  }),
);
