/** Engine workloads the benchmark times. */
import type { Deal } from '../src/modules/catalogue/model.ts';
import { priceDeal, type PricingIndex } from '../src/modules/pricing/engine.ts';

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
