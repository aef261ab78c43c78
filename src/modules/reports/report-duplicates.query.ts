import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { IssueReportKindEnum } from '../../graphql/enums.ts';
import { ReportingUnavailableError } from './errors.ts';
import { DuplicateCountRef } from './reports.types.ts';
import { duplicateCount } from './service.ts';

builder.queryField('issueReportDuplicates', (t) =>
  t.field({
    type: DuplicateCountRef,
    description:
      'Open reports sharing the grouping key of this subject (GET /reports/duplicates). Session only; a partial subject answers count 0',
    authScopes: { session: true },
    args: {
      kind: t.arg({ type: IssueReportKindEnum, required: true }),
      subject_org: t.arg.int(),
      approval: t.arg.int(),
      rate_bracket: t.arg.int(),
      subject_field: t.arg.string(),
    },
    errors: { types: [ReportingUnavailableError], directResult: true },
    resolve: (_root, args, ctx) => duplicateCount(ctx, callerOf(ctx), args.kind, args),
  }),
);
