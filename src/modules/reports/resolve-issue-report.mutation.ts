import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { IssueReportRef } from './reports.types.ts';
import { resolveIssueReport } from './service.ts';

builder.mutationField('resolveIssueReport', (t) =>
  t.prismaField({
    type: IssueReportRef,
    description:
      "Resolve a report about your own financier catalogue (idempotent). Another financier's report answers NotFoundError like a missing one",
    authScopes: { $all: { write: true, organisationType: 'f' } },
    args: { id: t.arg.int({ required: true, description: "The report's id" }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: (_query, _root, args, ctx) => resolveIssueReport(ctx, callerOf(ctx), args.id),
  }),
);
