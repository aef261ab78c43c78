import './reports.types.ts';
import './report-duplicates.query.ts';
import './file-issue-report.mutation.ts';
import './issue-reports.query.ts';
import './resolve-issue-report.mutation.ts';
