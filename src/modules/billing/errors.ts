/** Plan and allowance refusals, with the spec's 403 and 429 bodies (Errors table, POST /matrix-calculator/). */
import { DomainError, ValidationError } from '../../lib/errors.ts';
import type { Metric } from '../../lib/vocabulary.ts';

/** 429 `cap_hit`: a daily allowance is spent. `message` is what the client shows. */
export class CapHitError extends DomainError {
  readonly code = 'cap_hit';
  constructor(
    readonly detail: string,
    message: string,
    readonly limit: number,
    readonly used: number,
    readonly metric: Metric,
  ) {
    super(message);
  }
}

/** 403 `entitlement_required`: the account's plan does not include this. */
export class EntitlementRequiredError extends DomainError {
  readonly code = 'entitlement_required';
  constructor(
    readonly detail: string,
    message: string,
    readonly entitlement: string,
  ) {
    super(message);
  }
}

/** 403 `feature_disabled`: the surface is switched off or not open to this caller. */
export class FeatureDisabledError extends DomainError {
  readonly code = 'feature_disabled';
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** What a metered run can answer instead of a result: a bad deal, a spent allowance, a surface it cannot use. */
export const RUN_ERRORS = [ValidationError, CapHitError, EntitlementRequiredError, FeatureDisabledError];
