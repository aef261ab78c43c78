/**
 * Every GraphQL enum, each built from its list in src/lib/vocabulary.ts (one list: the TypeScript type, the enum
 * and the validation cannot disagree). Only lists a field uses today are enums here: an unused enum would still be
 * printed in the schema.
 */
import {
  SERVICE_ENVIRONMENTS,
  ADVANCE_ARREARS,
  API_TOKEN_ORIGINS,
  API_TOKEN_SCOPES,
  ASSET_STATES,
  CARD_TYPES,
  DEGRADED_HALVES,
  DOC_LEVELS,
  EVALUATION_STATUSES,
  ISSUE_REPORT_KINDS,
  ISSUE_REPORT_STATUSES,
  RATE_BANDS,
  REPAYMENT_FREQUENCIES,
  SCENARIO_KINDS,
  TRANSACTION_TYPES,
  COMPOUNDING_FREQUENCIES,
  TRI_STATES,
  VERSION_RESOURCES,
} from '../lib/vocabulary.ts';
import { builder } from './builder.ts';

/** A list's values, each with its description (a description for every value, or the compiler complains). */
function described<const T extends string>(
  list: readonly T[],
  descriptions: Record<T, string>,
): Record<T, { description: string }> {
  return Object.fromEntries(list.map((value) => [value, { description: descriptions[value] }])) as Record<
    T,
    { description: string }
  >;
}

export const AdvanceArrearsEnum = builder.enumType('AdvanceArrears', { values: ADVANCE_ARREARS });
export const RepaymentFrequencyEnum = builder.enumType('RepaymentFrequency', { values: REPAYMENT_FREQUENCIES });
export const AssetStateEnum = builder.enumType('AssetState', { values: ASSET_STATES });
export const TransactionTypeEnum = builder.enumType('TransactionType', { values: TRANSACTION_TYPES });
export const CardTypeEnum = builder.enumType('CardType', { values: CARD_TYPES });
export const DocLevelEnum = builder.enumType('DocLevel', { values: DOC_LEVELS });
export const ApiTokenScopeEnum = builder.enumType('ApiTokenScope', { values: API_TOKEN_SCOPES });
export const ServiceEnvironmentEnum = builder.enumType('ServiceEnvironment', {
  description: 'Where a token was issued; it is accepted only there',
  values: SERVICE_ENVIRONMENTS,
});
export const ApiTokenOriginEnum = builder.enumType('ApiTokenOrigin', {
  description: 'How a token was created: ui (by its user), mcp (for an AI assistant; accepted only at POST /mcp)',
  values: API_TOKEN_ORIGINS,
});
export const RateBandEnum = builder.enumType('RateBand', { values: RATE_BANDS });

export const ScenarioKindEnum = builder.enumType('ScenarioKind', {
  description: 'recent: kept automatically, newest 20 per tool; saved: promoted with a name, kept until deleted',
  values: SCENARIO_KINDS,
});

export const EvaluationStatusEnum = builder.enumType('EvaluationStatus', {
  values: described(EVALUATION_STATUSES, {
    confirmed: 'every checked criterion was supplied and satisfied',
    possible: 'a checked criterion had no input: see missing_fields',
  }),
});

export const DegradedEnum = builder.enumType('Degraded', {
  values: described(DEGRADED_HALVES, { rates: 'the rate engine is missing', approvals: 'approval checks are missing' }),
});

export const CompoundingFrequencyEnum = builder.enumType('CompoundingFrequency', {
  description: 'w weekly, m monthly, q quarterly, y yearly (none stated = monthly)',
  values: COMPOUNDING_FREQUENCIES,
});
export const TriStateEnum = builder.enumType('TriState', {
  description: "A product's answer to a yes/no deal question: both accepts either",
  values: TRI_STATES,
});
export const VersionResourceEnum = builder.enumType('VersionResource', {
  description: 'rate_card: products and rate brackets; asset_mapping: which assets they price',
  values: VERSION_RESOURCES,
});
export const IssueReportKindEnum = builder.enumType('IssueReportKind', {
  values: described(ISSUE_REPORT_KINDS, {
    approval: 'a stated approval criterion is wrong or stale',
    pricing: 'a rate or repayment figure is wrong',
  }),
});
export const IssueReportStatusEnum = builder.enumType('IssueReportStatus', { values: ISSUE_REPORT_STATUSES });
