/**
 * The organisation's lock: every change that counts or decides over an organisation's account (seats, administrators,
 * invitations, its subscription and plan) runs under it, so concurrent changes of one organisation are serialised
 * across processes; READ COMMITTED then shows each the others' committed rows.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: it excludes every other holder just the same, but not the FOR KEY SHARE lock
 * PostgreSQL takes on the organisation when a row referencing it is inserted (a user, a product, an approval...).
 * With FOR UPDATE, accepting an invitation (which spends the invite, then inserts the user) waited for a withdrawal
 * holding this lock, while the withdrawal waited for the spent invite: a deadlock (test/users/invitations.test.ts).
 */
import type { Db } from '../../lib/db.ts';

export async function lockOrganisation(tx: Db, organisationId: number): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
    'SELECT id FROM organisations WHERE id = $1 FOR NO KEY UPDATE',
    organisationId,
  );
  return rows.length > 0;
}
