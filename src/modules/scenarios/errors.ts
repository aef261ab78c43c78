/** Promote, rename and delete refusals, with the spec's bodies (Errors table, POST /calculator/scenarios/{id}/promote). */
import { DomainError } from '../../lib/errors.ts';

/** 400 `name_required`: promote (or rename) without a name, or with only whitespace. */
export class NameRequiredError extends DomainError {
  readonly code = 'name_required';
  constructor(message = 'A name is required to save a scenario.') {
    super(message);
  }
}

/**
 * 404 `not_found`: no scenario of the caller's in the state the operation needs (promote: a recent one). Another
 * user's scenario, an already-saved one, and a missing id all answer exactly the same.
 */
export class ScenarioNotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(message = 'Scenario not found.') {
    super(message);
  }
}

/** 409 `over_limit`: the tool already keeps as many saved scenarios as the plan allows. `message` is client-worded. */
export class OverLimitError extends DomainError {
  readonly code = 'over_limit';
  constructor(
    message: string,
    readonly limit: number,
  ) {
    super(message);
  }
}
