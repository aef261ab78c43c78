/** A plain, valid recalculation body (POST /calculator/recalculate): 60 monthly instalments in arrears, no balloon. */
import type { RecalculateInput } from '../src/modules/pricing/recalculate.ts';

export function recalculationBody(rate_bracket_id: number, change: Partial<RecalculateInput> = {}): RecalculateInput {
  return {
    rate_bracket_id,
    base_min: 9.5,
    base_max: 11.5,
    compounding_freq_value: 12,
    pv: 50000,
    balloon: 0,
    cost: 50000,
    deposit: 0,
    noi_min: 60,
    noi_max: 60,
    billing_type: null,
    repayment_frequency: 'monthly',
    ...change,
  };
}
