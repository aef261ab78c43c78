/**
 * POST /reports: files an issue report (the spec names the endpoint but not its shape: docs/issue-reports.md).
 * Body: kind, subject_org, approval (kind approval), rate_bracket (kind pricing), subject_field, comment.
 * 201: the report (never its reporter). Filing a subject again while the caller's report of it is open answers
 * that open report (the same id): nothing new is stored.
 */
import { body, defineRoute } from '../../define-route.ts';

export default defineRoute({
  method: 'post',
  path: '/reports',
  document: `mutation RestFileIssueReport($kind: IssueReportKind!, $subject_org: Int!, $approval: Int, $rate_bracket: Int, $subject_field: String!, $comment: String) {
    fileIssueReport(kind: $kind, subjectOrg: $subject_org, approval: $approval, rateBracket: $rate_bracket, subjectField: $subject_field, comment: $comment) {
      __typename ... on IssueReport { id kind subject_org approval rate_bracket subject_field group_hash comment status created_at } ...ErrorFields } }`,
  variables: (req) => {
    const b = body(req);
    return {
      kind: b.kind,
      subject_org: b.subject_org,
      approval: b.approval,
      rate_bracket: b.rate_bracket,
      subject_field: b.subject_field,
      comment: b.comment,
    };
  },
  respond: (r) => {
    switch (r.__typename) {
      case 'IssueReport': {
        const { __typename, ...report } = r;
        return [201, report];
      }
      case 'ReportingUnavailableError':
        return [403, { error: r.message }];
      default:
        return undefined;
    }
  },
});
