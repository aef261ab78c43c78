import { builder } from '../../graphql/builder.ts';
import { callerOf } from '../../graphql/context.ts';
import { IssueReportKindEnum } from '../../graphql/enums.ts';
import { RateLimitedError, ValidationError } from '../../lib/errors.ts';
import { ReportingUnavailableError } from './errors.ts';
import { IssueReportRef } from './reports.types.ts';
import { fileIssueReport } from './service.ts';

builder.mutationField('fileIssueReport', (t) =>
  t.prismaField({
    type: IssueReportRef,
    description:
      "Report a financier's approval criterion (kind approval: subjectOrg, approval, subjectField) or pricing figure (kind pricing: subjectOrg, rateBracket, subjectField) as wrong. Session only. Filing the same subject again while your report is open answers that report",
    authScopes: { session: true },
    args: {
      kind: t.arg({ type: IssueReportKindEnum, required: true, description: 'What is wrong: a criterion or a figure' }),
      subjectOrg: t.arg.int({ required: true, description: 'The financier the report is about' }),
      approval: t.arg.int({ description: 'The approval (kind approval; required then)' }),
      rateBracket: t.arg.int({ description: 'The rate bracket (kind pricing; required then)' }),
      subjectField: t.arg.string({
        required: true,
        description: 'The criterion (e.g. max_term) or figure (e.g. rate_min) that is wrong',
      }),
      comment: t.arg.string({ description: 'Optional, at most 2000 characters' }),
    },
    errors: { types: [ReportingUnavailableError, ValidationError, RateLimitedError], directResult: true },
    resolve: (_query, _root, args, ctx) =>
      fileIssueReport(ctx, callerOf(ctx), {
        kind: args.kind,
        subject_org: args.subjectOrg,
        approval: args.approval,
        rate_bracket: args.rateBracket,
        subject_field: args.subjectField,
        comment: args.comment,
      }),
  }),
);
