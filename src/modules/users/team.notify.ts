/**
 * `account` notifications for seat, administrator, invitation and API-token changes (docs/team.md "Notifications").
 * Recipients: the organisation's active administrators and the user concerned. Queued in the transaction of the
 * change, so a notification exists exactly when its change does; delivery happens elsewhere, later.
 */
import type { Db } from '../../lib/db.ts';
import { queueNotification } from '../notifications/index.ts';

/** The organisation's active administrators, plus `userId` (the user concerned) when given. */
async function accountRecipients(
  db: Db,
  organisationId: number | null,
  userId: number | null = null,
): Promise<number[]> {
  const admins =
    organisationId === null
      ? []
      : await db.user.findMany({
          where: { organisation_id: organisationId, is_admin: true, is_active: true },
          select: { id: true },
          orderBy: { id: 'asc' },
        });
  const ids = admins.map((a) => a.id);
  if (userId !== null && !ids.includes(userId)) ids.push(userId);
  return ids;
}

export async function queueAccountEvent(
  db: Db,
  organisationId: number | null,
  userId: number | null,
  event: { title: string; body: string; data: Record<string, string | number | boolean | null> },
): Promise<void> {
  await queueNotification(db, {
    category: 'account',
    userIds: await accountRecipients(db, organisationId, userId),
    ...event,
  });
}

interface UserState {
  id: number;
  organisation_id: number | null;
  is_active: boolean;
  is_admin: boolean;
}

/**
 * After a user edit (PUT /users/{id}, deactivateUser, reactivateUser, setAdmin): one event when a seat or an
 * administrator standing changed (activity, admin rights, leaving the organisation); name edits queue nothing.
 */
export async function queueAccountChange(db: Db, before: UserState, after: UserState): Promise<void> {
  const changes: string[] = [];
  if (before.is_active !== after.is_active) changes.push(after.is_active ? 'reactivated' : 'deactivated');
  if (before.is_admin !== after.is_admin)
    changes.push(after.is_admin ? 'made an administrator' : 'no longer an administrator');
  if (before.organisation_id !== null && after.organisation_id === null) changes.push('removed from the organisation');
  if (changes.length === 0) return;
  await queueAccountEvent(db, before.organisation_id, after.id, {
    title: 'Account changed',
    body: `A user account was ${changes.join(', ')}.`,
    data: { kind: 'user_changed', user_id: after.id, is_active: after.is_active, is_admin: after.is_admin },
  });
}
