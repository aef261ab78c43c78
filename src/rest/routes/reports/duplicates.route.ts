/**
 * GET /reports/duplicates?kind=&subject_org=&approval=&rate_bracket=&subject_field=: open reports sharing a grouping
 * key (docs/issue-reports.md). Session only (API token: 403); 403 also where reporting is unavailable on the account;
 * 400 for a missing or unknown `kind` and for a non-integer id, naming the field. A repeated parameter is 400 too.
 * A blank parameter (`?subject_org=`, as forms send an empty field) is absent: the subject is partial, so count 0.
 */
import { defineRoute, intParam } from '../../define-route.ts';

const blank = (value: unknown) => typeof value === 'string' && value.trim() === '';
const int = (value: unknown) =>
  value === undefined || blank(value) ? undefined : typeof value === 'string' ? intParam(value) : value;

export default defineRoute({
  method: 'get',
  path: '/reports/duplicates',
  document: `query RestReportDuplicates($kind: IssueReportKind!, $subject_org: Int, $approval: Int, $rate_bracket: Int, $subject_field: String) {
    issueReportDuplicates(kind: $kind, subjectOrg: $subject_org, approval: $approval, rateBracket: $rate_bracket, subjectField: $subject_field) {
      __typename ... on IssueReportDuplicates { group_hash count } ...ErrorFields } }`,
  variables: (req) => ({
    kind: req.query.kind,
    subject_org: int(req.query.subject_org),
    approval: int(req.query.approval),
    rate_bracket: int(req.query.rate_bracket),
    subject_field: blank(req.query.subject_field) ? undefined : req.query.subject_field,
  }),
  respond: (r) => {
    switch (r.__typename) {
      case 'IssueReportDuplicates':
        return [200, { group_hash: r.group_hash, count: r.count }];
      case 'ReportingUnavailableError':
        return [403, { error: r.message }];
      default:
        return undefined;
    }
  },
});
