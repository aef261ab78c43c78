import { builder } from '../../graphql/builder.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { ApprovalRef } from './approval.types.ts';
import { approvalById } from './service.ts';

builder.queryField('approval', (t) =>
  t.prismaField({
    type: ApprovalRef,
    description: 'One approval, any financier (readable by any signed-in caller)',
    authScopes: { signedIn: true },
    args: { id: t.arg.int({ required: true, description: 'The approval id' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_query, _root, args, ctx) => approvalById(ctx, args.id),
  }),
);
