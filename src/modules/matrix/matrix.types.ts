import { builder, type ObjectFieldBuilder } from '../../graphql/builder.ts';
import { DegradedEnum, DocLevelEnum, EvaluationStatusEnum } from '../../graphql/enums.ts';
import { approvalField } from '../approvals/approval.loader.ts';
import { financierField } from '../organisations/financier.loader.ts';
import { productField, rateBracketField } from '../rate-cards/card.loader.ts';
import { rateCardIdentityFields } from '../pricing/pricing.types.ts';
import type { MatrixCalculatorResult, MatrixResult } from './service.ts';
import type {
  MatrixApprovalOutcome,
  MatrixApprovalResult,
  MatrixCalculatorRow,
  MatrixFinancierGroup,
  PricedCardItem,
} from './rows.ts';

/** The figures the Free-tier paywall nulls on a masked row: the same fields on joined rows and degraded priced cards. */
type MaskableFigures = Pick<
  MatrixCalculatorRow,
  'base_min' | 'base_max' | 'e_min' | 'e_max' | 'repayment_min' | 'repayment_max' | 'balloon' | 'commission'
>;

function maskableFigureFields(t: ObjectFieldBuilder<MaskableFigures>) {
  return {
    base_min: t.exposeString('base_min', {
      nullable: true,
      description: "The card's annual base rate at the low end of the bracket's band, percent; null on a masked row",
    }),
    base_max: t.exposeString('base_max', {
      nullable: true,
      description: "The card's annual base rate at the high end of the band, percent; null on a masked row",
    }),
    e_min: t.exposeString('e_min', {
      nullable: true,
      description:
        'Effective annual rate on the money advanced for the asset at the low end, percent; null on a masked row',
    }),
    e_max: t.exposeString('e_max', {
      nullable: true,
      description: 'Effective annual rate at the high end of the band, percent; null on a masked row',
    }),
    repayment_min: t.exposeString('repayment_min', {
      nullable: true,
      description:
        "Each instalment at the low end, dollars, with the product's monthly fee share; null on a masked row",
    }),
    repayment_max: t.exposeString('repayment_max', {
      nullable: true,
      description:
        "Each instalment at the high end, dollars, with the product's monthly fee share; null on a masked row",
    }),
    balloon: t.exposeFloat('balloon', {
      nullable: true,
      description: 'Lump sum due with the last instalment, dollars; null on a masked row',
    }),
    commission: t.exposeFloat('commission', {
      nullable: true,
      description: 'Brokerage paid, after the product caps, dollars GST-inclusive; null on a masked row',
    }),
  };
}

/** An approval's answer for the deal: the same fields on a Matrix approval and on a Matrix Calculator row. */
function approvalOutcomeFields(t: ObjectFieldBuilder<MatrixApprovalOutcome>) {
  return {
    approval_id: t.exposeInt('approval_id', { description: 'The approval the deal is not ruled out of' }),
    approval_name: t.exposeString('approval_name', { description: "The approval's name" }),
    doc_level: t.field({
      type: DocLevelEnum,
      description: "The approval's documentation burden; results sort least onerous first",
      resolve: (r) => r.doc_level,
    }),
    status: t.field({
      type: EvaluationStatusEnum,
      description: 'confirmed: every criterion it checks was answered and met; possible: some are unanswered',
      resolve: (r) => r.status,
    }),
    missing_fields: t.exposeStringList('missing_fields', {
      description: 'Request fields that would need answering to move possible to confirmed',
    }),
    deposit_percentage: t.exposeFloat('deposit_percentage', {
      nullable: true,
      description: "The approval's minimum deposit, percent of the GST-inclusive cost; null = not checked",
    }),
    deposit_amount: t.exposeFloat('deposit_amount', {
      nullable: true,
      description: "The approval's minimum deposit, dollars; null = not checked",
    }),
    deposit_required: t.exposeFloat('deposit_required', {
      nullable: true,
      description:
        'The deposit the deal needs, dollars: the larger of the two minimums; null when the approval sets neither',
    }),
    max_term: t.exposeInt('max_term', {
      nullable: true,
      description: 'Longest term the approval accepts, months (a longer requested term drops it); null = not checked',
    }),
  };
}

const MatrixApprovalResultRef = builder.objectRef<MatrixApprovalResult>('MatrixApprovalResult').implement({
  description: 'One approval not ruled out; approvals the deal violates are omitted',
  fields: (t) => ({
    ...approvalOutcomeFields(t),
    approval: t.loadable(approvalField),
    rate_bracket_ids: t.exposeIntList('rate_bracket_ids', {
      description: 'Rate brackets linked to the approval (what the Matrix Calculator joins on)',
    }),
  }),
});

const MatrixFinancierGroupRef = builder.objectRef<MatrixFinancierGroup>('MatrixFinancierGroup').implement({
  description: "One financier's approvals that the deal is not ruled out of",
  fields: (t) => ({
    organisation_id: t.exposeInt('organisation_id', { description: "The financier's organisation id" }),
    organisation_name: t.exposeString('organisation_name', { description: "The financier's name; groups sort on it" }),
    financier: t.loadable(financierField),
    approvals: t.field({
      type: [MatrixApprovalResultRef],
      description: 'Least onerous doc level first, then higher priority, then name',
      resolve: (g) => g.approvals,
    }),
  }),
});

export const MatrixResultRef = builder.objectRef<MatrixResult>('MatrixResult').implement({
  description: 'An Approval Matrix run: the approvals the deal is not ruled out of, grouped by financier',
  fields: (t) => ({
    results: t.field({
      type: [MatrixFinancierGroupRef],
      description: 'One group per financier with an approval left, by financier name',
      resolve: (r) => r.results,
    }),
    destination_count: t.exposeInt('destination_count', { description: 'Approvals not ruled out' }),
    scenario_id: t.exposeInt('scenario_id', { description: 'The recent scenario this run was saved as' }),
  }),
});

const MatrixCalculatorRowRef = builder.objectRef<MatrixCalculatorRow>('MatrixCalculatorRow').implement({
  description:
    'A financier that can both price and approve the deal, with the cheapest bracket the approval accepts. Masked rows have their figures null',
  fields: (t) => ({
    ...rateCardIdentityFields(t),
    financier: t.loadable(financierField),
    product: t.loadable(productField),
    // The bracket carries the base rates the Free-tier paywall hides: a masked row links none.
    rate_bracket: t.loadable({
      ...rateBracketField,
      nullable: true,
      description: 'The rate bracket this row was priced from; null on a masked row (its rates are hidden)',
      resolve: (row: MatrixCalculatorRow) => (row.masked ? null : row.rate_bracket_id),
    }),
    ...approvalOutcomeFields(t),
    approval: t.loadable(approvalField),
    ...maskableFigureFields(t),
    masked: t.exposeBoolean('masked', {
      description: "The Free-tier paywall nulled this row's figures; the cheapest three stay visible",
    }),
    priced_bracket_count: t.exposeInt('priced_bracket_count', {
      description: "How many of this approval's brackets survived pricing",
    }),
  }),
});

const PricedCardItemRef = builder.objectRef<PricedCardItem>('PricedCardItem').implement({
  description: 'A priced rate card of a degraded run, unjoined',
  fields: (t) => ({
    ...rateCardIdentityFields(t),
    ...maskableFigureFields(t),
    rate_min: t.exposeString('rate_min', {
      nullable: true,
      description:
        'Priced nominal annual rate at base_min (base plus any brokerage loading), percent; null when masked',
    }),
    rate_max: t.exposeString('rate_max', {
      nullable: true,
      description: 'Priced nominal annual rate at base_max, percent; null when masked',
    }),
    amount_financed: t.exposeFloat('amount_financed', {
      description: 'Amount financed (NAF), dollars: cost less deposit plus financed fees and funded brokerage',
    }),
    instalments: t.exposeInt('instalments', { description: 'Number of instalments over the term' }),
    masked: t.exposeBoolean('masked', {
      description: "The Free-tier paywall nulled this card's figures; the cheapest three stay visible",
    }),
  }),
});

export const MatrixCalculatorResultRef = builder.objectRef<MatrixCalculatorResult>('MatrixCalculatorResult').implement({
  description:
    'A Matrix Calculator run: financiers that can both price and approve the deal. Empty results with degraded null: no financier matched',
  fields: (t) => ({
    results: t.field({
      type: [MatrixCalculatorRowRef],
      description:
        'One row per approval with a priced bracket: confirmed first, then least onerous doc level, then e_min',
      resolve: (r) => r.results,
    }),
    priced_count: t.exposeInt('priced_count', { description: 'Rate cards that survived pricing' }),
    destination_count: t.exposeInt('destination_count', {
      description: 'Approvals not ruled out (can exceed the rows)',
    }),
    degraded: t.field({
      type: DegradedEnum,
      nullable: true,
      description: 'null: both engines answered; otherwise the half that is missing (the other half comes unjoined)',
      resolve: (r) => r.degraded,
    }),
    scenario_id: t.exposeInt('scenario_id', { description: 'The recent scenario this run was saved as' }),
    priced: t.field({
      type: [PricedCardItemRef],
      nullable: true,
      description: 'Only on a degraded run where the rate engine survived: the priced rate cards, unjoined',
      resolve: (r) => r.priced ?? null,
    }),
    financiers: t.field({
      type: [MatrixFinancierGroupRef],
      nullable: true,
      description: 'Only on a degraded run where the approval checks survived: the approvals not ruled out',
      resolve: (r) => r.financiers ?? null,
    }),
  }),
});
