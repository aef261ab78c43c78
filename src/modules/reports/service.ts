/**
 * Issue reports (docs/issue-reports.md): a broker files one about a financier's approval criterion (`approval`) or
 * a rate or repayment figure (`pricing`); reports sharing a subject share a grouping key (subject.ts); the duplicate
 * count tells a client, before filing, how many open reports already share it; the financier concerned lists and
 * resolves the reports about its own catalogue.
 */
import type { IssueReport, Prisma } from '../../generated/prisma/client.ts';
import { FieldErrors, NotFoundError, RateLimitedError, ForbiddenError } from '../../lib/errors.ts';
import type { Db } from '../../lib/db.ts';
import type { IssueReportKind, IssueReportStatus } from '../../lib/vocabulary.ts';
import { say, type ClientKind } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import { hasPermission } from '../../lib/policy.ts';
import type { PermissionCodename } from '../../lib/permissions.ts';
import { termsOf } from '../../lib/caller.ts';
import { snapshotFor } from '../catalogue/index.ts';
import { queueNotification } from '../notifications/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { ReportingUnavailableError } from './errors.ts';
import { groupHash, isComplete, SUBJECT_FIELDS, subjectOf, type SubjectInput } from './subject.ts';

/** Longest comment accepted (characters, after trimming). */
const COMMENT_MAX_LENGTH = 2000;
/** Reports one user may file per rolling 24 hours (each notifies the financier's staff). */
const REPORTS_PER_DAY = 50;
const DAY_MS = 86_400_000;

/** Who, at the financier, answers a kind of report (besides its administrators). */
const PERMISSION_FOR_KIND: Record<IssueReportKind, PermissionCodename> = {
  approval: 'change_approval',
  pricing: 'change_rate_card',
};

/**
 * Reporting availability is per account (spec Authentication 9): the organisation's plan carries the
 * `reports.enabled` entitlement, and the caller is one who sees results about financiers (a broker or a user
 * organisation). Financiers receive reports; a user of no organisation has no plan.
 */
export function reportingAvailable(caller: Caller): boolean {
  const organisation = caller.organisation;
  if (!organisation || organisation.type === 'f') return false;
  return termsOf(caller).entitlements.includes('reports.enabled');
}

function requireReporting(caller: Caller): void {
  if (!reportingAvailable(caller)) throw new ReportingUnavailableError();
}

export interface DuplicateCount {
  group_hash: string;
  count: number;
}

/**
 * GET /reports/duplicates: the key a report of this subject would be stored under, and how many open reports share
 * it. A partial subject (or a field its kind does not know) answers count 0 without a query: no report can be stored
 * under it. Never returns a report, a reporter or a comment.
 */
export async function duplicateCount(
  ctx: Pick<ServiceContext, 'prisma'>,
  caller: Caller,
  kind: IssueReportKind,
  input: SubjectInput,
): Promise<DuplicateCount> {
  requireReporting(caller);
  const subject = subjectOf(kind, input);
  const group_hash = groupHash(kind, subject);
  if (!isComplete(kind, subject)) return { group_hash, count: 0 };
  const count = await ctx.prisma.issueReport.count({ where: { group_hash, status: 'open' } });
  return { group_hash, count };
}

export interface FileIssueReportInput extends SubjectInput {
  kind: IssueReportKind;
  comment?: string | null;
}

/** The active users of the financier who answer this kind of report: admins and holders of its permission. */
async function reportRecipients(db: Db, organisationId: number, kind: IssueReportKind): Promise<number[]> {
  const users = await db.user.findMany({
    where: {
      organisation_id: organisationId,
      is_active: true,
      OR: [
        { is_admin: true },
        { groups: { some: { permissions: { some: { codename: PERMISSION_FOR_KIND[kind] } } } } },
      ],
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return users.map((u) => u.id);
}

/**
 * Files a report. Validation names each field: the subject must be complete and exist in the catalogue (the
 * financier, its approval or rate bracket, a field of the kind's list); a part the kind does not use is refused.
 * One open report per reporter per subject: filing it again answers the open one (nothing new is stored or
 * queued). At most REPORTS_PER_DAY per reporter per 24 hours (429). Both are decided under a lock on the
 * reporter's user row, so concurrent filings cannot slip past either.
 */
export async function fileIssueReport(
  ctx: Pick<ServiceContext, 'prisma' | 'clock' | 'cache' | 'auth' | 'services'>,
  caller: Caller,
  input: FileIssueReportInput,
): Promise<IssueReport> {
  requireReporting(caller);
  const { kind } = input;
  const errors = new FieldErrors();
  const snapshot = await snapshotFor(ctx);
  const org = input.subject_org ?? null;
  const financier = org === null ? undefined : snapshot.organisations.get(org);
  if (org === null) errors.add('subject_org', 'This field is required.');
  else if (financier?.type !== 'f') errors.add('subject_org', 'No such financier.');
  if (kind === 'approval') {
    if (input.rate_bracket != null) errors.add('rate_bracket', 'Not part of an approval report.');
    if (input.approval == null) errors.add('approval', 'This field is required.');
    else if (snapshot.approvals.find((a) => a.id === input.approval)?.organisation_id !== org || org === null)
      errors.add('approval', 'No such approval of this financier.');
  } else {
    if (input.approval != null) errors.add('approval', 'Not part of a pricing report.');
    if (input.rate_bracket == null) errors.add('rate_bracket', 'This field is required.');
    else if (snapshot.bracketsById.get(input.rate_bracket)?.organisation_id !== org || org === null)
      errors.add('rate_bracket', 'No such rate bracket of this financier.');
  }
  const field = input.subject_field ?? null;
  if (field === null || field === '') errors.add('subject_field', 'This field is required.');
  else if (!SUBJECT_FIELDS[kind].includes(field))
    errors.add('subject_field', `Must be one of: ${SUBJECT_FIELDS[kind].join(', ')}.`);
  const comment = (input.comment ?? '').trim();
  if (comment.length > COMMENT_MAX_LENGTH)
    errors.add('comment', `Ensure this field has no more than ${COMMENT_MAX_LENGTH} characters.`);
  errors.throwIfAny();

  const subject = subjectOf(kind, input);
  const group_hash = groupHash(kind, subject);
  const now = ctx.clock.now();
  return ctx.prisma.$transaction(async (tx) => {
    await tx.$queryRawUnsafe('SELECT id FROM users WHERE id = $1::int FOR NO KEY UPDATE', caller.userId);
    const open = await tx.issueReport.findFirst({ where: { reporter_id: caller.userId, group_hash, status: 'open' } });
    if (open) return open;
    const since = new Date(now.getTime() - DAY_MS);
    const recent = await tx.issueReport.findMany({
      where: { reporter_id: caller.userId, created_at: { gt: since } },
      select: { created_at: true },
      orderBy: { created_at: 'asc' },
      take: REPORTS_PER_DAY,
    });
    if (recent.length >= REPORTS_PER_DAY) {
      const retry = Math.max(1, Math.ceil((recent[0].created_at.getTime() + DAY_MS - now.getTime()) / 1000));
      throw new RateLimitedError(retry, `You can file at most ${REPORTS_PER_DAY} reports a day. Try again later.`);
    }
    const report = await tx.issueReport.create({
      data: { reporter_id: caller.userId, kind, ...subject, group_hash, comment, status: 'open', created_at: now },
    });
    await queueNotification(tx, {
      category: 'issue_reports',
      userIds: await reportRecipients(tx, subject.subject_org!, kind),
      title: kind === 'approval' ? 'Approval criterion reported' : 'Pricing figure reported',
      body: `A broker reported ${subject.subject_field} as wrong or stale.`,
      data: { kind, report_id: report.id, group_hash, approval: subject.approval, rate_bracket: subject.rate_bracket },
    });
    return report;
  });
}

/** The kinds of report this financier user answers: all for admins, else those of the permissions they hold. */
function answerableKinds(caller: Caller): IssueReportKind[] {
  if (caller.organisation?.type !== 'f') return [];
  return (Object.keys(PERMISSION_FOR_KIND) as IssueReportKind[]).filter((k) =>
    hasPermission(caller, PERMISSION_FOR_KIND[k]),
  );
}

/** The `where` of a financier's report list: its own catalogue's reports, of the kinds the caller answers. */
export function issueReportsWhere(
  client: ClientKind,
  caller: Caller,
  status: IssueReportStatus | null | undefined,
): Prisma.IssueReportWhereInput {
  const kinds = answerableKinds(caller);
  if (kinds.length === 0) throw new ForbiddenError(say('forbidden_issue_reports', client));
  return { subject_org: caller.organisation!.id, kind: { in: kinds }, ...(status ? { status } : {}) };
}

/**
 * Resolves one report about the caller's own catalogue (idempotent: a resolved one is answered as it is). Another
 * financier's report, one of a kind the caller does not answer, and a missing id answer NotFoundError alike. The
 * reporter is told (`issue_reports`), once.
 */
export async function resolveIssueReport(
  ctx: Pick<ServiceContext, 'prisma' | 'clock' | 'client'>,
  caller: Caller,
  id: number,
): Promise<IssueReport> {
  const kinds = answerableKinds(caller);
  const where = { id, subject_org: caller.organisation?.id ?? -1, kind: { in: kinds } };
  return ctx.prisma.$transaction(async (tx) => {
    const report = await tx.issueReport.findFirst({ where });
    if (!report || kinds.length === 0) throw new NotFoundError(say('not_found_issue_report', ctx.client));
    const changed = await tx.issueReport.updateMany({
      where: { ...where, status: 'open' },
      data: { status: 'resolved', resolved_at: ctx.clock.now(), resolved_by_id: caller.userId },
    });
    if (changed.count === 1)
      await queueNotification(tx, {
        category: 'issue_reports',
        userIds: [report.reporter_id],
        title: 'Report resolved',
        body: `Your report about ${report.subject_field ?? 'a figure'} was resolved by the financier.`,
        data: { kind: report.kind, report_id: report.id },
      });
    return tx.issueReport.findUniqueOrThrow({ where: { id } });
  });
}
