/**
 * The Approval Matrix and the Matrix Calculator. Per run: the warm snapshot (one query), one metering statement,
 * then pure engines over in-memory indexes. Nothing here is O(approvals x brackets).
 */
import { whileDatabaseWorks } from '../../lib/db.ts';
import { logger } from '../../lib/logger.ts';
import type { DegradedHalf } from '../../lib/vocabulary.ts';
import { financiersInScope } from '../../lib/policy.ts';
import { meterRun, requireSurface } from '../billing/index.ts';
import { termsOf, type Caller } from '../../lib/caller.ts';
import { requireKnownAsset, snapshotFor, type CatalogueSnapshot } from '../catalogue/index.ts';
import { scenarioSummary, type CheapestRow } from '../scenarios/index.ts';
import { validatedDeal, type Deal, type DealRequest } from '../deal/index.ts';
import type { PricedBracket, PricedMarket } from '../pricing/index.ts';
import { calculatorRow } from '../pricing/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import type { ApprovalOutcome } from './criteria.ts';
import { groupByFinancier } from './results.ts';
import { FREE_TIER_VISIBLE_ROWS, joinMatrixCalculator } from './join.ts';
import {
  financierGroup,
  matrixCalculatorRows,
  pricedCardItem,
  type MatrixCalculatorRow,
  type MatrixFinancierGroup,
  type PricedCardItem,
} from './rows.ts';

export interface MatrixResult {
  results: MatrixFinancierGroup[];
  destination_count: number;
  /** The recent scenario this run was saved as (promote it to keep it). */
  scenario_id: number;
}

export async function runMatrix(ctx: ServiceContext, caller: Caller, request: DealRequest): Promise<MatrixResult> {
  const deal = validatedDeal(request, 'matrix', ctx.clock.now());
  requireSurface(ctx, caller, 'matrix');
  const snapshot = await snapshotFor(ctx);
  requireKnownAsset(snapshot, deal.asset_value);
  const outcomes = ctx.services.engines.evaluateApprovals(snapshot.criteria, deal, snapshot.ancestry, {
    organisationIds: financiersInScope(caller, deal.preferred_financier),
  });
  // Metered after the engine so the recent carries its summary in the one statement (a refused run records nothing).
  // The summary names no financier, so the groups are built while the database runs the statement.
  const summary = scenarioSummary(deal, snapshot.assetsById.get(deal.asset_value)?.name ?? '', undefined);
  const [scenario_id, results] = await whileDatabaseWorks(
    ctx.prisma,
    () => meterRun(ctx, caller, ['matrix'], { tool: 'matrix', request, summary }),
    () => groupByFinancier(outcomes, snapshot.organisationNames).map(financierGroup),
  );
  return { results, destination_count: outcomes.length, scenario_id };
}

export interface MatrixCalculatorResult {
  results: MatrixCalculatorRow[];
  priced_count: number;
  destination_count: number;
  degraded: DegradedHalf | null;
  /** The recent scenario this run was saved as (promote it to keep it). */
  scenario_id: number;
  /** Degraded run where the rate engine survived: the unjoined priced cards. */
  priced?: PricedCardItem[];
  /** Degraded run where the approvals lookup survived: the unjoined groups. */
  financiers?: MatrixFinancierGroup[];
}

/** Runs one engine; a failure is logged and becomes null so the other half can still answer. */
function attempt<T>(half: DegradedHalf, run: () => T): T | null {
  try {
    return run();
  } catch (error) {
    logger.error('matrix_calculator.engine_failed', { half, message: (error as Error).message });
    return null;
  }
}

/** The cheapest row a Matrix Calculator run showed (masked rows excluded), as a summary names it. */
type ShownRow = CheapestRow & { e_min: string | null };

/**
 * A run as system work (re-pricing a saved scenario as its owner, docs/scenarios.md): the same checks, engines and
 * paywall, but nothing metered and no recent recorded.
 */
export interface UnmeteredMatrixCalculatorResult extends Omit<MatrixCalculatorResult, 'scenario_id'> {
  cheapest: ShownRow | undefined;
  catalogue_version: bigint;
}

export async function runMatrixCalculator(
  ctx: ServiceContext,
  caller: Caller,
  request: DealRequest,
): Promise<MatrixCalculatorResult>;
export async function runMatrixCalculator(
  ctx: ServiceContext,
  caller: Caller,
  request: DealRequest,
  options: { meter: false },
): Promise<UnmeteredMatrixCalculatorResult>;
export async function runMatrixCalculator(
  ctx: ServiceContext,
  caller: Caller,
  request: DealRequest,
  run?: { meter: false },
): Promise<MatrixCalculatorResult | UnmeteredMatrixCalculatorResult> {
  const deal = validatedDeal(request, 'matrix_calculator', ctx.clock.now());
  requireSurface(ctx, caller, 'matrix_calculator');
  const snapshot = await snapshotFor(ctx);
  requireKnownAsset(snapshot, deal.asset_value);
  const scope = financiersInScope(caller, deal.preferred_financier);
  const { engines } = ctx.services;
  const outcomes: ApprovalOutcome[] | null = attempt('approvals', () =>
    engines.evaluateApprovals(snapshot.criteria, deal, snapshot.ancestry, { organisationIds: scope }),
  );
  // With the approvals the join picks each approval's cheapest itself and builds rows only for those it shows: the
  // market, unsorted and without a row per bracket (read at once, before any other pricing call). Without them the
  // priced cards are the answer, cheapest first.
  const options = { organisationIds: scope, type: 'commercial' } as const;
  const priced: PricedMarket | PricedBracket[] | null = attempt('rates', () =>
    outcomes
      ? engines.priceMarket(snapshot.pricingIndex, deal, options)
      : engines.priceDeal(snapshot.pricingIndex, deal, options),
  );
  if (!outcomes && !priced) throw new Error('both Matrix Calculator engines failed');
  const result = matrixCalculatorResult(snapshot, deal, outcomes, priced, termsOf(caller).paywalled);
  // Metered after the engines so the recent carries its summary in the one statement: the cheapest result the caller
  // was shown (a masked row's figures are not shown, so never summarised). A refused run records nothing.
  const shown = [...result.results, ...(result.priced ?? [])];
  const cheapest: ShownRow | undefined = cheapestShown(shown);
  if (run?.meter === false) return { ...result, cheapest, catalogue_version: snapshot.version };
  const summary = scenarioSummary(deal, snapshot.assetsById.get(deal.asset_value)?.name ?? '', cheapest);
  const scenario_id = await meterRun(ctx, caller, ['calculator', 'matrix'], {
    tool: 'matrix_calculator',
    request,
    summary,
  });
  return { ...result, scenario_id };
}

/** The shown row with the lowest effective rate, then repayment (the Calculator's order); masked rows excluded. */
function cheapestShown<R extends CheapestRow & { e_min: string | null }>(rows: readonly R[]): R | undefined {
  let best: R | undefined;
  for (const row of rows) {
    if (row.e_min === null || row.repayment_min === null) continue;
    if (
      best === undefined ||
      Number(row.e_min) < Number(best.e_min) ||
      (Number(row.e_min) === Number(best.e_min) && Number(row.repayment_min) < Number(best.repayment_min))
    )
      best = row;
  }
  return best;
}

function matrixCalculatorResult(
  snapshot: CatalogueSnapshot,
  deal: Deal,
  outcomes: ApprovalOutcome[] | null,
  priced: PricedMarket | PricedBracket[] | null,
  paywalled: boolean,
): Omit<MatrixCalculatorResult, 'scenario_id'> {
  if (outcomes && priced) {
    const join = joinMatrixCalculator(outcomes, priced, snapshot.organisationNames);
    return {
      results: matrixCalculatorRows(join.rows, { masked: paywalled }),
      priced_count: join.priced_count,
      destination_count: join.destination_count,
      degraded: null,
    };
  }
  if (Array.isArray(priced)) {
    // Approval checks are missing: the priced cards, unjoined, behind the same paywall (cheapest first already).
    return {
      results: [],
      priced_count: priced.length,
      destination_count: 0,
      degraded: 'approvals',
      priced: priced.map((p, i) =>
        pricedCardItem(
          calculatorRow(p, snapshot.organisationNames.get(p.organisation_id) ?? '', deal),
          paywalled && i >= FREE_TIER_VISIBLE_ROWS,
        ),
      ),
    };
  }
  return {
    results: [],
    priced_count: 0,
    destination_count: outcomes!.length,
    degraded: 'rates',
    financiers: groupByFinancier(outcomes!, snapshot.organisationNames).map(financierGroup),
  };
}
