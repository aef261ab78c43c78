/** A priced bracket as the API shows it: rates and repayments as plain decimal strings (Rule 10). */
import type { Deal, PricedBracket, RepaymentFrequency } from '../catalogue/model.ts';
import { formatMoney, formatRate, roundMoney } from './finance.ts';

/** Whose card a row prices: the financier, its product and the rate bracket. */
export interface RateCardIdentity {
  organisation_id: number;
  organisation_name: string;
  product_id: number;
  product_name: string;
  rate_bracket_id: number;
  rate_bracket_name: string;
}

export interface CalculatorRow extends RateCardIdentity {
  base_min: string;
  base_max: string;
  rate_min: string;
  rate_max: string;
  e_min: string;
  e_max: string;
  repayment_min: string;
  repayment_max: string;
  balloon: number;
  commission: number;
  amount_financed: number;
  instalments: number;
  repayment_frequency: RepaymentFrequency;
  advance: boolean;
  monthly_fee_per_instalment: number;
  /** Kept for the amortisation schedule (GraphQL); not part of REST bodies. */
  priced: PricedBracket;
}

/** The row for one priced bracket of `deal` (the normalised deal: its defaults already applied). */
export function calculatorRow(
  priced: PricedBracket,
  organisationName: string,
  deal: Pick<Deal, 'repayment_frequency'>,
): CalculatorRow {
  return {
    organisation_id: priced.organisation_id,
    organisation_name: organisationName,
    product_id: priced.product_id,
    product_name: priced.product_name,
    rate_bracket_id: priced.rate_bracket_id,
    rate_bracket_name: priced.rate_bracket_name,
    base_min: formatRate(priced.base_min),
    base_max: formatRate(priced.base_max),
    rate_min: formatRate(priced.rate_min),
    rate_max: formatRate(priced.rate_max),
    e_min: formatRate(priced.e_min),
    e_max: formatRate(priced.e_max),
    repayment_min: formatMoney(priced.repayment_min),
    repayment_max: formatMoney(priced.repayment_max),
    balloon: roundMoney(priced.balloon),
    commission: roundMoney(priced.commission),
    amount_financed: roundMoney(priced.amount_financed),
    instalments: priced.instalments,
    repayment_frequency: deal.repayment_frequency,
    advance: priced.advance,
    monthly_fee_per_instalment: roundMoney(priced.monthly_fee_per_instalment),
    priced,
  };
}
