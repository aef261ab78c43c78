/**
 * The service's enumerations, each written once. The TypeScript type, the GraphQL enum (src/graphql/enums.ts), the
 * request and catalogue-file validation and the Prisma schema's enums all follow these lists;
 * test/lib/vocabulary.test.ts fails when prisma/schema.prisma drifts from them. Values are the API's own words.
 */

/** How often a repayment falls due. `none` prices monthly. */
export const REPAYMENT_FREQUENCIES = ['yearly', 'quarterly', 'monthly', 'weekly', 'daily', 'none'] as const;
export type RepaymentFrequency = (typeof REPAYMENT_FREQUENCIES)[number];

/** When an instalment is paid within its period. `none` prices in arrears. */
export const ADVANCE_ARREARS = ['none', 'advance', 'arrears'] as const;
export type AdvanceArrears = (typeof ADVANCE_ARREARS)[number];

/** Documentation an approval asks of the borrower, least onerous first: Matrix results sort on this position. */
export const DOC_LEVELS = ['low_doc', 'lite_doc', 'full_doc'] as const;
export type DocLevel = (typeof DOC_LEVELS)[number];

export const TRANSACTION_TYPES = ['purchase', 'refinance', 'sale_hire_back', 'capital_raise'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const ASSET_STATES = ['none', 'new', 'used', 'demo'] as const;
export type AssetState = (typeof ASSET_STATES)[number];

/** Which deals a rate card prices. */
export const CARD_TYPES = ['commercial', 'consumer'] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** f: financier (lender), b: broker, u: a user without a business. */
export const ORGANISATION_TYPES = ['f', 'b', 'u'] as const;
export type OrganisationType = (typeof ORGANISATION_TYPES)[number];

/** A product's compounding: weekly, monthly, quarterly, yearly (none stated = monthly). */
export const COMPOUNDING_FREQUENCIES = ['w', 'm', 'q', 'y'] as const;
export type CompoundingFrequency = (typeof COMPOUNDING_FREQUENCIES)[number];

/** A product's answer to a yes/no deal question: `both` accepts either. */
export const TRI_STATES = ['yes', 'no', 'both'] as const;
export type TriState = (typeof TRI_STATES)[number];

/** The tools an operator can switch off and a plan can include. */
export const SURFACES = ['calculator', 'consumer_calculator', 'matrix', 'matrix_calculator'] as const;
export type Surface = (typeof SURFACES)[number];

/** Whether a caller can use a surface now, or why not (GET /feature-flags `surfaces`). */
export const SURFACE_STATES = [
  'available',
  'entitlement_required',
  'feature_disabled',
  'bid_standing_required',
  'organisation_required',
] as const;
export type SurfaceState = (typeof SURFACE_STATES)[number];

export const PLANS = ['free', 'pro', 'max', 'team', 'enterprise'] as const;
export type PlanName = (typeof PLANS)[number];

/** Plans an organisation can buy through checkout (Free needs none; Enterprise is arranged with us). */
export const PURCHASABLE_PLANS = ['pro', 'max', 'team'] as const satisfies readonly PlanName[];

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const API_TOKEN_SCOPES = ['read', 'read_write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Where the service runs; an API token works only in the environment that issued it. */
export const SERVICE_ENVIRONMENTS = ['local', 'qa', 'stage', 'prod'] as const;
export type ServiceEnvironment = (typeof SERVICE_ENVIRONMENTS)[number];

/** Who created an API token: the settings page, or an AI assistant's connection. */
export const API_TOKEN_ORIGINS = ['ui', 'mcp'] as const;
export type ApiTokenOrigin = (typeof API_TOKEN_ORIGINS)[number];

/** The daily allowances a run counts against. */
export const METRICS = ['calculator', 'matrix'] as const;
export type Metric = (typeof METRICS)[number];

/** The tools whose runs are kept as scenarios (and counted per tool). */
export const SCENARIO_TOOLS = ['calculator', 'matrix', 'matrix_calculator'] as const;
export type ScenarioTool = (typeof SCENARIO_TOOLS)[number];

/** recent: kept automatically; saved: promoted with a name. */
export const SCENARIO_KINDS = ['recent', 'saved'] as const;

/** An approval not ruled out: every checked criterion answered (confirmed) or some unanswered (possible). */
export const EVALUATION_STATUSES = ['confirmed', 'possible'] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];

/** The half of a Matrix Calculator run that is missing when it answers degraded. */
export const DEGRADED_HALVES = ['rates', 'approvals'] as const;
export type DegradedHalf = (typeof DEGRADED_HALVES)[number];

/** The file formats a rate card is imported from (docs/rate-card-import.md). */
export const RATE_CARD_IMPORT_FORMATS = ['csv', 'json'] as const;
export type RateCardImportFormat = (typeof RATE_CARD_IMPORT_FORMATS)[number];

/** Which end of a bracket's rate band an amortisation schedule uses. */
export const RATE_BANDS = ['min', 'max'] as const;
export type RateBand = (typeof RATE_BANDS)[number];

/** Push notification categories: a closed set (never billing, plan, trial or marketing). */
export const NOTIFICATION_CATEGORIES = ['issue_reports', 'rate_card', 'account'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** The series of rate-card restore points: a financier's rate card (products, rate brackets), its asset mappings. */
export const VERSION_RESOURCES = ['rate_card', 'asset_mapping'] as const;
export type VersionResource = (typeof VERSION_RESOURCES)[number];

/** How a rate-card change arrived: a session (the app), an API token, or a connected AI assistant (an `mcp` token). */
export const CHANGE_ORIGINS = ['app', 'api_token', 'assistant'] as const;
export type ChangeOrigin = (typeof CHANGE_ORIGINS)[number];
/** Issue report kinds: a stated approval criterion is wrong or stale (approval); a rate or repayment figure is wrong (pricing). */
export const ISSUE_REPORT_KINDS = ['approval', 'pricing'] as const;
export type IssueReportKind = (typeof ISSUE_REPORT_KINDS)[number];

/** An issue report is open until a user of the financier concerned resolves it. */
export const ISSUE_REPORT_STATUSES = ['open', 'resolved'] as const;
export type IssueReportStatus = (typeof ISSUE_REPORT_STATUSES)[number];
/** Where a push device lives: Web Push (a browser subscription), APNs (iOS) or FCM (Android). */
export const DEVICE_PLATFORMS = ['web', 'ios', 'android'] as const;
export type DevicePlatform = (typeof DEVICE_PLATFORMS)[number];

/** What delivery did with a queued notification, per device (delivered, failed) or once (dropped). */
export const NOTIFICATION_OUTCOMES = ['delivered', 'failed', 'dropped'] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];

/** Where the zone quiet hours use came from: '' none yet, a device's report, or the user's explicit choice. */
export const TIMEZONE_SOURCES = ['', 'device', 'user'] as const;
export type TimezoneSource = (typeof TIMEZONE_SOURCES)[number];
/**
 * An enum value's GraphQL name must be a name: the empty source is `none` in GraphQL, and REST (whose body the
 * spec fixes as '') maps it back with timezoneSourceOfGraphQLName.
 */
export const TIMEZONE_SOURCE_GRAPHQL_NAMES = { '': 'none', device: 'device', user: 'user' } as const satisfies Record<
  TimezoneSource,
  string
>;
export function timezoneSourceOfGraphQLName(name: string): string {
  return TIMEZONE_SOURCES.find((source) => TIMEZONE_SOURCE_GRAPHQL_NAMES[source] === name) ?? name;
}

/** Every DomainError's `code` (src/lib/errors.ts and each module's errors.ts): a closed set. */
export const ERROR_CODES = [
  'unauthenticated',
  'forbidden',
  'not_found',
  'validation_error',
  'rate_limited',
  'upstream_unavailable',
  'not_configured',
  'cap_hit',
  'entitlement_required',
  'feature_disabled',
  'not_scheduled_to_cancel',
  'already_subscribed',
  'checkout_completed',
  'seat_limit_reached',
  'last_admin',
  'email_already_user',
  'already_invited',
  'invitation_invalid',
  'name_required',
  'over_limit',
  'version_conflict',
  'reporting_unavailable',
  'recalculation_failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * ANZSIC 2006 divisions, code -> label: approval `industries` hold these one-letter codes, and
 * GET /approvals/options lists them (value = code, label = the division's name).
 */
export const ANZSIC_DIVISIONS = {
  A: 'Agriculture, Forestry and Fishing',
  B: 'Mining',
  C: 'Manufacturing',
  D: 'Electricity, Gas, Water and Waste Services',
  E: 'Construction',
  F: 'Wholesale Trade',
  G: 'Retail Trade',
  H: 'Accommodation and Food Services',
  I: 'Transport, Postal and Warehousing',
  J: 'Information Media and Telecommunications',
  K: 'Financial and Insurance Services',
  L: 'Rental, Hiring and Real Estate Services',
  M: 'Professional, Scientific and Technical Services',
  N: 'Administrative and Support Services',
  O: 'Public Administration and Safety',
  P: 'Education and Training',
  Q: 'Health Care and Social Assistance',
  R: 'Arts and Recreation Services',
  S: 'Other Services',
} as const;
export type AnzsicDivision = keyof typeof ANZSIC_DIVISIONS;
export const ANZSIC_DIVISION_CODES = Object.keys(ANZSIC_DIVISIONS) as AnzsicDivision[];

/** True when `value` is one of `list`'s members (narrows it to the list's type). */
export function isOneOf<const T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}
