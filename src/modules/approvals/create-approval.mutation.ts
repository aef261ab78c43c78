import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, ValidationError } from '../../lib/errors.ts';
import { ApprovalInputRef, ApprovalRef } from './approval.types.ts';
import { createApproval } from './service.ts';

builder.mutationField('createApproval', (t) =>
  t.prismaField({
    type: ApprovalRef,
    description:
      "A new approval of the caller's own financier organisation (a session or read_write token with change_approval)",
    authScopes: { $all: { write: true, permission: 'change_approval' } },
    args: {
      input: t.arg({
        type: ApprovalInputRef,
        required: true,
        description: "Every writable field; the organisation is the caller's",
      }),
    },
    errors: { types: [ForbiddenError, ValidationError], directResult: true },
    resolve: (_query, _root, args, ctx) => createApproval(ctx, callerOf(ctx), args.input),
  }),
);
