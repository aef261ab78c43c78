import { builder } from '../../graphql/builder.ts';
import { ApprovalOptionsRef } from './approval.types.ts';
import { approvalOptions } from './options.ts';

builder.queryField('approvalOptions', (t) =>
  t.field({
    type: ApprovalOptionsRef,
    description: 'GET /api/v1/approvals/options: doc levels, transaction types and ANZSIC industries, with labels',
    authScopes: { signedIn: true },
    errors: { directResult: true },
    resolve: () => approvalOptions(),
  }),
);
