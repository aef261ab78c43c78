/**
 * `account` notifications for user edits (docs/team.md "Notifications"), queued through the notifications module.
 * Recipients: the organisation's active administrators and the user concerned. Queued in the transaction of the
 * change, so a notification exists exactly when its change does; delivery happens elsewhere, later.
 */
import type { Db } from '../../lib/db.ts';
import { queueAccountEvent } from '../notifications/index.ts';

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
