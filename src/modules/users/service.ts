/**
 * User edits (PUT /users/{id}) and seats. Reactivation takes a seat under a lock on the organisation row, so of
 * many concurrent reactivations exactly as many win as there are free seats, across any number of processes.
 * Demoting, deactivating or removing an administrator takes the same lock, so an organisation always keeps at least
 * one active administrator, however many such edits race (two admins demoting each other: one wins, one gets 409).
 */
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { lockOrganisation } from '../organisations/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import { say } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import type { PlanName } from '../../lib/vocabulary.ts';
import { effectiveTerms, type PlanOverrides } from '../../lib/plans.ts';
import { LastAdminError, SeatLimitReachedError, type Seats } from './errors.ts';
import { queueAccountChange } from './team.notify.ts';

export interface UpdateUserInput {
  first_name?: string | null;
  last_name?: string | null;
  /** Only clearing (null) is possible; the same id is a no-op; another organisation is refused. */
  organisation_id?: number | null;
  is_admin?: boolean | null;
  is_active?: boolean | null;
}

/**
 * Seats.used: active users plus invites not yet accepted. An expired invite keeps its seat until it is withdrawn or
 * renewed (inviting the same email again): the administrator sees it in the list and decides, and a seat never
 * frees itself behind the administrator's back only to be taken by someone else.
 */
export async function seatsOf(tx: Db, organisationId: number): Promise<Seats> {
  const [row] = await tx.$queryRawUnsafe<{ used: number; plan: PlanName; plan_overrides: PlanOverrides }[]>(
    `
    SELECT o.plan::text AS plan, o.plan_overrides,
           (SELECT count(*)::int FROM users u WHERE u.organisation_id = o.id AND u.is_active)
         + (SELECT count(*)::int FROM invitations i WHERE i.organisation_id = o.id AND i.accepted_at IS NULL) AS used
      FROM organisations o WHERE o.id = $1`,
    organisationId,
  );
  return { used: row.used, limit: effectiveTerms(row.plan, row.plan_overrides).limit };
}

/**
 * Under the organisation's lock: refuses (LastAdminError) an edit that would take away the organisation's last
 * active administrator, and rechecks what the request was authorised on, which a concurrent edit may have changed
 * since the caller was read: the caller still an active admin (when needed), the target still in the organisation.
 */
async function requireAnotherAdmin(
  tx: Db,
  ctx: Pick<ServiceContext, 'client'>,
  caller: Caller,
  targetId: number,
  organisationId: number,
  needsAdmin: boolean,
): Promise<void> {
  const rows = await tx.$queryRawUnsafe<
    { id: number; organisation_id: number | null; is_admin: boolean; is_active: boolean }[]
  >(
    `SELECT id, organisation_id, is_admin, is_active FROM users
      WHERE (organisation_id = $1 AND is_admin AND is_active) OR id = $2`,
    organisationId,
    targetId,
  );
  const target = rows.find((r) => r.id === targetId);
  if (!target || (target.organisation_id !== organisationId && targetId !== caller.userId))
    throw new NotFoundError(say('not_found_user', ctx.client));
  const admins = rows.filter((r) => r.organisation_id === organisationId && r.is_admin && r.is_active).map((r) => r.id);
  if (admins.includes(targetId) && admins.length === 1) throw new LastAdminError(say('last_admin', ctx.client));
  if (needsAdmin && !admins.includes(caller.userId)) throw new ForbiddenError(say('forbidden_admin_only', ctx.client));
}

export async function updateUser(
  ctx: Pick<ServiceContext, 'prisma' | 'client' | 'clock'>,
  caller: Caller,
  id: number,
  input: UpdateUserInput,
) {
  const target = await ctx.prisma.user.findUnique({
    where: { id },
    select: { id: true, organisation_id: true, is_active: true, is_admin: true },
  });
  const self = target?.id === caller.userId;
  const sameOrganisation = target?.organisation_id != null && target.organisation_id === caller.organisation?.id;
  // Another tenant's user answers exactly like a missing one.
  if (!target || (!self && !sameOrganisation)) throw new NotFoundError(say('not_found_user', ctx.client));
  if (!self && !caller.isAdmin) throw new ForbiddenError(say('forbidden_edit_other_users', ctx.client));
  if (self && !caller.isAdmin && input.is_admin === true)
    throw new ForbiddenError(say('forbidden_raise_own_rights', ctx.client));
  if (self && input.is_active === false) throw new ForbiddenError(say('forbidden_deactivate_self', ctx.client));

  const data: Prisma.UserUpdateInput = {};
  for (const key of ['first_name', 'last_name'] as const) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (value.length > 150) throw ValidationError.of(key, 'Ensure this field has no more than 150 characters.');
    data[key] = value.trim();
  }
  if (input.organisation_id !== undefined) {
    if (input.organisation_id === null) data.organisation = { disconnect: true };
    else if (input.organisation_id !== target.organisation_id)
      throw ValidationError.of(
        'organisation_id',
        'A user cannot be moved to another organisation; it can only be cleared.',
      );
  }
  if (input.is_admin !== undefined && input.is_admin !== null && input.is_admin !== target.is_admin) {
    if (!caller.isAdmin) throw new ForbiddenError(say('forbidden_change_admin_rights', ctx.client));
    data.is_admin = input.is_admin;
  }
  const reactivating = input.is_active === true && !target.is_active;
  if (input.is_active === false) data.is_active = false;
  const staysInOrganisation = input.organisation_id !== null && target.organisation_id !== null;

  // Demoting, deactivating or removing a user can take away the organisation's last active administrator.
  const removesAdminStanding =
    target.organisation_id !== null &&
    (data.is_admin === false || input.is_active === false || input.organisation_id === null);
  // Editing someone else or anyone's admin rights rests on the caller being an active admin; rechecked under the lock.
  const needsAdmin = !self || data.is_admin !== undefined;

  return ctx.prisma.$transaction(async (tx) => {
    if (removesAdminStanding) {
      await lockOrganisation(tx, target.organisation_id!);
      await requireAnotherAdmin(tx, ctx, caller, target.id, target.organisation_id!, needsAdmin);
    }
    if (reactivating) {
      if (staysInOrganisation) {
        await lockOrganisation(tx, target.organisation_id!);
        const seats = await seatsOf(tx, target.organisation_id!);
        if (seats.limit !== null && seats.used >= seats.limit) {
          throw new SeatLimitReachedError(
            say('seat_limit_reached', ctx.client, { used: seats.used, limit: seats.limit }),
            seats,
          );
        }
      }
      data.is_active = true;
    }
    const updated = await tx.user.update({
      where: { id },
      data,
      include: { groups: { include: { permissions: true } } },
    });
    await queueAccountChange(tx, target, updated);
    return updated;
  });
}
