/** Engine workloads the benchmark times. */
import type { Deal } from '../src/modules/deal/index.ts';
import type { CatalogueSnapshot } from '../src/modules/catalogue/snapshot.ts';
import type { DealRequest } from '../src/modules/deal/index.ts';
import { priceDeal, type PricingIndex } from '../src/modules/pricing/engine.ts';
import type { Structuring } from '../src/modules/structuring/engine.ts';
import { structureDealFast } from '../src/modules/structuring/engine.fast.ts';
import { structuringInput } from '../src/modules/structuring/service.ts';

/**
 * Prices each deal `rounds` times, as a commercial calculator run over every financier, and reports the work done.
 * The row count is returned so the work cannot be optimised away.
 */
export function pricingWorkload(
  index: PricingIndex,
  deals: readonly Deal[],
  rounds = 1,
): { calls: number; rows: number } {
  let rows = 0;
  let calls = 0;
  for (let round = 0; round < rounds; round++) {
    for (const deal of deals) {
      rows += priceDeal(index, deal, { organisationIds: null, type: 'commercial' }).length;
      calls++;
    }
  }
  return { calls, rows };
}

/**
 * One "what would it take?" answer as the service computes it for a broker who sees every financier, default bounds
 * and ranking: the engine the service runs (its fast path), without I/O.
 */
export function structuringWorkload(snapshot: CatalogueSnapshot, deal: Deal, request: DealRequest): Structuring {
  return structureDealFast(structuringInput(deal, { deal: request }), {
    approvals: snapshot.approvals,
    ancestry: snapshot.ancestry,
    pricingIndex: snapshot.pricingIndex,
    bracketsById: snapshot.bracketsById,
  });
}
