import { builder, ErrorInterface } from '../../lib/builder.ts';
import { DomainError } from '../../lib/errors.ts';

export interface Seats { used: number; limit: number | null }

/** 409: reactivating (or adding) a user would exceed the organisation's user limit. */
export class SeatLimitReachedError extends DomainError {
  readonly code = 'seat_limit_reached';
  constructor(message: string, readonly seats: Seats) { super(message); }
}

export const SeatsRef = builder.objectRef<Seats>('Seats').implement({
  description: 'used: active users plus invites not yet accepted; limit: null = unlimited. used may exceed limit',
  fields: (t) => ({ used: t.exposeInt('used'), limit: t.exposeInt('limit', { nullable: true }) }),
});

builder.objectType(SeatLimitReachedError, {
  name: 'SeatLimitReachedError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ seats: t.field({ type: SeatsRef, resolve: (e) => e.seats }) }),
});
