import { builder } from '../../graphql/builder.ts';
import { IssueReportKindEnum, IssueReportStatusEnum } from '../../graphql/enums.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import type { IssueReportKind, IssueReportStatus } from '../../lib/vocabulary.ts';
import { ReportingUnavailableError } from './errors.ts';
import type { DuplicateCount } from './service.ts';

export const IssueReportRef = builder.prismaObject('IssueReport', {
  description:
    "An issue report about a financier's approval criterion or pricing figure. Never names its reporter (docs/issue-reports.md)",
  fields: (t) => ({
    id: t.exposeInt('id', { description: "The report's id" }),
    kind: t.field({
      type: IssueReportKindEnum,
      description: 'What it is about',
      resolve: (r) => r.kind as IssueReportKind,
    }),
    subject_org: t.exposeInt('subject_org', { nullable: true, description: 'The financier the report is about' }),
    approval: t.exposeInt('approval', { nullable: true, description: 'The approval (kind approval)' }),
    rate_bracket: t.exposeInt('rate_bracket', { nullable: true, description: 'The rate bracket (kind pricing)' }),
    subject_field: t.exposeString('subject_field', { nullable: true, description: 'The criterion or figure reported' }),
    group_hash: t.exposeString('group_hash', { description: 'The grouping key shared by reports of the same subject' }),
    comment: t.exposeString('comment', {
      description: "The reporter's words, at most 2000 characters; empty when none",
    }),
    status: t.field({
      type: IssueReportStatusEnum,
      description: 'Open until the financier resolves it',
      resolve: (r) => r.status as IssueReportStatus,
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When it was filed' }),
    resolved_at: t.expose('resolved_at', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was resolved; null while open',
    }),
  }),
});

export const DuplicateCountRef = builder.objectRef<DuplicateCount>('IssueReportDuplicates').implement({
  description: 'How many open reports share a grouping key; never a report, a reporter or a comment',
  fields: (t) => ({
    group_hash: t.exposeString('group_hash', { description: 'The key a report of this subject would be stored under' }),
    count: t.exposeInt('count', { description: 'Open reports sharing it (0 for a partial subject)' }),
  }),
});

builder.objectType(ReportingUnavailableError, {
  name: 'ReportingUnavailableError',
  description: 'Issue reporting is not available on this account (REST: 403)',
  interfaces: [ErrorInterface],
});
