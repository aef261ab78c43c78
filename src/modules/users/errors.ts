import { DomainError } from '../../lib/errors.ts';

export interface Seats { used: number; limit: number | null }

/** 409: reactivating (or adding) a user would exceed the organisation's user limit. */
export class SeatLimitReachedError extends DomainError {
  readonly code = 'seat_limit_reached';
  constructor(message: string, readonly seats: Seats) { super(message); }
}
