/** A priced bracket as the API shows it: rates and repayments as plain decimal strings (Rule 10). */
import type { RepaymentFrequency } from '../../lib/vocabulary.ts';
import type { Deal } from '../deal/index.ts';
import type { PricedBracket } from './engine.ts';
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
  return new PricedCardRow(priced, organisationName, deal.repayment_frequency);
}

/**
 * A calculator row. Built by `new`, as every per-item engine object is, so it stays young (docs/performance.md,
 * "The engines' tail").
 */
class PricedCardRow implements CalculatorRow {
  declare organisation_id: number;
  declare organisation_name: string;
  declare product_id: number;
  declare product_name: string;
  declare rate_bracket_id: number;
  declare rate_bracket_name: string;
  declare base_min: string;
  declare base_max: string;
  declare rate_min: string;
  declare rate_max: string;
  declare e_min: string;
  declare e_max: string;
  declare repayment_min: string;
  declare repayment_max: string;
  declare balloon: number;
  declare commission: number;
  declare amount_financed: number;
  declare instalments: number;
  declare repayment_frequency: RepaymentFrequency;
  declare advance: boolean;
  declare monthly_fee_per_instalment: number;
  declare priced: PricedBracket;

  constructor(priced: PricedBracket, organisationName: string, repaymentFrequency: RepaymentFrequency) {
    this.organisation_id = priced.organisation_id;
    this.organisation_name = organisationName;
    this.product_id = priced.product_id;
    this.product_name = priced.product_name;
    this.rate_bracket_id = priced.rate_bracket_id;
    this.rate_bracket_name = priced.rate_bracket_name;
    this.base_min = formatRate(priced.base_min);
    this.base_max = formatRate(priced.base_max);
    this.rate_min = formatRate(priced.rate_min);
    this.rate_max = formatRate(priced.rate_max);
    this.e_min = formatRate(priced.e_min);
    this.e_max = formatRate(priced.e_max);
    this.repayment_min = formatMoney(priced.repayment_min);
    this.repayment_max = formatMoney(priced.repayment_max);
    this.balloon = roundMoney(priced.balloon);
    this.commission = roundMoney(priced.commission);
    this.amount_financed = roundMoney(priced.amount_financed);
    this.instalments = priced.instalments;
    this.repayment_frequency = repaymentFrequency;
    this.advance = priced.advance;
    this.monthly_fee_per_instalment = roundMoney(priced.monthly_fee_per_instalment);
    this.priced = priced;
  }
}
