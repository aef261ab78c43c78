/**
 * `account` notifications for seat, administrator, invitation, sign-in and API-token changes (docs/team.md
 * "Notifications"). Recipients: the organisation's active administrators and the user concerned. Queued in the
 * transaction of the change, so a notification exists exactly when its change does; delivery happens elsewhere, later.
 */
import type { Db } from '../../lib/db.ts';
import { queueNotification } from './queue.ts';

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
