import { DomainError } from '../../lib/errors.ts';

export interface Seats {
  used: number;
  limit: number | null;
}

/** 409: reactivating (or adding) a user would exceed the organisation's user limit. */
export class SeatLimitReachedError extends DomainError {
  readonly code = 'seat_limit_reached';
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
export class LastAdminError extends DomainError {
  readonly code = 'last_admin';
  constructor(message: string) {
    super(message);
  }
}
