/** The deal a broker enters: one input type for the Calculator, the Matrix and the Matrix Calculator. */
import { builder } from '../../graphql/builder.ts';
import { AdvanceArrearsEnum, AssetStateEnum, CardTypeEnum, RepaymentFrequencyEnum, TransactionTypeEnum } from '../../graphql/enums.ts';

export const DealInput = builder.inputType('DealInput', {
  description: 'A deal, with the field names of the REST request body (POST /matrix-calculator/)',
  fields: (t) => ({
    cost: t.field({ type: 'Decimal', required: true, description: 'Asset cost; GST-inclusive when cost_gst' }),
    asset_value: t.int({ required: true, description: 'Asset id (GET /assets/search)' }),
    term: t.int({ description: 'Months; required to price' }),
    advance_arrears: t.field({ type: AdvanceArrearsEnum, description: 'none prices in arrears; required to price' }),
    repayment_frequency: t.field({ type: RepaymentFrequencyEnum, description: 'none prices monthly; required to price' }),
    cost_gst: t.boolean(),
    abn_age: t.int(), gst_age: t.int(), asset_age: t.int(), year_model: t.int(),
    borrower_age_youngest: t.int(), borrower_age_oldest: t.int(), borrower_age: t.int(),
    file_age: t.int(), credit_score: t.int(),
    industry: t.string({ description: 'ANZSIC division (GET /approvals/options)' }),
    asset_state: t.field({ type: AssetStateEnum }),
    transaction_type: t.field({ type: TransactionTypeEnum }),
    home_owner: t.boolean(), private_sale: t.boolean(), sale_hire_back: t.boolean(),
    asset_owner: t.boolean({ description: "The calculator's name for home_owner" }),
    preferred_financier: t.intList({ description: 'Restrict to these organisation ids' }),
    type: t.field({ type: CardTypeEnum }),
    deposit: t.float(), deposit_gst: t.boolean(), deposit_percentage: t.boolean(),
    brokerage: t.float(), brokerage_gst: t.boolean(), brokerage_percentage: t.boolean(),
    origination_fee: t.float(), origination_fee_gst: t.boolean(),
    balloon: t.float(), balloon_gst: t.boolean(), balloon_percentage: t.boolean(),
    doc_fee_financed: t.string({ description: 'yes or no; wins over the product default' }),
    asset_age_plus_term: t.int(),
    employment_status: t.string(), citizenship_status: t.string(),
    lvr: t.float({ description: 'Loan-to-value, % of asset value; cards whose max_lvr is below it drop out' }),
  }),
});
