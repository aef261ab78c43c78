/** Promote, rename and delete refusals, with the spec's bodies (Errors table, POST /calculator/scenarios/{id}/promote). */
import { errorOf } from '../../lib/errors.ts';

/** 400 `name_required`: promote (or rename) without a name, or with only whitespace. */
export class NameRequiredError extends errorOf('name_required', 'A name is required to save a scenario.') {}

/**
 * 404 `not_found`: no scenario of the caller's in the state the operation needs (promote: a recent one). Another
 * user's scenario, an already-saved one, and a missing id all answer exactly the same.
 */
export class ScenarioNotFoundError extends errorOf('not_found', 'Scenario not found.') {}

/** 409 `over_limit`: the tool already keeps as many saved scenarios as the plan allows. `message` is client-worded. */
export class OverLimitError extends errorOf('over_limit') {
  constructor(
    message: string,
    readonly limit: number,
  ) {
    super(message);
  }
}
