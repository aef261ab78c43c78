/** Plan and allowance refusals, with the spec's 403 and 429 bodies (Errors table, POST /matrix-calculator/). */
import { builder, ErrorInterface } from '../../lib/builder.ts';
import { DomainError, ValidationError } from '../../lib/errors.ts';

export type Metric = 'calculator' | 'matrix';

/** 429 `cap_hit`: a daily allowance is spent. `message` is what the client shows. */
export class CapHitError extends DomainError {
  readonly code = 'cap_hit';
  constructor(readonly detail: string, message: string, readonly limit: number, readonly used: number, readonly metric: Metric) { super(message); }
}

/** 403 `entitlement_required`: the account's plan does not include this. */
export class EntitlementRequiredError extends DomainError {
  readonly code = 'entitlement_required';
  constructor(readonly detail: string, message: string, readonly entitlement: string) { super(message); }
}

/** 403 `feature_disabled`: the surface is switched off or not open to this caller. */
export class FeatureDisabledError extends DomainError {
  readonly code = 'feature_disabled';
  constructor(readonly detail: string) { super(detail); }
}

builder.objectType(CapHitError, {
  name: 'CapHitError',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    detail: t.exposeString('detail'),
    limit: t.exposeInt('limit'),
    used: t.exposeInt('used'),
    metric: t.exposeString('metric', { description: 'calculator or matrix: which daily allowance ran out' }),
  }),
});

builder.objectType(EntitlementRequiredError, {
  name: 'EntitlementRequiredError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ detail: t.exposeString('detail'), entitlement: t.exposeString('entitlement') }),
});

builder.objectType(FeatureDisabledError, {
  name: 'FeatureDisabledError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ detail: t.exposeString('detail') }),
});

/** What a metered run can answer instead of a result: a bad deal, a spent allowance, a surface it cannot use. */
export const RUN_ERRORS = [ValidationError, CapHitError, EntitlementRequiredError, FeatureDisabledError];

/** REST bodies for these errors, the same for every endpoint that can raise them. */
export function planErrorReply(r: { __typename: string; [k: string]: any }): [403 | 429, Record<string, unknown>] | undefined {
  switch (r.__typename) {
    case 'CapHitError': return [429, { error: 'cap_hit', detail: r.detail, message: r.message, limit: r.limit, used: r.used, metric: r.metric }];
    case 'EntitlementRequiredError': return [403, { error: 'entitlement_required', detail: r.detail, message: r.message, entitlement: r.entitlement }];
    case 'FeatureDisabledError': return [403, { error: 'feature_disabled', detail: r.detail }];
    default: return undefined;
  }
}

export const PLAN_ERROR_FIELDS = `
  ... on CapHitError { detail limit used metric }
  ... on EntitlementRequiredError { detail entitlement }
  ... on FeatureDisabledError { detail }`;
