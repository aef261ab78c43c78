/**
 * The plan table: what each plan gives an organisation (docs/plans.md is its prose twin).
 * An organisation may be granted more than its plan through `plan_overrides` (for example a Matrix trial on Free).
 */
import type { PlanName } from './vocabulary.ts';

export const ENTITLEMENTS = ['matrix.enabled', 'consumer.enabled', 'reports.enabled'] as const;
type Entitlement = (typeof ENTITLEMENTS)[number];

export interface PlanTerms {
  plan_name: string;
  entitlements: Entitlement[];
  /** Runs per user per calendar day; null = unlimited. */
  calculator_allowance: number | null;
  matrix_allowance: number | null;
  /** User seats; null = unlimited. */
  limit: number | null;
  /** Saved scenarios per user per tool. */
  saved_scenario_limit: number;
  /** Free-tier paywall on Matrix Calculator rows. */
  paywalled: boolean;
}

export const PLAN_TERMS: Record<PlanName, PlanTerms> = {
  free: {
    plan_name: 'Free',
    entitlements: ['reports.enabled'],
    calculator_allowance: 20,
    matrix_allowance: 5,
    limit: 1,
    saved_scenario_limit: 5,
    paywalled: true,
  },
  pro: {
    plan_name: 'Pro',
    entitlements: ['matrix.enabled', 'consumer.enabled', 'reports.enabled'],
    calculator_allowance: 200,
    matrix_allowance: 100,
    limit: 3,
    saved_scenario_limit: 50,
    paywalled: false,
  },
  max: {
    plan_name: 'Max',
    entitlements: ['matrix.enabled', 'consumer.enabled', 'reports.enabled'],
    calculator_allowance: 1000,
    matrix_allowance: 500,
    limit: 5,
    saved_scenario_limit: 200,
    paywalled: false,
  },
  team: {
    plan_name: 'Team',
    entitlements: ['matrix.enabled', 'consumer.enabled', 'reports.enabled'],
    calculator_allowance: 1000,
    matrix_allowance: 500,
    limit: 20,
    saved_scenario_limit: 200,
    paywalled: false,
  },
  enterprise: {
    plan_name: 'Enterprise',
    entitlements: ['matrix.enabled', 'consumer.enabled', 'reports.enabled'],
    calculator_allowance: null,
    matrix_allowance: null,
    limit: null,
    saved_scenario_limit: 1000,
    paywalled: false,
  },
};

/** What an organisation's `plan_overrides` may carry. Keys absent = the plan's value. */
export interface PlanOverrides {
  limit?: number | null;
  calculator_allowance?: number | null;
  matrix_allowance?: number | null;
  saved_scenario_limit?: number;
  entitlements?: Entitlement[];
}

/** The plan's terms with the organisation's grants applied; entitlements are added, never taken away. */
export function effectiveTerms(plan: PlanName, overrides: PlanOverrides | null | undefined): PlanTerms {
  const base = PLAN_TERMS[plan];
  const o = overrides ?? {};
  return {
    ...base,
    calculator_allowance: 'calculator_allowance' in o ? (o.calculator_allowance ?? null) : base.calculator_allowance,
    matrix_allowance: 'matrix_allowance' in o ? (o.matrix_allowance ?? null) : base.matrix_allowance,
    limit: 'limit' in o ? (o.limit ?? null) : base.limit,
    saved_scenario_limit: o.saved_scenario_limit ?? base.saved_scenario_limit,
    entitlements: [...new Set([...base.entitlements, ...(o.entitlements ?? [])])],
  };
}
