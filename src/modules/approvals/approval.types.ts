import { builder } from '../../graphql/builder.ts';
import { AssetStateEnum, DocLevelEnum, TransactionTypeEnum } from '../../graphql/enums.ts';
import { financierField } from '../organisations/financier.loader.ts';
import type { LabelledOption } from './options.ts';
import { rateBracketIdsOf } from './service.ts';

/** A Decimal column as the spec's string, at the column's scale ("150000.00"); null stays null. */
function decimalString(value: { toFixed(places: number): string } | null, places: number): string | null {
  return value === null ? null : value.toFixed(places);
}

export const ApprovalRef = builder.prismaObject('Approval', {
  description:
    "A financier's approval destination. A null criterion is not checked, so a blank criterion never disqualifies a deal",
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    doc_level: t.field({ type: DocLevelEnum, resolve: (a) => a.doc_level }),
    organisation_id: t.exposeInt('organisation_id', { description: 'The owning financier (set from the caller)' }),
    financier: t.loadable(financierField),
    priority: t.exposeFloat('priority', { description: "Ordering within a financier's group; higher sorts first" }),
    min_deposit_percentage: t.string({
      nullable: true,
      resolve: (a) => decimalString(a.min_deposit_percentage, 4),
    }),
    min_deposit_amount: t.string({ nullable: true, resolve: (a) => decimalString(a.min_deposit_amount, 2) }),
    max_term: t.exposeInt('max_term', { nullable: true, description: 'Longest term in months' }),
    min_term: t.exposeInt('min_term', { nullable: true, description: 'Shortest term in months' }),
    min_abn_age: t.exposeInt('min_abn_age', { nullable: true }),
    max_abn_age: t.exposeInt('max_abn_age', { nullable: true }),
    min_gst_age: t.exposeInt('min_gst_age', { nullable: true }),
    max_gst_age: t.exposeInt('max_gst_age', { nullable: true }),
    min_asset_age: t.exposeInt('min_asset_age', { nullable: true }),
    max_asset_age: t.exposeInt('max_asset_age', { nullable: true }),
    min_asset_cost: t.string({
      nullable: true,
      description: 'GST-inclusive dollars',
      resolve: (a) => decimalString(a.min_asset_cost, 2),
    }),
    max_asset_cost: t.string({
      nullable: true,
      description: 'GST-inclusive dollars',
      resolve: (a) => decimalString(a.max_asset_cost, 2),
    }),
    min_borrower_age: t.exposeInt('min_borrower_age', { nullable: true }),
    max_borrower_age: t.exposeInt('max_borrower_age', { nullable: true }),
    min_file_age: t.exposeInt('min_file_age', { nullable: true }),
    max_file_age: t.exposeInt('max_file_age', { nullable: true }),
    min_credit_score: t.exposeInt('min_credit_score', { nullable: true }),
    max_credit_score: t.exposeInt('max_credit_score', { nullable: true }),
    home_owner: t.exposeBoolean('home_owner', { nullable: true }),
    private_sale: t.exposeBoolean('private_sale', { nullable: true }),
    sale_hire_back: t.exposeBoolean('sale_hire_back', { nullable: true }),
    asset_state: t.field({ type: AssetStateEnum, nullable: true, resolve: (a) => a.asset_state }),
    transaction_types: t.field({
      type: [TransactionTypeEnum],
      description: 'Empty = every transaction type',
      resolve: (a) => a.transaction_types,
    }),
    industries: t.exposeStringList('industries', { description: 'ANZSIC division codes; empty = every industry' }),
    asset_ids: t.exposeIntList('asset_ids', {
      description: 'Assets covered (each with everything beneath it in the asset tree); empty = all',
    }),
    assets: t.intList({ description: 'The same list as asset_ids (the spec names both)', resolve: (a) => a.asset_ids }),
    rate_bracket_ids: t.loadableList({
      type: 'Int',
      description: 'Rate brackets linked to the approval (batched: one query for all approvals of a response)',
      load: (ids: number[], ctx) => rateBracketIdsOf(ctx.prisma, ids),
      resolve: (a) => a.id,
    }),
  }),
});

export const LabelledOptionRef = builder.objectRef<LabelledOption>('LabelledOption').implement({
  fields: (t) => ({ value: t.exposeString('value'), label: t.exposeString('label') }),
});

export interface ApprovalOptions {
  doc_levels: LabelledOption[];
  transaction_types: LabelledOption[];
  industries: LabelledOption[];
}

export const ApprovalOptionsRef = builder.objectRef<ApprovalOptions>('ApprovalOptions').implement({
  description: 'The values an approval (and a deal) may use, each with its label',
  fields: (t) => ({
    doc_levels: t.field({ type: [LabelledOptionRef], resolve: (o) => o.doc_levels }),
    transaction_types: t.field({ type: [LabelledOptionRef], resolve: (o) => o.transaction_types }),
    industries: t.field({ type: [LabelledOptionRef], resolve: (o) => o.industries }),
  }),
});

export interface ApprovalList {
  approvals: unknown[];
  total_count: number;
  truncated: boolean;
}

export const ApprovalListRef = builder.objectRef<ApprovalList>('ApprovalList').implement({
  description:
    'The REST list: at most 1000 approvals in list order (organisation, priority desc, id). The approvals connection pages through any number',
  fields: (t) => ({
    approvals: t.field({ type: [ApprovalRef], resolve: (l) => l.approvals as never }),
    total_count: t.exposeInt('total_count', { description: 'How many approvals matched' }),
    truncated: t.exposeBoolean('truncated', { description: 'More matched than the list carries' }),
  }),
});

export const DeletedApprovalRef = builder.objectRef<{ id: number }>('DeletedApproval').implement({
  fields: (t) => ({ id: t.exposeInt('id') }),
});

export const ApprovalInputRef = builder.inputType('ApprovalInput', {
  description:
    'Every writable field of an approval. A write replaces them all: an absent optional field is stored as null (not checked) or empty',
  fields: (t) => ({
    name: t.string({ required: true }),
    doc_level: t.field({ type: DocLevelEnum, required: true }),
    organisation_id: t.int({
      description: "Optional; only the approval's own organisation (the caller's) is accepted: approvals never move",
    }),
    priority: t.float({ description: 'Default 0; higher sorts first within the financier' }),
    min_deposit_percentage: t.field({ type: 'Decimal', description: '0 to 100, at most 4 decimal places' }),
    min_deposit_amount: t.field({ type: 'Decimal', description: 'Dollars, at most 2 decimal places' }),
    max_term: t.int(),
    min_term: t.int(),
    min_abn_age: t.int(),
    max_abn_age: t.int(),
    min_gst_age: t.int(),
    max_gst_age: t.int(),
    min_asset_age: t.int(),
    max_asset_age: t.int(),
    min_asset_cost: t.field({ type: 'Decimal' }),
    max_asset_cost: t.field({ type: 'Decimal' }),
    min_borrower_age: t.int(),
    max_borrower_age: t.int(),
    min_file_age: t.int(),
    max_file_age: t.int(),
    min_credit_score: t.int(),
    max_credit_score: t.int(),
    home_owner: t.boolean(),
    private_sale: t.boolean(),
    sale_hire_back: t.boolean(),
    asset_state: t.field({ type: AssetStateEnum }),
    transaction_types: t.field({ type: [TransactionTypeEnum] }),
    industries: t.stringList({ description: 'ANZSIC division codes (GET /approvals/options)' }),
    asset_ids: t.intList(),
    assets: t.intList({ description: 'Another name for asset_ids; when both are sent they must agree' }),
    rate_bracket_ids: t.intList({ description: "Brackets of the caller's own rate card" }),
  }),
});
