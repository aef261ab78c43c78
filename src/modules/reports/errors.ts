import { errorOf } from '../../lib/errors.ts';

/**
 * 403: reporting is not available on this account (docs/issue-reports.md "Availability"): the organisation's plan
 * lacks the `reports.enabled` entitlement, or the caller is a financier (financiers receive reports, they do not
 * file them) or belongs to no organisation.
 */
export class ReportingUnavailableError extends errorOf(
  'reporting_unavailable',
  'Issue reporting is not available on this account.',
) {}
