import { errorOf } from '../../lib/errors.ts';

export interface Seats {
  used: number;
  limit: number | null;
}

/** 409: reactivating (or adding) a user would exceed the organisation's user limit. */
export class SeatLimitReachedError extends errorOf('seat_limit_reached') {
  constructor(
    message: string,
    readonly seats: Seats,
  ) {
    super(message);
  }
}

/**
 * 409: the edit would leave the organisation without an active administrator (demoting, deactivating or removing
 * its last one). Nobody could then manage users, seats or billing, and no one inside could undo it.
 */
export class LastAdminError extends errorOf('last_admin') {}

/** 409: inviting an email that already belongs to a user of the service (emails are unique service-wide). */
export class EmailAlreadyUserError extends errorOf('email_already_user', 'A user with this email already exists.') {}

/** 409: this organisation already has a pending (unexpired, unaccepted) invitation for the email. */
export class AlreadyInvitedError extends errorOf(
  'already_invited',
  'This email already has a pending invitation. Withdraw it first to invite again.',
) {}

/**
 * An invitation token that cannot be accepted: unknown, expired, withdrawn or already used all answer exactly this,
 * so the answer tells a guesser nothing about which.
 */
export class InvitationInvalidError extends errorOf(
  'invitation_invalid',
  'This invitation is not valid. Ask your administrator for a new one.',
) {}
