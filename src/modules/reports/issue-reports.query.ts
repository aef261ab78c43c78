import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { IssueReportStatusEnum } from '../../graphql/enums.ts';
import { IssueReportRef } from './reports.types.ts';
import { issueReportsWhere } from './service.ts';

builder.queryField('issueReports', (t) =>
  t.prismaConnection({
    type: IssueReportRef,
    cursor: 'id',
    description:
      "Reports about the caller's own financier catalogue, newest first: administrators see every kind, holders of change_approval the approval reports, holders of change_rate_card the pricing ones",
    authScopes: { $all: { signedIn: true, organisationType: 'f' } },
    args: { status: t.arg({ type: IssueReportStatusEnum, description: 'Only this status (default: both)' }) },
    errors: { directResult: true },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.issueReport.findMany({
        ...query,
        where: issueReportsWhere(ctx.client, callerOf(ctx), args.status),
        orderBy: { id: 'desc' },
      }),
  }),
);
