/**
 * Every GraphQL enum, each built from its list in src/lib/vocabulary.ts (one list: the TypeScript type, the enum
 * and the validation cannot disagree). Only lists a field uses today are enums here: an unused enum would still be
 * printed in the schema. Each enum and each value carries a description (`described` makes a missing one a
 * compile error). Values are the spec's own words, so REST bodies read the same; a value that is not a GraphQL
 * name (TimezoneSource's '') is mapped explicitly in the vocabulary and mapped back by REST.
 */
import {
  ADVANCE_ARREARS,
  API_TOKEN_ORIGINS,
  API_TOKEN_SCOPES,
  ASSET_STATES,
  CARD_TYPES,
  CHANGE_ORIGINS,
  COMPOUNDING_FREQUENCIES,
  DEGRADED_HALVES,
  DEVICE_PLATFORMS,
  DOC_LEVELS,
  ERROR_CODES,
  EVALUATION_STATUSES,
  ISSUE_REPORT_KINDS,
  ISSUE_REPORT_STATUSES,
  METRICS,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_OUTCOMES,
  ORGANISATION_TYPES,
  PLANS,
  PURCHASABLE_PLANS,
  RATE_BANDS,
  REPAYMENT_FREQUENCIES,
  SCENARIO_KINDS,
  SCENARIO_TOOLS,
  SERVICE_ENVIRONMENTS,
  SUBSCRIPTION_STATUSES,
  SURFACE_STATES,
  SURFACES,
  TIMEZONE_SOURCE_GRAPHQL_NAMES,
  TIMEZONE_SOURCES,
  TRANSACTION_TYPES,
  TRI_STATES,
  VERSION_RESOURCES,
} from '../lib/vocabulary.ts';
import { builder } from './builder.ts';

/** A list's values, each with its description (a description for every value, or the compiler complains). */
export function described<const T extends string>(
  list: readonly T[],
  descriptions: Record<T, string>,
): Record<T, { description: string }> {
  return Object.fromEntries(list.map((value) => [value, { description: descriptions[value] }])) as Record<
    T,
    { description: string }
  >;
}

export const AdvanceArrearsEnum = builder.enumType('AdvanceArrears', {
  description: 'When each instalment is paid within its period',
  values: described(ADVANCE_ARREARS, {
    none: 'not stated: priced in arrears',
    advance: 'at the start of each period (the first payment at settlement)',
    arrears: 'at the end of each period',
  }),
});

export const RepaymentFrequencyEnum = builder.enumType('RepaymentFrequency', {
  description: 'How often a repayment falls due',
  values: described(REPAYMENT_FREQUENCIES, {
    yearly: 'once a year',
    quarterly: 'every three months',
    monthly: 'every month',
    weekly: 'every week',
    daily: 'every day',
    none: 'not stated: priced monthly',
  }),
});

export const AssetStateEnum = builder.enumType('AssetState', {
  description: 'The condition of the asset being financed',
  values: described(ASSET_STATES, {
    none: 'not stated',
    new: 'new, never registered or used',
    used: 'second-hand',
    demo: 'a demonstrator',
  }),
});

export const TransactionTypeEnum = builder.enumType('TransactionType', {
  description: 'What the finance is for',
  values: described(TRANSACTION_TYPES, {
    purchase: 'buying the asset',
    refinance: 'replacing existing finance on the asset',
    sale_hire_back: 'selling an owned asset to the financier and hiring it back',
    capital_raise: 'borrowing against an asset already owned',
  }),
});

export const CardTypeEnum = builder.enumType('CardType', {
  description: 'Which deals a rate card prices',
  values: described(CARD_TYPES, {
    commercial: 'business finance (the default)',
    consumer: 'personal finance; only brokers bound by Best Interests Duty see consumer cards',
  }),
});

export const DocLevelEnum = builder.enumType('DocLevel', {
  description: 'Documentation an approval asks of the borrower; Matrix results sort least onerous first',
  values: described(DOC_LEVELS, {
    low_doc: 'least documentation (e.g. declarations instead of financials)',
    lite_doc: 'some documentation (e.g. recent statements)',
    full_doc: 'full financials',
  }),
});

export const ApiTokenScopeEnum = builder.enumType('ApiTokenScope', {
  description: 'What an API token may do',
  values: described(API_TOKEN_SCOPES, {
    read: 'reads and the computations (calculator, Matrix, ABN lookup); no changes',
    read_write: 'everything read allows, plus changes',
  }),
});

export const ServiceEnvironmentEnum = builder.enumType('ServiceEnvironment', {
  description: 'Where a token was issued; it is accepted only there',
  values: described(SERVICE_ENVIRONMENTS, {
    local: "a developer's machine",
    qa: 'the testing environment',
    stage: 'the pre-production environment',
    prod: 'production',
  }),
});

export const ApiTokenOriginEnum = builder.enumType('ApiTokenOrigin', {
  description: 'How a token was created',
  values: described(API_TOKEN_ORIGINS, {
    ui: 'by its user, for the app and integrations',
    mcp: 'for an AI assistant; accepted only at POST /mcp',
  }),
});

export const RateBandEnum = builder.enumType('RateBand', {
  description: "Which end of a bracket's rate band an amortisation schedule uses",
  values: described(RATE_BANDS, { min: 'the lowest rate (rate_min)', max: 'the highest rate (rate_max)' }),
});

export const ScenarioKindEnum = builder.enumType('ScenarioKind', {
  description: 'Whether a scenario was kept automatically or saved by its user',
  values: described(SCENARIO_KINDS, {
    recent: 'kept automatically, the newest 20 per tool',
    saved: 'promoted with a name, kept until deleted',
  }),
});

export const ScenarioToolEnum = builder.enumType('ScenarioTool', {
  description: 'The tool whose run a scenario keeps; limits count per tool',
  values: described(SCENARIO_TOOLS, {
    calculator: 'the calculator (POST /calculator/)',
    matrix: 'the Approval Matrix',
    matrix_calculator: 'the Matrix Calculator (POST /matrix-calculator/)',
  }),
});

export const EvaluationStatusEnum = builder.enumType('EvaluationStatus', {
  description: 'How far an approval not ruled out is known to accept the deal',
  values: described(EVALUATION_STATUSES, {
    confirmed: 'every checked criterion was supplied and satisfied',
    possible: 'a checked criterion had no input: see missing_fields',
  }),
});

export const DegradedEnum = builder.enumType('Degraded', {
  description: 'The half of a Matrix Calculator run that is missing (null when the run is whole)',
  values: described(DEGRADED_HALVES, { rates: 'the rate engine is missing', approvals: 'approval checks are missing' }),
});

export const CompoundingFrequencyEnum = builder.enumType('CompoundingFrequency', {
  description: "How often a product's interest compounds (none stated = monthly)",
  values: described(COMPOUNDING_FREQUENCIES, { w: 'weekly', m: 'monthly', q: 'quarterly', y: 'yearly' }),
});

export const TriStateEnum = builder.enumType('TriState', {
  description: "A product's answer to a yes/no deal question",
  values: described(TRI_STATES, {
    yes: 'only deals answering yes',
    no: 'only deals answering no',
    both: 'either answer',
  }),
});

export const VersionResourceEnum = builder.enumType('VersionResource', {
  description: 'The series a rate-card restore point belongs to',
  values: described(VERSION_RESOURCES, {
    rate_card: 'products and rate brackets',
    asset_mapping: 'which assets they price',
  }),
});

export const ChangeOriginEnum = builder.enumType('ChangeOrigin', {
  description: 'How a rate-card change arrived',
  values: described(CHANGE_ORIGINS, {
    app: 'a signed-in session (the app)',
    api_token: 'an API token',
    assistant: "a connected AI assistant (an mcp token); see the version's connection",
  }),
});

export const IssueReportKindEnum = builder.enumType('IssueReportKind', {
  description: 'What an issue report is about',
  values: described(ISSUE_REPORT_KINDS, {
    approval: 'a stated approval criterion is wrong or stale',
    pricing: 'a rate or repayment figure is wrong',
  }),
});

export const IssueReportStatusEnum = builder.enumType('IssueReportStatus', {
  description: 'Where an issue report stands',
  values: described(ISSUE_REPORT_STATUSES, {
    open: 'not yet resolved',
    resolved: 'resolved by a user of the financier concerned',
  }),
});

export const OrganisationTypeEnum = builder.enumType('OrganisationType', {
  description: 'What kind of organisation it is',
  values: described(ORGANISATION_TYPES, {
    f: 'a financier (lender)',
    b: 'a broker',
    u: 'a user without a business',
  }),
});

export const PlanEnum = builder.enumType('Plan', {
  description: "An organisation's plan (docs/plans.md)",
  values: described(PLANS, {
    free: 'no subscription: one user and small daily allowances; no Matrix',
    pro: 'the Matrix and consumer cards, up to 3 users',
    max: 'as Pro with larger allowances, up to 5 users',
    team: 'as Max, up to 20 users',
    enterprise: 'no allowance or user limit; arranged with us, not bought through checkout',
  }),
});

export const PurchasablePlanEnum = builder.enumType('PurchasablePlan', {
  description: 'A plan that can be bought through checkout',
  values: described(PURCHASABLE_PLANS, { pro: 'the Pro plan', max: 'the Max plan', team: 'the Team plan' }),
  // REST names the field with the sentence the service has always used for a plan it cannot sell.
  extensions: { restInvalidValue: `Must be one of ${PURCHASABLE_PLANS.join(', ')}.` },
});

export const SubscriptionStatusEnum = builder.enumType('SubscriptionStatus', {
  description: "A billing subscription's status, in the payment processor's words",
  values: described(SUBSCRIPTION_STATUSES, {
    trialing: 'in its free trial; the plan applies',
    active: 'paid and current; the plan applies',
    past_due: 'a payment failed and is being retried; the plan still applies',
    canceled: 'ended; the organisation is back on Free',
    incomplete: 'the first payment has not succeeded yet',
    incomplete_expired: 'the first payment never succeeded; nothing was started',
    unpaid: 'retries ran out; the plan no longer applies',
    paused: 'paused at the payment processor; the plan no longer applies',
  }),
});

export const SurfaceEnum = builder.enumType('Surface', {
  description: 'A tool an operator can switch off and a plan can include',
  values: described(SURFACES, {
    calculator: 'the calculator (commercial rate cards)',
    consumer_calculator: 'the calculator on consumer rate cards',
    matrix: 'the Approval Matrix',
    matrix_calculator: 'the Matrix Calculator',
  }),
});

export const SurfaceStateEnum = builder.enumType('SurfaceState', {
  description: 'Whether the caller can use a surface now, or why not',
  values: described(SURFACE_STATES, {
    available: 'usable now',
    entitlement_required: "the caller's plan does not include it",
    feature_disabled: 'switched off by the operator',
    bid_standing_required: 'consumer cards need a broker bound by Best Interests Duty',
    organisation_required: 'the caller belongs to no organisation',
  }),
});

export const MetricEnum = builder.enumType('Metric', {
  description: 'A daily allowance a run counts against',
  values: described(METRICS, {
    calculator: 'calculator runs (the Matrix Calculator counts too)',
    matrix: 'Approval Matrix runs (the Matrix Calculator counts too)',
  }),
});

export const DevicePlatformEnum = builder.enumType('DevicePlatform', {
  description: 'Where a push device lives',
  values: described(DEVICE_PLATFORMS, {
    web: 'a browser (Web Push; the token is the subscription endpoint URL)',
    ios: 'an iOS app (APNs)',
    android: 'an Android app (FCM)',
  }),
});

export const NotificationCategoryEnum = builder.enumType('NotificationCategory', {
  description: 'A closed set: there is never a billing, plan, trial or marketing category',
  values: described(NOTIFICATION_CATEGORIES, {
    issue_reports: 'issue reports about your own catalogue',
    rate_card: 'changes to rate cards you follow',
    account: 'your team and account',
  }),
});

export const NotificationOutcomeEnum = builder.enumType('NotificationOutcome', {
  description: 'What delivery did with a queued notification',
  values: described(NOTIFICATION_OUTCOMES, {
    delivered: 'handed to the device’s push service',
    failed: 'the push service refused or could not be reached (see reason)',
    dropped: 'not sent at all (see reason)',
  }),
});

export const TimezoneSourceEnum = builder.enumType('TimezoneSource', {
  description: "Where the zone quiet hours use came from (REST sends none as '')",
  values: Object.fromEntries(
    TIMEZONE_SOURCES.map((source) => [
      TIMEZONE_SOURCE_GRAPHQL_NAMES[source],
      {
        value: source,
        description: {
          '': 'no zone is known yet',
          device: 'the latest zone a registered install reported',
          user: 'chosen by the user; never overwritten by device reports',
        }[source],
      },
    ]),
  ),
});

export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: "An error's machine-readable code; each error type has one",
  values: described(ERROR_CODES, {
    unauthenticated: 'no usable credentials (REST 401)',
    forbidden: 'signed in, but not allowed (REST 403)',
    not_found: 'no such object for this caller (REST 404)',
    validation_error: 'a value breaks a rule; errors names the fields (REST 400)',
    rate_limited: 'too many attempts; wait retry_after seconds (REST 429)',
    upstream_unavailable: 'a service we depend on could not be reached (REST 502)',
    not_configured: 'this deployment is not set up for the feature (REST 503)',
    cap_hit: 'a daily allowance ran out (REST 429)',
    entitlement_required: "the caller's plan does not include this (REST 403)",
    feature_disabled: 'the surface is switched off (REST 403)',
    not_scheduled_to_cancel: 'the subscription is not scheduled to cancel (REST 409)',
    already_subscribed: 'the organisation already has a subscription (REST 409)',
    checkout_completed: 'the checkout was already completed',
    seat_limit_reached: "the organisation's seats are all taken (REST 409)",
    last_admin: 'the change would leave no active administrator (REST 409)',
    email_already_user: 'the email already belongs to a user (REST 409)',
    already_invited: 'the email already has a pending invitation (REST 409)',
    invitation_invalid: 'the invitation token is unknown, expired, withdrawn or used',
    name_required: 'a saved scenario needs a name (REST 400)',
    over_limit: 'the tool keeps as many saved scenarios as it may (REST 409)',
    version_conflict: 'the rate card changed since it was read (REST 409)',
    reporting_unavailable: 'issue reporting is not available on this account (REST 403)',
    recalculation_failed: 'the row could not be re-priced (REST 500)',
  }),
});
