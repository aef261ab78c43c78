/**
 * Approvals: reads open to any signed-in caller; writes only to the caller's own financier organisation (spec
 * Authentication 10). GraphQL and REST call these same functions, so both answer the same statuses and sentences.
 * Every write is one transaction that first locks the approval row: the checks (owner, rate brackets) and the write
 * see the same rows, and the catalogue-version triggers bump the version in that transaction, so the next Matrix run
 * reads the change.
 */
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { FieldErrors, ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import { hasPermission } from '../../lib/policy.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { ASSET_STATE_UNCHECKED } from '../catalogue/index.ts';
import {
  type ApprovalInput,
  MAX_APPROVAL_RATE_BRACKETS,
  MAX_REST_APPROVALS,
  approvalInputErrors,
  assetIdsOf,
  distinct,
} from './validate.ts';

/** The order every approval list uses: by financier, then its headline row first (priority desc), then id. */
export const APPROVAL_ORDER: Prisma.ApprovalOrderByWithRelationInput[] = [
  { organisation_id: 'asc' },
  { priority: 'desc' },
  { id: 'asc' },
];

type Ctx = Pick<ServiceContext, 'prisma' | 'client'>;

/** The filter of a list: one financier's approvals, or everyone's. */
export function approvalsWhere(organisationId: number | null | undefined): Prisma.ApprovalWhereInput {
  return organisationId === null || organisationId === undefined ? {} : { organisation_id: organisationId };
}

/** One REST page: the first MAX_REST_APPROVALS approvals in list order, and how many matched. */
export async function listApprovals(ctx: Ctx, organisationId: number | null | undefined) {
  const where = approvalsWhere(organisationId);
  const [approvals, total] = await Promise.all([
    ctx.prisma.approval.findMany({ where, orderBy: APPROVAL_ORDER, take: MAX_REST_APPROVALS }),
    ctx.prisma.approval.count({ where }),
  ]);
  return { approvals, total_count: total, truncated: total > approvals.length };
}

export async function approvalById(ctx: Ctx, id: number) {
  const approval = await ctx.prisma.approval.findUnique({ where: { id } });
  if (!approval) throw new NotFoundError(say('not_found_approval', ctx.client));
  return approval;
}

/**
 * The caller's own financier organisation, when they may edit approvals: the `change_approval` permission (admins
 * hold all) and a financier organisation. GraphQL's scopes check the permission first; this repeats it so a service
 * caller without the schema gets the same answer.
 */
function writableOrganisation(ctx: Ctx, caller: Caller): number {
  const organisation = caller.organisation;
  if (organisation?.type !== 'f' || !hasPermission(caller, 'change_approval'))
    throw new ForbiddenError(say('forbidden', ctx.client));
  return organisation.id;
}

/** Locks the approval and checks it is the caller's: a missing id is 404, another organisation's 403 (spec). */
async function lockOwnApproval(tx: Db, ctx: Ctx, id: number, organisationId: number): Promise<void> {
  const [row] = await tx.$queryRawUnsafe<{ organisation_id: number }[]>(
    'SELECT organisation_id FROM approvals WHERE id = $1 FOR UPDATE',
    id,
  );
  if (!row) throw new NotFoundError(say('not_found_approval', ctx.client));
  if (row.organisation_id !== organisationId) throw new ForbiddenError(say('forbidden', ctx.client));
}

/**
 * Rate brackets must be the caller's own. Those found are locked (KEY SHARE), so a concurrent delete waits for this
 * transaction instead of breaking the link's foreign key halfway. A foreign bracket and a missing one read the same.
 * Locked in id order, as a rate-card change locks the brackets it deletes, so the two queue and never deadlock.
 */
async function checkRateBrackets(
  tx: Db,
  errors: FieldErrors,
  field: string,
  ids: number[],
  organisationId: number,
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
    'SELECT id FROM rate_brackets WHERE id = ANY($1::int[]) AND organisation_id = $2 ORDER BY id FOR KEY SHARE',
    ids,
    organisationId,
  );
  const found = new Set(rows.map((r) => r.id));
  const foreign = ids.filter((id) => !found.has(id));
  if (foreign.length) errors.add(field, `Not rate brackets of your organisation: ${listed(foreign)}.`);
}

async function checkAssets(tx: Db, errors: FieldErrors, input: ApprovalInput, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await tx.asset.findMany({ where: { id: { in: ids }, is_deleted: false }, select: { id: true } });
  const found = new Set(rows.map((r) => r.id));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) errors.add(input.asset_ids ? 'asset_ids' : 'assets', `Unknown asset ids: ${listed(unknown)}.`);
}

/** A few ids for a message (the whole list could be 500 long). */
function listed(ids: number[]): string {
  return ids.length > 10 ? `${ids.slice(0, 10).join(', ')} and ${ids.length - 10} more` : ids.join(', ');
}

/** The row's columns from the input: PUT semantics, so an absent optional field is stored as null (or empty). */
function columnsOf(input: ApprovalInput) {
  const money = (v: number | null | undefined, places: number) =>
    v === null || v === undefined ? null : v.toFixed(places);
  const value = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);
  return {
    name: input.name.trim(),
    doc_level: input.doc_level,
    priority: input.priority ?? 0,
    min_deposit_percentage: money(input.min_deposit_percentage, 4),
    min_deposit_amount: money(input.min_deposit_amount, 2),
    max_term: value(input.max_term),
    min_term: value(input.min_term),
    min_abn_age: value(input.min_abn_age),
    max_abn_age: value(input.max_abn_age),
    min_gst_age: value(input.min_gst_age),
    max_gst_age: value(input.max_gst_age),
    min_asset_age: value(input.min_asset_age),
    max_asset_age: value(input.max_asset_age),
    min_asset_cost: money(input.min_asset_cost, 2),
    max_asset_cost: money(input.max_asset_cost, 2),
    min_borrower_age: value(input.min_borrower_age),
    max_borrower_age: value(input.max_borrower_age),
    min_file_age: value(input.min_file_age),
    max_file_age: value(input.max_file_age),
    min_credit_score: value(input.min_credit_score),
    max_credit_score: value(input.max_credit_score),
    home_owner: value(input.home_owner),
    private_sale: value(input.private_sale),
    sale_hire_back: value(input.sale_hire_back),
    asset_state: input.asset_state ?? ASSET_STATE_UNCHECKED,
    transaction_types: distinct(input.transaction_types),
    industries: distinct(input.industries),
    asset_ids: assetIdsOf(input),
  };
}

/**
 * Checks everything about an input (pure rules, then the references in `tx`) and throws one ValidationError naming
 * every bad field.
 */
async function validated(tx: Db, input: ApprovalInput, organisationId: number): Promise<void> {
  const errors = new FieldErrors();
  const ruleErrors = approvalInputErrors(input);
  for (const e of ruleErrors) for (const m of e.messages) errors.add(e.field, m);
  if (input.organisation_id !== null && input.organisation_id !== undefined && input.organisation_id !== organisationId)
    errors.add('organisation_id', 'An approval belongs to your organisation and cannot be moved to another.');
  const lists = new Set(ruleErrors.map((e) => e.field));
  if (!lists.has('asset_ids') && !lists.has('assets')) await checkAssets(tx, errors, input, assetIdsOf(input));
  if (!lists.has('rate_bracket_ids'))
    await checkRateBrackets(tx, errors, 'rate_bracket_ids', distinct(input.rate_bracket_ids), organisationId);
  errors.throwIfAny();
}

async function replaceLinks(tx: Db, approvalId: number, rateBracketIds: number[]): Promise<void> {
  await tx.approvalRateBracket.deleteMany({ where: { approval_id: approvalId } });
  if (rateBracketIds.length)
    await tx.approvalRateBracket.createMany({
      data: rateBracketIds.map((rate_bracket_id) => ({ approval_id: approvalId, rate_bracket_id })),
    });
}

export async function createApproval(ctx: Ctx, caller: Caller, input: ApprovalInput) {
  const organisationId = writableOrganisation(ctx, caller);
  return ctx.prisma.$transaction(async (tx) => {
    await validated(tx, input, organisationId);
    const approval = await tx.approval.create({ data: { ...columnsOf(input), organisation_id: organisationId } });
    await replaceLinks(tx, approval.id, distinct(input.rate_bracket_ids));
    return approval;
  });
}

/** PUT: replaces every writable field (absent = null or empty), rate-bracket links included. */
export async function updateApproval(ctx: Ctx, caller: Caller, id: number, input: ApprovalInput) {
  const organisationId = writableOrganisation(ctx, caller);
  return ctx.prisma.$transaction(async (tx) => {
    await lockOwnApproval(tx, ctx, id, organisationId);
    await validated(tx, input, organisationId);
    const approval = await tx.approval.update({ where: { id }, data: columnsOf(input) });
    await replaceLinks(tx, id, distinct(input.rate_bracket_ids));
    return approval;
  });
}

export async function deleteApproval(ctx: Ctx, caller: Caller, id: number): Promise<{ id: number }> {
  const organisationId = writableOrganisation(ctx, caller);
  return ctx.prisma.$transaction(async (tx) => {
    await lockOwnApproval(tx, ctx, id, organisationId);
    await tx.approval.delete({ where: { id } }); // its bracket links go with it (ON DELETE CASCADE)
    return { id };
  });
}

/** Replaces an approval's rate-bracket links with brackets of the caller's own rate card. */
export async function setApprovalRateBrackets(ctx: Ctx, caller: Caller, id: number, rateBracketIds: number[]) {
  const organisationId = writableOrganisation(ctx, caller);
  const ids = distinct(rateBracketIds);
  return ctx.prisma.$transaction(async (tx) => {
    await lockOwnApproval(tx, ctx, id, organisationId); // 404 and 403 before the list is judged, as on PUT
    if (rateBracketIds.length > MAX_APPROVAL_RATE_BRACKETS)
      throw ValidationError.of(
        'rateBracketIds',
        `Ensure this list has no more than ${MAX_APPROVAL_RATE_BRACKETS} items.`,
      );
    const errors = new FieldErrors();
    await checkRateBrackets(tx, errors, 'rateBracketIds', ids, organisationId);
    errors.throwIfAny();
    await replaceLinks(tx, id, ids);
    // Touch the row: its updated_at records the change, and the statement bumps the catalogue version too.
    return tx.approval.update({ where: { id }, data: { updated_at: new Date() } });
  });
}

/** Each approval's rate-bracket ids, in one query for any number of approvals (the GraphQL field's loader). */
export async function rateBracketIdsOf(prisma: Db, approvalIds: readonly number[]): Promise<number[][]> {
  const links = await prisma.approvalRateBracket.findMany({
    where: { approval_id: { in: [...approvalIds] } },
    select: { approval_id: true, rate_bracket_id: true },
    orderBy: [{ approval_id: 'asc' }, { rate_bracket_id: 'asc' }],
  });
  const byApproval = new Map<number, number[]>();
  for (const l of links) {
    const list = byApproval.get(l.approval_id);
    if (list) list.push(l.rate_bracket_id);
    else byApproval.set(l.approval_id, [l.rate_bracket_id]);
  }
  return approvalIds.map((id) => byApproval.get(id) ?? []);
}

/** Approvals by id, in one query (the `approval` field of result rows). Order follows `ids`; a missing id is null. */
export async function approvalsByIds(prisma: Db, ids: readonly number[]) {
  const rows = await prisma.approval.findMany({ where: { id: { in: [...ids] } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * The rate brackets each approval links, in two queries for all approvals together (the links with the brackets
 * joined as a filter, then the brackets), by bracket id. `book` is the caller's readable financiers (null: all):
 * a financier reading another financier's approval gets none of its brackets, as rateBrackets would refuse them.
 */
export async function rateBracketsOf(
  prisma: Db,
  approvalIds: readonly number[],
  book: ReadonlySet<number> | null,
): Promise<Prisma.RateBracketGetPayload<object>[][]> {
  const links = await prisma.approvalRateBracket.findMany({
    where: {
      approval_id: { in: [...approvalIds] },
      ...(book === null ? {} : { rate_bracket: { organisation_id: { in: [...book] } } }),
    },
    select: { approval_id: true, rate_bracket: true },
    orderBy: [{ approval_id: 'asc' }, { rate_bracket_id: 'asc' }],
  });
  const byApproval = new Map<number, Prisma.RateBracketGetPayload<object>[]>();
  for (const l of links) {
    const list = byApproval.get(l.approval_id);
    if (list) list.push(l.rate_bracket);
    else byApproval.set(l.approval_id, [l.rate_bracket]);
  }
  return approvalIds.map((id) => byApproval.get(id) ?? []);
}
