import { errorOf } from '../../lib/errors.ts';

/**
 * 409: the caller's expected rate-card version (GraphQL `expectedVersion`, REST `If-Match` or `expected_version`) is
 * not the organisation's current one: someone else changed the card since the caller read it. Nothing was written;
 * re-read the card (its version is `currentVersion`) and apply the edit again.
 */
export class RateCardVersionConflictError extends errorOf(
  'version_conflict',
  'The rate card changed since you read it. Reload it and apply your change again.',
) {
  constructor(
    readonly currentVersion: number,
    message?: string,
  ) {
    super(message);
  }
}
