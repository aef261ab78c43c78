import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { ApprovalInputRef, ApprovalRef } from './approval.types.ts';
import { updateApproval } from './service.ts';

builder.mutationField('updateApproval', (t) =>
  t.prismaField({
    type: ApprovalRef,
    description:
      "PUT /api/v1/approvals/{id}: replaces every writable field (absent = null or empty) of one of the caller's own approvals",
    authScopes: { $all: { write: true, permission: 'change_approval' } },
    args: {
      id: t.arg.int({ required: true, description: "One of the caller's own approvals" }),
      input: t.arg({
        type: ApprovalInputRef,
        required: true,
        description: 'The whole approval: absent fields are stored as null (not checked) or empty',
      }),
    },
    errors: { types: [NotFoundError, ForbiddenError, ValidationError], directResult: true },
    resolve: (_query, _root, args, ctx) => updateApproval(ctx, callerOf(ctx), args.id, args.input),
  }),
);
