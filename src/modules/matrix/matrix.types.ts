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
    base_min: t.exposeString('base_min', { nullable: true }),
    base_max: t.exposeString('base_max', { nullable: true }),
    e_min: t.exposeString('e_min', { nullable: true }),
    e_max: t.exposeString('e_max', { nullable: true }),
    repayment_min: t.exposeString('repayment_min', { nullable: true }),
    repayment_max: t.exposeString('repayment_max', { nullable: true }),
    balloon: t.exposeFloat('balloon', { nullable: true }),
    commission: t.exposeFloat('commission', { nullable: true }),
  };
}

/** An approval's answer for the deal: the same fields on a Matrix approval and on a Matrix Calculator row. */
function approvalOutcomeFields(t: ObjectFieldBuilder<MatrixApprovalOutcome>) {
  return {
    approval_id: t.exposeInt('approval_id'),
    approval_name: t.exposeString('approval_name'),
    doc_level: t.field({ type: DocLevelEnum, resolve: (r) => r.doc_level }),
    status: t.field({ type: EvaluationStatusEnum, resolve: (r) => r.status }),
    missing_fields: t.exposeStringList('missing_fields', {
      description: 'Request fields that would need answering to move possible to confirmed',
    }),
    deposit_percentage: t.exposeFloat('deposit_percentage', { nullable: true }),
    deposit_amount: t.exposeFloat('deposit_amount', { nullable: true }),
    deposit_required: t.exposeFloat('deposit_required', {
      nullable: true,
      description: 'The deposit the deal needs, in dollars',
    }),
    max_term: t.exposeInt('max_term', { nullable: true }),
  };
}

export const MatrixApprovalResultRef = builder.objectRef<MatrixApprovalResult>('MatrixApprovalResult').implement({
  description: 'One approval not ruled out; approvals the deal violates are omitted',
  fields: (t) => ({
    ...approvalOutcomeFields(t),
    approval: t.loadable(approvalField),
    rate_bracket_ids: t.exposeIntList('rate_bracket_ids'),
  }),
});

export const MatrixFinancierGroupRef = builder.objectRef<MatrixFinancierGroup>('MatrixFinancierGroup').implement({
  fields: (t) => ({
    organisation_id: t.exposeInt('organisation_id'),
    organisation_name: t.exposeString('organisation_name'),
    financier: t.loadable(financierField),
    approvals: t.field({ type: [MatrixApprovalResultRef], resolve: (g) => g.approvals }),
  }),
});

export const MatrixResultRef = builder.objectRef<MatrixResult>('MatrixResult').implement({
  fields: (t) => ({
    results: t.field({ type: [MatrixFinancierGroupRef], resolve: (r) => r.results }),
    destination_count: t.exposeInt('destination_count', { description: 'Approvals not ruled out' }),
  }),
});

export const MatrixCalculatorRowRef = builder.objectRef<MatrixCalculatorRow>('MatrixCalculatorRow').implement({
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

export const PricedCardItemRef = builder.objectRef<PricedCardItem>('PricedCardItem').implement({
  description: 'A priced rate card of a degraded run, unjoined',
  fields: (t) => ({
    ...rateCardIdentityFields(t),
    ...maskableFigureFields(t),
    rate_min: t.exposeString('rate_min', { nullable: true }),
    rate_max: t.exposeString('rate_max', { nullable: true }),
    amount_financed: t.exposeFloat('amount_financed'),
    instalments: t.exposeInt('instalments'),
    masked: t.exposeBoolean('masked'),
  }),
});

export const MatrixCalculatorResultRef = builder.objectRef<MatrixCalculatorResult>('MatrixCalculatorResult').implement({
  fields: (t) => ({
    results: t.field({ type: [MatrixCalculatorRowRef], resolve: (r) => r.results }),
    priced_count: t.exposeInt('priced_count', { description: 'Rate cards that survived pricing' }),
    destination_count: t.exposeInt('destination_count', {
      description: 'Approvals not ruled out (can exceed the rows)',
    }),
    degraded: t.field({ type: DegradedEnum, nullable: true, resolve: (r) => r.degraded }),
    priced: t.field({ type: [PricedCardItemRef], nullable: true, resolve: (r) => r.priced ?? null }),
    financiers: t.field({ type: [MatrixFinancierGroupRef], nullable: true, resolve: (r) => r.financiers ?? null }),
  }),
});
