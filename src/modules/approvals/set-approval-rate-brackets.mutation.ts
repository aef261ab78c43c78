import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { ApprovalRef } from './approval.types.ts';
import { setApprovalRateBrackets } from './service.ts';

builder.mutationField('setApprovalRateBrackets', (t) =>
  t.prismaField({
    type: ApprovalRef,
    description:
      "Replaces the rate brackets one of the caller's own approvals is linked to; each must be a bracket of the caller's own rate card",
    authScopes: { $all: { write: true, permission: 'change_approval' } },
    args: {
      id: t.arg.int({ required: true, description: "One of the caller's own approvals" }),
      rateBracketIds: t.arg.intList({
        required: true,
        description: "The complete new list, at most 500 brackets of the caller's own rate card; empty unlinks all",
      }),
    },
    errors: { types: [NotFoundError, ForbiddenError, ValidationError], directResult: true },
    resolve: (_query, _root, args, ctx) => setApprovalRateBrackets(ctx, callerOf(ctx), args.id, args.rateBracketIds),
  }),
);
