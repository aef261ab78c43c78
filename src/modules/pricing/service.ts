/**
 * The Calculator's use cases: load the catalogue snapshot (one warm query), meter the run, price, save a recent.
 * No GraphQL here; the engines are pure and called with plain records.
 */
import { whileDatabaseWorks } from '../../lib/db.ts';
import { NotFoundError, ValidationError } from '../../lib/errors.ts';
import type { Surface } from '../../lib/vocabulary.ts';
import type { Caller } from '../../lib/caller.ts';
import { bookOf } from '../../lib/policy.ts';
import { meterRun, requireSurface, surfaceState } from '../billing/index.ts';
import { requireKnownAsset, snapshotFor } from '../catalogue/index.ts';
import { validatedDeal, type DealRequest } from '../deal/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import {
  recalculate as recalculateRow,
  recalculationInputErrors,
  type RecalculateInput,
  type RecalculateResult,
} from './recalculate.ts';
import type { PricedBracket } from './engine.ts';
import { RecalculationFailedError } from './errors.ts';
import { calculatorRow, type CalculatorRow } from './rows.ts';
import { scenarioSummary } from '../scenarios/index.ts';

export interface CalculatorResult {
  results: CalculatorRow[];
  priced_count: number;
  scenario_id: number;
}

/**
 * A run as system work (re-pricing a saved scenario as its owner, docs/scenarios.md): the same checks and engines,
 * but nothing metered and no recent recorded. Answers the rows, the cheapest one and the catalogue version priced.
 */
export interface UnmeteredRun {
  meter: false;
}

export interface UnmeteredCalculatorResult extends Omit<CalculatorResult, 'scenario_id'> {
  cheapest: CalculatorRow | undefined;
  catalogue_version: bigint;
}

export async function calculate(ctx: ServiceContext, caller: Caller, request: DealRequest): Promise<CalculatorResult>;
export async function calculate(
  ctx: ServiceContext,
  caller: Caller,
  request: DealRequest,
  options: UnmeteredRun,
): Promise<UnmeteredCalculatorResult>;
export async function calculate(
  ctx: ServiceContext,
  caller: Caller,
  request: DealRequest,
  options?: UnmeteredRun,
): Promise<CalculatorResult | UnmeteredCalculatorResult> {
  const deal = validatedDeal(request, 'calculator', ctx.clock.now());
  requireSurface(ctx, caller, deal.type === 'consumer' ? 'consumer_calculator' : 'calculator');
  const snapshot = await snapshotFor(ctx);
  requireKnownAsset(snapshot, deal.asset_value);
  // The engines run before metering so the recent scenario can carry its summary in the same single statement;
  // a run the allowance refuses still consumes and records nothing.
  const priced = ctx.services.engines.priceDeal(snapshot.pricingIndex, deal, {
    organisationIds: bookOf(caller),
    type: deal.type,
  });
  const names = snapshot.organisationNames;
  const row = (p: PricedBracket) => calculatorRow(p, names.get(p.organisation_id) ?? '', deal);
  const results: CalculatorRow[] = priced.length ? [row(priced[0])] : [];
  if (options?.meter === false) {
    for (let i = 1; i < priced.length; i++) results.push(row(priced[i]));
    return { results, priced_count: results.length, cheapest: results[0], catalogue_version: snapshot.version };
  }
  const summary = scenarioSummary(deal, snapshot.assetsById.get(deal.asset_value)?.name ?? '', results[0]);
  // Metering needs only the cheapest row: the others (1,300 on a large catalogue) are formatted while the database
  // runs the statement.
  const [scenario_id] = await whileDatabaseWorks(
    ctx.prisma,
    () => meterRun(ctx, caller, ['calculator'], { tool: 'calculator', request, summary }),
    () => {
      for (let i = 1; i < priced.length; i++) results.push(row(priced[i]));
    },
  );
  return { results, priced_count: results.length, scenario_id };
}

/**
 * Re-prices one edited card. Only a bracket the caller could have been shown is re-priced: its financier is in the
 * caller's book (bookOf) and the caller can run the surface its card type belongs to (commercial: calculator;
 * consumer: consumer_calculator, i.e. Best Interests Duty standing), the same rule as `calculate` and the
 * `preferred_financier` options. Anything else, an unknown id included, is the same NotFoundError: the repayment
 * carries the product's monthly fee, so pricing another book's bracket would reveal it.
 */
export async function recalculate(
  ctx: ServiceContext,
  caller: Caller,
  input: RecalculateInput,
): Promise<RecalculateResult> {
  // Input mistakes are a 400 naming the field, whichever surface asks; only a row that cannot be re-priced is the
  // documented 500.
  const mistakes = recalculationInputErrors(input);
  if (mistakes.length) throw new ValidationError(mistakes);
  const snapshot = await snapshotFor(ctx);
  const bracket = snapshot.bracketsById.get(input.rate_bracket_id);
  const book = bookOf(caller);
  const visible =
    bracket !== undefined &&
    (book === null || book.has(bracket.organisation_id)) &&
    snapshot.organisations.get(bracket.organisation_id)?.type === 'f' &&
    surfaceState(ctx, caller, bracket.type === 'consumer' ? 'consumer_calculator' : 'calculator') === 'available';
  if (!visible) throw new NotFoundError('Rate bracket not found.');
  const outcome = recalculateRow(input, snapshot.pricingIndex);
  if (!outcome.ok) throw new RecalculationFailedError(outcome.reason);
  return outcome.value;
}

/** Options for `preferred_financier`, per surface (GET /calculator/financiers), sorted by name. */
export async function financierOptions(
  ctx: ServiceContext,
  caller: Caller,
  surface: Surface,
): Promise<{ id: number; name: string }[]> {
  if (surfaceState(ctx, caller, surface) !== 'available') return [];
  const snapshot = await snapshotFor(ctx);
  const ids = new Set<number>();
  if (surface === 'calculator' || surface === 'consumer_calculator') {
    const type = surface === 'calculator' ? 'commercial' : 'consumer';
    for (const b of snapshot.brackets) if (b.type === type) ids.add(b.organisation_id);
  } else if (surface === 'matrix') {
    for (const a of snapshot.approvals) ids.add(a.organisation_id);
  } else {
    for (const a of snapshot.approvals) {
      if (a.rate_bracket_ids.some((id) => snapshot.bracketsById.get(id)?.type === 'commercial'))
        ids.add(a.organisation_id);
    }
  }
  const book = bookOf(caller);
  return [...ids]
    .filter((id) => (book === null || book.has(id)) && snapshot.organisations.get(id)?.type === 'f')
    .map((id) => ({ id, name: snapshot.organisationNames.get(id) ?? '' }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id);
}
