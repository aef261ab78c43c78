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
      kind: t.arg({ type: IssueReportKindEnum, required: true, description: 'What a report would be about' }),
      subjectOrg: t.arg.int({ description: 'The financier' }),
      approval: t.arg.int({ description: 'The approval (kind approval)' }),
      rateBracket: t.arg.int({ description: 'The rate bracket (kind pricing)' }),
      subjectField: t.arg.string({ description: 'The criterion or figure' }),
    },
    errors: { types: [ReportingUnavailableError], directResult: true },
    resolve: (_root, args, ctx) =>
      duplicateCount(ctx, callerOf(ctx), args.kind, {
        subject_org: args.subjectOrg,
        approval: args.approval,
        rate_bracket: args.rateBracket,
        subject_field: args.subjectField,
      }),
  }),
);
