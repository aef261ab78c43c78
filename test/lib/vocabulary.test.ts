/**
 * The database's enums (prisma/schema.prisma) hold the same values, in the same order, as the service's lists
 * (src/lib/vocabulary.ts), so the two cannot drift: a value added on one side only fails here.
 */
import { describe, expect, it } from 'vitest';
import * as PrismaEnums from '../../src/generated/prisma/enums.ts';
import * as V from '../../src/lib/vocabulary.ts';

/** Prisma enum -> the list it stores. */
const STORED: Record<string, readonly string[]> = {
  OrganisationType: V.ORGANISATION_TYPES,
  Plan: V.PLANS,
  ApiTokenScope: V.API_TOKEN_SCOPES,
  ServiceEnvironment: V.SERVICE_ENVIRONMENTS,
  ApiTokenOrigin: V.API_TOKEN_ORIGINS,
  SubscriptionStatus: V.SUBSCRIPTION_STATUSES,
  CompoundingFrequency: V.COMPOUNDING_FREQUENCIES,
  TriState: V.TRI_STATES,
  CardType: V.CARD_TYPES,
  DocLevel: V.DOC_LEVELS,
  AssetState: V.ASSET_STATES,
  TransactionType: V.TRANSACTION_TYPES,
  ScenarioKind: V.SCENARIO_KINDS,
  NotificationCategory: V.NOTIFICATION_CATEGORIES,
  VersionResource: V.VERSION_RESOURCES,
  IssueReportKind: V.ISSUE_REPORT_KINDS,
  NotificationOutcome: V.NOTIFICATION_OUTCOMES,
};

/** Enums only the database uses (no request, response or rule reads them). */
const DATABASE_ONLY: string[] = [];

const prismaEnums = Object.entries(PrismaEnums).filter(([, value]) => typeof value === 'object' && value !== null) as [
  string,
  Record<string, string>,
][];

describe('every Prisma enum stores a list of the vocabulary', () => {
  it('names each Prisma enum either as a vocabulary list or as database-only', () => {
    expect(prismaEnums.map(([name]) => name).sort()).toEqual([...Object.keys(STORED), ...DATABASE_ONLY].sort());
  });

  it.each(Object.entries(STORED))('%s holds the vocabulary list, in order', (name, list) => {
    const stored = prismaEnums.find(([n]) => n === name)?.[1];
    expect(Object.values(stored ?? {})).toEqual([...list]);
  });
});

describe('isOneOf accepts the list members only', () => {
  it('accepts members and refuses anything else', () => {
    expect(V.isOneOf(V.REPAYMENT_FREQUENCIES, 'weekly')).toBe(true);
    expect(V.isOneOf(V.REPAYMENT_FREQUENCIES, 'Weekly')).toBe(false);
    expect(V.isOneOf(V.REPAYMENT_FREQUENCIES, 'toString')).toBe(false);
    expect(V.isOneOf(V.REPAYMENT_FREQUENCIES, null)).toBe(false);
    expect(V.isOneOf(V.REPAYMENT_FREQUENCIES, 1)).toBe(false);
  });
});
