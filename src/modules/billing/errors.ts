/** Plan and allowance refusals, with the spec's 403 and 429 bodies (Errors table, POST /matrix-calculator/). */
import { ValidationError, errorOf } from '../../lib/errors.ts';
import type { Metric } from '../../lib/vocabulary.ts';

/** 429 `cap_hit`: a daily allowance is spent. `message` is what the client shows. */
export class CapHitError extends errorOf('cap_hit') {
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
export class EntitlementRequiredError extends errorOf('entitlement_required') {
  constructor(
    readonly detail: string,
    message: string,
    readonly entitlement: string,
  ) {
    super(message);
  }
}

/** 403 `feature_disabled`: the surface is switched off or not open to this caller. */
export class FeatureDisabledError extends errorOf('feature_disabled') {
  constructor(readonly detail: string) {
    super(detail);
  }
}

/** What a metered run can answer instead of a result: a bad deal, a spent allowance, a surface it cannot use. */
export const RUN_ERRORS = [ValidationError, CapHitError, EntitlementRequiredError, FeatureDisabledError];

/** 409 on reactivate: the subscription is not scheduled to cancel, so there is nothing to undo. */
export class NotScheduledToCancelError extends errorOf(
  'not_scheduled_to_cancel',
  'The subscription is not scheduled to cancel.',
) {}

/** 409 on checkout: the organisation already has a live subscription (checkout is the way back after one ended). */
export class AlreadySubscribedError extends errorOf(
  'already_subscribed',
  'The organisation already has a subscription.',
) {}

/** 409 on completing a built-in checkout a second time. */
export class CheckoutCompletedError extends errorOf(
  'checkout_completed',
  'This checkout has already been completed.',
) {}
