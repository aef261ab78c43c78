import { DomainError } from '../../lib/errors.ts';

/** The documented 500 of POST /calculator/recalculate: the edited row cannot be re-priced. */
export class RecalculationFailedError extends DomainError {
  readonly code = 'recalculation_failed';
  constructor(
    readonly reason: string,
    message = 'This result could not be re-priced with the values given.',
  ) {
    super(message);
  }
}
