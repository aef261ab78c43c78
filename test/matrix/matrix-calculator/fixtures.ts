/**
 * Shared setup of the POST /api/v1/matrix-calculator/ tests (one file per rule in this folder): the app on a fixed
 * clock, the callers, the deal, the row's field lists, and builders for a catalogue of the test's own over the seed kit.
 *
 * Each test file calls useMatrixCalculatorApp() once at its top; `t`, `kit`, `pro`, `free` and `trial` are live
 * bindings, set by its beforeAll, so test bodies read them as plain variables.
 */
import { afterAll, beforeAll } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.ts';
import { startTestApp, type TestApp } from '../../../testkit/app.ts';
import {
  seedKit,
  type ApprovalInput,
  type BracketInput,
  type FinancierSeed,
  type ProductInput,
  type ProductSeed,
  type SeedKit,
} from '../../../testkit/seed.ts';

export const clock = new ManualClock(new Date('2026-11-21T02:00:00Z')); // 13:00 in Sydney: one calendar day throughout
export let t: TestApp;
export let kit: SeedKit;
export let pro: string; // broker.admin@demo.test, Pro (org 8)
export let free: string; // free.broker@demo.test, Free (org 9)
export let trial: string; // a user of org 10: Free with a Matrix trial (plan_overrides entitlements matrix.enabled)

/** Org 8 (Pro) runs dozens of times in a file: unlimited unless a test sets its own allowances, then restored. */
export const UNLIMITED = { calculator_allowance: null, matrix_allowance: null };
export const DEAL = {
  cost: '50000',
  asset_value: 11,
  term: 60,
  advance_arrears: 'arrears',
  repayment_frequency: 'monthly',
} as const;

export const ROW_KEYS = [
  'approval_id',
  'approval_name',
  'balloon',
  'base_max',
  'base_min',
  'commission',
  'deposit_amount',
  'deposit_percentage',
  'deposit_required',
  'doc_level',
  'e_max',
  'e_min',
  'masked',
  'max_term',
  'missing_fields',
  'organisation_id',
  'organisation_name',
  'priced_bracket_count',
  'product_id',
  'product_name',
  'rate_bracket_id',
  'rate_bracket_name',
  'repayment_max',
  'repayment_min',
  'status',
];
export const FIGURES = [
  'base_min',
  'base_max',
  'e_min',
  'e_max',
  'repayment_min',
  'repayment_max',
  'balloon',
  'commission',
] as const;
const DOC_RANK: Record<string, number> = { low_doc: 0, lite_doc: 1, full_doc: 2 };
const STATUS_RANK: Record<string, number> = { confirmed: 0, possible: 1 };
/** Mobile wording (ios, android, unrecognised): a fact only, no plan, no price, no link. */
export const SALES_TALK = /\bpro\b|\bmax\b|\bteam\b|enterprise|plan|upgrade|\$|price|http|www\.|\/|billing/i;

export function useMatrixCalculatorApp(): void {
  beforeAll(async () => {
    t = await startTestApp({ clock });
    kit = seedKit(t.database.prisma);
    await kit.planOverrides(8, UNLIMITED);
    pro = (await t.login('broker.admin@demo.test')).access;
    free = (await t.login('free.broker@demo.test')).access;
    await kit.user({ email: 'trial.broker@demo.test', password: 'trial-password-1', organisation: 10 });
    trial = (await t.login('trial.broker@demo.test', 'trial-password-1')).access;
  });
  afterAll(async () => {
    await t?.close();
  });
}

export const run = (
  token: string | null,
  body: unknown,
  headers?: Record<string, string>,
  path = '/api/v1/matrix-calculator/',
) => t.rest('POST', path, { token, body, headers });

export const prisma = () => t.database.prisma;

/** Usage counters of one user today, by metric. */
export async function usageOf(userId: number): Promise<Record<string, number>> {
  const rows = await prisma().dailyUsage.findMany({ where: { user_id: userId } });
  return Object.fromEntries(rows.filter((r) => r.count > 0).map((r) => [r.metric, r.count]));
}

/** A row's sort key: status, doc level, e_min parsed. */
export const key = (r: any) => [STATUS_RANK[r.status], DOC_RANK[r.doc_level], Number.parseFloat(r.e_min)] as const;

// ---------- a catalogue of the test's own, by id ----------

/** The asset every bracket here is mapped to: the deal's asset_value. */
const ASSET = DEAL.asset_value;
const financiers = new Map<number, FinancierSeed>();
const products = new Map<number, ProductSeed>();

export async function financierOrg(name: string): Promise<number> {
  const financier = await kit.financier({ name });
  financiers.set(financier.id, financier);
  return financier.id;
}
export async function productOf(organisationId: number, data: ProductInput = {}): Promise<number> {
  const product = await financiers.get(organisationId)!.product(data);
  products.set(product.id, product);
  return product.id;
}
/** A commercial bracket at `base` (base_max = base + 2) mapped to asset 11. No fees: e_min equals base exactly. */
export async function bracketOf(
  organisationId: number,
  productId: number,
  base: number,
  data: BracketInput = {},
): Promise<number> {
  const product = products.get(productId)!;
  if (product.organisation_id !== organisationId)
    throw new Error(`product ${productId} is not organisation ${organisationId}'s`);
  return (await product.bracket({ base_min: base, ...data, assets: [ASSET] })).id;
}
export async function approvalOf(organisationId: number, data: ApprovalInput, bracketIds: number[]): Promise<number> {
  return (await financiers.get(organisationId)!.approval({ ...data, brackets: bracketIds })).id;
}

/** Five rows over two financiers: every sort key decides at least one pair, and the paywall has a tie at its edge. */
export async function orderingCatalogue(prefix: string) {
  const zeta = await financierOrg(`${prefix} Zeta Finance`); // created first: lower org id, lower approval id
  const alpha = await financierOrg(`${prefix} Alpha Finance`);
  const zp = await productOf(zeta);
  const ap = await productOf(alpha);
  const zeta95 = await approvalOf(zeta, { name: 'Zeta 9.5' }, [await bracketOf(zeta, zp, 9.5)]);
  const alpha95 = await approvalOf(alpha, { name: 'Alpha 9.5' }, [await bracketOf(alpha, ap, 9.5)]);
  const alpha1025 = await approvalOf(alpha, { name: 'Alpha 10.25' }, [await bracketOf(alpha, ap, 10.25)]);
  const fullDoc7 = await approvalOf(alpha, { name: 'Alpha full doc 7', doc_level: 'full_doc' }, [
    await bracketOf(alpha, ap, 7),
  ]);
  const possible6 = await approvalOf(alpha, { name: 'Alpha possible 6', min_credit_score: 600 }, [
    await bracketOf(alpha, ap, 6),
  ]);
  return { zeta, alpha, zeta95, alpha95, alpha1025, fullDoc7, possible6 };
}
