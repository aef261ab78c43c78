import { builder } from '../../graphql/builder.ts';
import { AssetStateEnum, DocLevelEnum, TransactionTypeEnum } from '../../graphql/enums.ts';
import { financierField } from '../organisations/financier.loader.ts';
import { RateBracketRef } from '../rate-cards/rate-card.types.ts';
import { approvalBracketsLoader } from './approval-brackets.loader.ts';
import type { LabelledOption } from './options.ts';
import { rateBracketIdsOf } from './service.ts';

/**
 * Set on an approval reached through a masked Matrix Calculator row (approval.loader.ts): its brackets carry the base
 * rates the Free-tier paywall hides on that row, so `rate_brackets` answers null there, as the row's `rate_bracket` does.
 */
export const PAYWALLED: unique symbol = Symbol('paywalled');

/** A Decimal column as the spec's string, at the column's scale ("150000.00"); null stays null. */
function decimalString(value: { toFixed(places: number): string } | null, places: number): string | null {
  return value === null ? null : value.toFixed(places);
}

export const ApprovalRef = builder.prismaObject('Approval', {
  description:
    "A financier's approval destination. A null criterion is not checked, so a blank criterion never disqualifies a deal. Any signed-in caller may read it; only its financier changes it (change_approval)",
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Identifies the approval (approval_id on result rows)' }),
    name: t.exposeString('name', { description: "The destination's name, shown on result rows" }),
    doc_level: t.field({
      type: DocLevelEnum,
      description: 'How much paperwork the financier wants; results sort least onerous first',
      resolve: (a) => a.doc_level,
    }),
    organisation_id: t.exposeInt('organisation_id', { description: 'The owning financier (set from the caller)' }),
    financier: t.loadable(financierField),
    priority: t.exposeFloat('priority', { description: "Ordering within a financier's group; higher sorts first" }),
    min_deposit_percentage: t.string({
      nullable: true,
      description:
        'Minimum deposit, percent of the GST-inclusive cost, 4 decimal places ("12.5000"); null = not checked',
      resolve: (a) => decimalString(a.min_deposit_percentage, 4),
    }),
    min_deposit_amount: t.string({
      nullable: true,
      description: 'Minimum deposit, dollars, 2 decimal places; null = not checked',
      resolve: (a) => decimalString(a.min_deposit_amount, 2),
    }),
    max_term: t.exposeInt('max_term', {
      nullable: true,
      description: 'Longest term in months; shown on Matrix rows; null = not checked',
    }),
    min_term: t.exposeInt('min_term', { nullable: true, description: 'Shortest term in months; null = not checked' }),
    min_abn_age: t.exposeInt('min_abn_age', {
      nullable: true,
      description: 'Months since the business registered its ABN, at least; null = not checked',
    }),
    max_abn_age: t.exposeInt('max_abn_age', {
      nullable: true,
      description: 'Months since the business registered its ABN, at most; null = not checked',
    }),
    min_gst_age: t.exposeInt('min_gst_age', {
      nullable: true,
      description: 'Months since the business registered for GST, at least; null = not checked',
    }),
    max_gst_age: t.exposeInt('max_gst_age', {
      nullable: true,
      description: 'Months since the business registered for GST, at most; null = not checked',
    }),
    min_asset_age: t.exposeInt('min_asset_age', {
      nullable: true,
      description: 'Asset age in months, at least; null = not checked',
    }),
    max_asset_age: t.exposeInt('max_asset_age', {
      nullable: true,
      description: 'Asset age in months, at most; null = not checked',
    }),
    min_asset_cost: t.string({
      nullable: true,
      description: 'Lowest asset cost, GST-inclusive dollars, 2 decimal places; null = not checked',
      resolve: (a) => decimalString(a.min_asset_cost, 2),
    }),
    max_asset_cost: t.string({
      nullable: true,
      description: 'Highest asset cost, GST-inclusive dollars, 2 decimal places; null = not checked',
      resolve: (a) => decimalString(a.max_asset_cost, 2),
    }),
    min_borrower_age: t.exposeInt('min_borrower_age', {
      nullable: true,
      description: "Youngest borrower's age in years, at least; null = not checked",
    }),
    max_borrower_age: t.exposeInt('max_borrower_age', {
      nullable: true,
      description: "Oldest borrower's age in years, at most; null = not checked",
    }),
    min_file_age: t.exposeInt('min_file_age', {
      nullable: true,
      description: 'Credit-file age in months, at least; null = not checked',
    }),
    max_file_age: t.exposeInt('max_file_age', {
      nullable: true,
      description: 'Credit-file age in months, at most; null = not checked',
    }),
    min_credit_score: t.exposeInt('min_credit_score', {
      nullable: true,
      description: 'Credit score, at least (not the file age); null = not checked',
    }),
    max_credit_score: t.exposeInt('max_credit_score', {
      nullable: true,
      description: 'Credit score, at most; null = not checked',
    }),
    home_owner: t.exposeBoolean('home_owner', {
      nullable: true,
      description: 'Tri-state: null = not checked; true or false must equal the deal (home_owner or asset_owner)',
    }),
    private_sale: t.exposeBoolean('private_sale', {
      nullable: true,
      description: 'Tri-state: null = not checked; true or false must equal the deal',
    }),
    sale_hire_back: t.exposeBoolean('sale_hire_back', {
      nullable: true,
      description: 'Tri-state: null = not checked; true or false must equal the deal',
    }),
    asset_state: t.field({
      type: AssetStateEnum,
      description: 'The state the asset must be in (new, used, demo); none = not checked',
      resolve: (a) => a.asset_state,
    }),
    transaction_types: t.field({
      type: [TransactionTypeEnum],
      description: 'Transaction types accepted; empty = every transaction type',
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
    rate_brackets: t.field({
      type: [RateBracketRef],
      nullable: true,
      description:
        "The linked rate brackets themselves, by id (batched: two queries for all approvals of a response). A financier sees only its own organisation's; null on the approval of a masked Matrix Calculator row (the paywall hides their rates)",
      resolve: (a, _args, ctx) =>
        (a as { [PAYWALLED]?: true })[PAYWALLED] ? null : approvalBracketsLoader(ctx).load(a.id),
    }),
  }),
});

const LabelledOptionRef = builder.objectRef<LabelledOption>('LabelledOption').implement({
  description: 'A value an approval or a deal may use, with the label a picker shows',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'What requests and approvals send (e.g. "E", "low_doc")' }),
    label: t.exposeString('label', { description: 'What to show (e.g. "Construction")' }),
  }),
});

export interface ApprovalOptions {
  doc_levels: LabelledOption[];
  transaction_types: LabelledOption[];
  industries: LabelledOption[];
}

export const ApprovalOptionsRef = builder.objectRef<ApprovalOptions>('ApprovalOptions').implement({
  description: 'The values an approval (and a deal) may use, each with its label',
  fields: (t) => ({
    doc_levels: t.field({
      type: [LabelledOptionRef],
      description: 'Doc levels, least onerous first',
      resolve: (o) => o.doc_levels,
    }),
    transaction_types: t.field({
      type: [LabelledOptionRef],
      description: 'Transaction types (purchase, refinance, sale and hire back, capital raise)',
      resolve: (o) => o.transaction_types,
    }),
    industries: t.field({
      type: [LabelledOptionRef],
      description: 'The 19 ANZSIC 2006 divisions (A to S), by code',
      resolve: (o) => o.industries,
    }),
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
    approvals: t.field({
      type: [ApprovalRef],
      description: 'By financier, then priority (highest first), then id; at most 1000',
      resolve: (l) => l.approvals as never,
    }),
    total_count: t.exposeInt('total_count', { description: 'How many approvals matched' }),
    truncated: t.exposeBoolean('truncated', { description: 'More matched than the list carries' }),
  }),
});

export const DeletedApprovalRef = builder.objectRef<{ id: number }>('DeletedApproval').implement({
  description: 'An approval just deleted, with its rate-bracket links',
  fields: (t) => ({ id: t.exposeInt('id', { description: 'The id the deleted approval had' }) }),
});

export const ApprovalInputRef = builder.inputType('ApprovalInput', {
  description:
    'Every writable field of an approval. A write replaces them all: an absent optional field is stored as null (not checked) or empty',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Not blank, at most 200 characters; stored trimmed' }),
    doc_level: t.field({ type: DocLevelEnum, required: true, description: 'How much paperwork the financier wants' }),
    organisation_id: t.int({
      description: "Optional; only the approval's own organisation (the caller's) is accepted: approvals never move",
    }),
    priority: t.float({ description: 'Default 0; higher sorts first within the financier' }),
    min_deposit_percentage: t.field({ type: 'Decimal', description: '0 to 100, at most 4 decimal places' }),
    min_deposit_amount: t.field({ type: 'Decimal', description: 'Dollars, at most 2 decimal places' }),
    max_term: t.int({ description: 'Longest term, months, 0 to 1200, not below min_term; null = not checked' }),
    min_term: t.int({ description: 'Shortest term, months, 0 to 1200; null = not checked' }),
    min_abn_age: t.int({ description: 'Months since ABN registration, at least, 0 to 1200; null = not checked' }),
    max_abn_age: t.int({ description: 'Months since ABN registration, at most, 0 to 1200; null = not checked' }),
    min_gst_age: t.int({ description: 'Months since GST registration, at least, 0 to 1200; null = not checked' }),
    max_gst_age: t.int({ description: 'Months since GST registration, at most, 0 to 1200; null = not checked' }),
    min_asset_age: t.int({ description: 'Asset age, months, at least, 0 to 1200; null = not checked' }),
    max_asset_age: t.int({ description: 'Asset age, months, at most, 0 to 1200; null = not checked' }),
    min_asset_cost: t.field({
      type: 'Decimal',
      description: 'Lowest asset cost, GST-inclusive dollars, at most 2 decimal places; null = not checked',
    }),
    max_asset_cost: t.field({
      type: 'Decimal',
      description: 'Highest asset cost, GST-inclusive dollars, at most 2 decimal places; null = not checked',
    }),
    min_borrower_age: t.int({ description: "Youngest borrower's age, years, 0 to 150; null = not checked" }),
    max_borrower_age: t.int({ description: "Oldest borrower's age, years, 0 to 150; null = not checked" }),
    min_file_age: t.int({ description: 'Credit-file age, months, at least, 0 to 1200; null = not checked' }),
    max_file_age: t.int({ description: 'Credit-file age, months, at most, 0 to 1200; null = not checked' }),
    min_credit_score: t.int({ description: 'Credit score, at least, 0 to 2000; null = not checked' }),
    max_credit_score: t.int({ description: 'Credit score, at most, 0 to 2000; null = not checked' }),
    home_owner: t.boolean({ description: 'null = not checked; true or false must equal the deal' }),
    private_sale: t.boolean({ description: 'null = not checked; true or false must equal the deal' }),
    sale_hire_back: t.boolean({ description: 'null = not checked; true or false must equal the deal' }),
    asset_state: t.field({
      type: AssetStateEnum,
      description: 'new, used or demo; none = not checked (absent or null is read as none)',
    }),
    transaction_types: t.field({
      type: [TransactionTypeEnum],
      description: 'At most 100 (duplicates dropped); empty or absent = every transaction type',
    }),
    industries: t.stringList({
      description: 'ANZSIC division codes A to S (approvalOptions), at most 100; empty or absent = every industry',
    }),
    asset_ids: t.intList({
      description: 'Existing assets covered, each with everything beneath it, at most 500; empty or absent = all',
    }),
    assets: t.intList({ description: 'Another name for asset_ids; when both are sent they must agree' }),
    rate_bracket_ids: t.intList({
      description: "Brackets of the caller's own rate card, at most 500; absent unlinks every bracket",
    }),
  }),
});
