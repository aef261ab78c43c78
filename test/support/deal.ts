import type { Deal } from '../../src/modules/deal/index.ts';

/** The answers a deal may leave blank, all blank: each engine's fixtures add what their tests price or check. */
export const UNANSWERED: Omit<
  Deal,
  | 'type'
  | 'asset_value'
  | 'term'
  | 'advance_arrears'
  | 'repayment_frequency'
  | 'cost'
  | 'cost_gst'
  | 'cost_inc'
  | 'deposit'
  | 'brokerage_gst'
  | 'origination_fee_gst'
> = {
  balloon_amount: 0,
  brokerage: 0,
  brokerage_percentage: false,
  origination_fee: 0,
  doc_fee_financed: null,
  lvr: null,
  abn_age: null,
  gst_age: null,
  asset_age: null,
  asset_age_plus_term: null,
  borrower_age_youngest: null,
  borrower_age_oldest: null,
  file_age: null,
  credit_score: null,
  industry: null,
  asset_state: null,
  transaction_type: null,
  home_owner: null,
  private_sale: null,
  sale_hire_back: null,
  preferred_financier: null,
};
