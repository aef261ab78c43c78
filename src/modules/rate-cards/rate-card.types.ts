/**
 * Rate-card GraphQL types: Product and RateBracket (the spec's fields), the card, a change's answer, the restore
 * point (metadata only: a version's payload never leaves the service) and its diff, and the version-conflict error.
 */
import { builder } from '../../graphql/builder.ts';
import {
  CardTypeEnum,
  ChangeOriginEnum,
  CompoundingFrequencyEnum,
  TriStateEnum,
  VersionResourceEnum,
} from '../../graphql/enums.ts';
import type { ChangeOrigin } from '../../lib/vocabulary.ts';
import { ErrorInterface } from '../../graphql/errors.ts';
import { AssetRateBracketRef } from '../catalogue/asset-rate-bracket.types.ts';
import { RateCardVersionConflictError } from './errors.ts';
import type { CardChangeResult, VersionDiff } from './service.ts';

export const ProductRef = builder.prismaObject('Product', {
  description:
    "A financier's product: the fees and bounds its rate brackets share. Brokers read every financier's, a financier its own; its financier changes it (change_rate_card)",
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The product id (rate brackets name it as product_id)' }),
    product_name: t.exposeString('product_name', { description: "The product's name, shown on result rows" }),
    organisation_id: t.exposeInt('organisation_id', { nullable: true, description: 'The owning financier' }),
    min_range: t.exposeInt('min_range', {
      nullable: true,
      description: 'Shortest loan term, months; null = not checked',
    }),
    max_range: t.exposeInt('max_range', {
      nullable: true,
      description: 'Longest loan term, months; null = not checked',
    }),
    min_amount: t.exposeFloat('min_amount', {
      nullable: true,
      description: 'Smallest amount financed, dollars; null = not checked',
    }),
    max_amount: t.exposeFloat('max_amount', {
      nullable: true,
      description: 'Largest amount financed, dollars; null = not checked',
    }),
    min_abn_age: t.exposeInt('min_abn_age', {
      nullable: true,
      description: 'Months since ABN registration, at least; null = not checked',
    }),
    max_abn_age: t.exposeInt('max_abn_age', {
      nullable: true,
      description: 'Months since ABN registration, at most; null = not checked',
    }),
    min_asset_age: t.exposeInt('min_asset_age', {
      nullable: true,
      description: 'Asset age, months, at least; null = not checked',
    }),
    max_asset_age: t.exposeInt('max_asset_age', {
      nullable: true,
      description: 'Asset age, months, at most; null = not checked',
    }),
    min_gst_age: t.exposeInt('min_gst_age', {
      nullable: true,
      description: 'Months since GST registration, at least; null = not checked',
    }),
    max_gst_age: t.exposeInt('max_gst_age', {
      nullable: true,
      description: 'Months since GST registration, at most; null = not checked',
    }),
    min_asset_age_plus_term: t.exposeInt('min_asset_age_plus_term', {
      nullable: true,
      description: 'Asset age plus term, months, at least; null = not checked',
    }),
    max_asset_age_plus_term: t.exposeInt('max_asset_age_plus_term', {
      nullable: true,
      description: 'Asset age plus term (its age when the loan ends), months, at most; null = not checked',
    }),
    min_credit_score: t.exposeInt('min_credit_score', {
      nullable: true,
      description: 'Credit score, at least; null = not checked',
    }),
    max_credit_score: t.exposeInt('max_credit_score', {
      nullable: true,
      description: 'Credit score, at most; null = not checked',
    }),
    monthly_fee: t.exposeFloat('monthly_fee', {
      nullable: true,
      description: 'Account fee per month, dollars: added to each repayment, not financed, not in the effective rate',
    }),
    documentation_fee: t.exposeFloat('documentation_fee', {
      nullable: true,
      description: 'Documentation fee, dollars: financed or paid up front (doc_fee_financed)',
    }),
    brokerage_cap: t.exposeFloat('brokerage_cap', {
      nullable: true,
      description: 'Maximum brokerage, percent of the amount financed before brokerage (ex GST); null = no cap',
    }),
    maximum_brokerage_limit: t.exposeFloat('maximum_brokerage_limit', {
      nullable: true,
      description: 'Maximum brokerage, dollars ex GST; null = no cap',
    }),
    compounding_frequency: t.expose('compounding_frequency', {
      type: CompoundingFrequencyEnum,
      description: 'How often interest compounds (m, monthly, when the product did not say)',
    }),
    brokerage_loading_treatment: t.exposeFloat('brokerage_loading_treatment', {
      nullable: true,
      description:
        'Rate loading in percentage points per 1% of brokerage; null or 0 = brokerage is funded into the loan',
    }),
    max_origination_fee_limit: t.exposeFloat('max_origination_fee_limit', {
      nullable: true,
      description:
        'Largest origination fee, GST-inclusive dollars; a deal above it does not price here; null = no limit',
    }),
    doc_fee_financed: t.expose('doc_fee_financed', {
      type: TriStateEnum,
      description:
        'yes or both (the default): the documentation fee is financed unless the deal says no; no: paid up front (a deal asking to finance it does not price here)',
    }),
    private_sale: t.expose('private_sale', {
      type: TriStateEnum,
      description: 'yes: private sales only; no: no private sales; both (the default): either answer',
    }),
    sale_hire_back: t.expose('sale_hire_back', {
      type: TriStateEnum,
      description: 'yes: sale and hire back only; no: no sale and hire back; both (the default): either answer',
    }),
    home_owner: t.expose('home_owner', {
      type: TriStateEnum,
      description: 'yes: home owners only; no: non-owners only; both (the default): either answer',
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When the product was created' }),
    updated_at: t.expose('updated_at', { type: 'DateTime', description: 'When the product last changed' }),
    rate_brackets: t.relation('rate_brackets', {
      description: 'Its rate brackets, by id',
      query: { orderBy: { id: 'asc' } },
    }),
  }),
});

export const RateBracketRef = builder.prismaObject('RateBracket', {
  description:
    'One line of a rate card: the base rate band a product charges within its bounds. Read and changed like its product',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The rate bracket id (result rows name it as rate_bracket_id)' }),
    name: t.exposeString('name', { description: "The bracket's name, shown on result rows" }),
    organisation_id: t.exposeInt('organisation_id', { description: 'The owning financier' }),
    product_id: t.exposeInt('product_id', {
      description: 'The product it belongs to (whose fees and bounds apply too)',
    }),
    type: t.expose('type', {
      type: CardTypeEnum,
      description: 'commercial (the calculator and the Matrix Calculator) or consumer (the consumer calculator)',
    }),
    min_term: t.exposeInt('min_term', { nullable: true, description: 'Shortest term, months; null = not checked' }),
    max_term: t.exposeInt('max_term', { nullable: true, description: 'Longest term, months; null = not checked' }),
    min_amount: t.exposeFloat('min_amount', {
      nullable: true,
      description: 'Smallest amount financed, dollars; null = not checked',
    }),
    max_amount: t.exposeFloat('max_amount', {
      nullable: true,
      description: 'Largest amount financed, dollars; null = not checked',
    }),
    min_asset_age: t.exposeInt('min_asset_age', {
      nullable: true,
      description: 'Asset age, months, at least; null = not checked',
    }),
    max_asset_age: t.exposeInt('max_asset_age', {
      nullable: true,
      description: 'Asset age, months, at most; null = not checked',
    }),
    base_min: t.exposeFloat('base_min', {
      description: 'Annual base rate at the low end of the band, percent: the _min figures price at it',
    }),
    base_max: t.exposeFloat('base_max', {
      description: 'Annual base rate at the high end of the band, percent: the _max figures price at it',
    }),
    max_lvr: t.exposeFloat('max_lvr', {
      nullable: true,
      description:
        'Loan-to-value ceiling, percent: a deal sending a higher lvr does not price here; null = not checked',
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When the bracket was created' }),
    updated_at: t.expose('updated_at', { type: 'DateTime', description: 'When the bracket last changed' }),
    product: t.relation('product', { description: 'The product it belongs to' }),
  }),
});

const AssistantConnectionRef = builder
  .objectRef<{ id: number; client_name: string }>('RateCardVersionAssistant')
  .implement({
    description: 'The AI-assistant connection that made a change',
    fields: (t) => ({
      id: t.exposeInt('id', { description: 'The AI-assistant connection id' }),
      client_name: t.exposeString('client_name', { description: 'The name the assistant gave when it connected' }),
    }),
  });

export const RateCardVersionRef = builder.prismaObject('RateCardVersion', {
  description:
    "One restore point of a financier's rate card or asset mappings (metadata only, never the payload). Its own financier reads it with view_rate_card_version",
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The restore point id (diff, restore, pin and label take it)' }),
    organisation_id: t.exposeInt('organisation_id', { nullable: true, description: 'The financier whose card it is' }),
    resource: t.expose('resource', {
      type: VersionResourceEnum,
      description: 'The series: rate_card (products and brackets) or asset_mapping',
    }),
    created_at: t.expose('created_at', { type: 'DateTime', description: 'When the change was made' }),
    reason: t.exposeString('reason', { description: 'What the change was, in words (e.g. "Imported from file")' }),
    pinned: t.exposeBoolean('pinned', { description: 'Pinned versions are never pruned' }),
    label: t.exposeString('label', { description: 'A name given with labelRateCardVersion; empty when none' }),
    parts_present: t.exposeStringList('parts_present', {
      description: 'The parts the restore point holds: products and rate_brackets, or asset_rate_brackets',
      extensions: { listSize: 3 }, // those three names at most
    }),
    actor_email: t.exposeString('actor_email', { description: 'Who made the change' }),
    origin: t.field({
      type: ChangeOriginEnum,
      description: 'app (a session), api_token, or assistant (an AI assistant)',
      resolve: (v) => v.origin as ChangeOrigin, // stored as text: always originOf's answer
    }),
    connection: t.field({
      type: AssistantConnectionRef,
      nullable: true,
      description: 'Which assistant, when origin is assistant',
      select: { connection: { select: { id: true, client_name: true } } },
      resolve: (v) => v.connection,
    }),
  }),
});

export interface RateCardView {
  organisation_id: number;
  version: number;
  products: unknown[];
  rate_brackets: unknown[];
}

export const RateCardRef = builder.objectRef<RateCardView>('RateCard').implement({
  description: "A financier's rate card and its version (send it back as expectedVersion to change the card safely)",
  fields: (t) => ({
    organisation_id: t.exposeInt('organisation_id', { description: 'The financier whose card it is' }),
    version: t.exposeInt('version', { description: 'Bumped by every change to the card or its asset mappings' }),
    products: t.field({ type: [ProductRef], description: 'Its products, by id', resolve: (c) => c.products as never }),
    rate_brackets: t.field({
      type: [RateBracketRef],
      description: 'Its rate brackets, by id',
      resolve: (c) => c.rate_brackets as never,
    }),
  }),
});

export const RateCardChangeRef = builder
  .objectRef<CardChangeResult & { skipped?: number }>('RateCardChange')
  .implement({
    description: 'A change to a rate card: what it wrote, the restore point recorded with it, the new card version',
    fields: (t) => ({
      card_version: t.exposeInt('cardVersion', { description: 'The card version after the change' }),
      restore_point: t.field({
        type: RateCardVersionRef,
        description: 'The restore point recorded with the change',
        resolve: (c) => c.version,
      }),
      asset_mapping_restore_point: t.field({
        type: RateCardVersionRef,
        nullable: true,
        description: 'Also recorded when the change removed or moved asset mappings',
        resolve: (c) => c.assetMappingVersion,
      }),
      product: t.field({
        type: ProductRef,
        nullable: true,
        description: 'The product created or changed; null for other changes',
        resolve: (c) => c.result.product ?? null,
      }),
      rate_bracket: t.field({
        type: RateBracketRef,
        nullable: true,
        description: 'The rate bracket created or changed; null for other changes',
        resolve: (c) => c.result.rate_bracket ?? null,
      }),
      asset_mapping: t.field({
        type: AssetRateBracketRef,
        nullable: true,
        description: 'The asset mapping created; null for other changes',
        resolve: (c) => c.result.asset_mapping ?? null,
      }),
      deleted_id: t.int({
        nullable: true,
        description: 'The id of the product, bracket or mapping deleted; null for other changes',
        resolve: (c) => c.result.deleted_id ?? null,
      }),
      skipped_asset_mappings: t.int({
        description: 'Restoring asset mappings: those left out because their asset, product or bracket is gone',
        resolve: (c) => c.skipped ?? 0,
      }),
    }),
  });

export const RateCardVersionDiffRef = builder.objectRef<VersionDiff>('RateCardVersionDiff').implement({
  description: 'What restoring a rate-card version would change, compared with the card today',
  fields: (t) => ({
    version: t.field({
      type: RateCardVersionRef,
      description: 'The restore point compared (metadata only)',
      resolve: (d) => d.version,
    }),
    summary_lines: t.exposeStringList('summary_lines', {
      description: "What restoring would change, one sentence each (the import preview's own sentences)",
    }),
    parts: t.field({
      type: 'JSON',
      description: 'Per part (products, rate_brackets): counts of added, changed, removed and unchanged records',
      resolve: (d) => d.parts,
    }),
    warnings: t.exposeStringList('warnings', {
      description: 'What to check first: unreachable or shadowed brackets, large rate moves, unlinked approvals',
    }),
    subtrees: t.field({
      type: 'JSON',
      description: 'Per product name: its status, id, the sentences beneath it and its brackets by change',
      resolve: (d) => d.subtrees,
    }),
  }),
});

export const RateCardFollowingRef = builder
  .objectRef<{ organisation_id: number; following: boolean }>('RateCardFollowing')
  .implement({
    description: "Whether the caller follows a financier's rate card (rate_card notifications on each change)",
    fields: (t) => ({
      organisation_id: t.exposeInt('organisation_id', { description: 'The financier whose card it is' }),
      following: t.exposeBoolean('following', { description: 'true: the caller is told of every change but its own' }),
    }),
  });

// ---------- inputs ----------

function productInputFields(t: any, nameRequired: boolean) {
  // Same rules on create and patch; a patch's bounds are checked against the stored record.
  const months = (what: string) => t.int({ description: `${what}, months, 0 or more; null = not checked` });
  const dollars = (what: string, ifNull = 'not checked') =>
    t.float({ description: `${what}, dollars, 0 to 1,000,000,000,000; null = ${ifNull}` });
  return {
    product_name: t.string({
      required: nameRequired,
      description: nameRequired
        ? 'Required; not blank, at most 200 characters'
        : 'Not blank, at most 200 characters; absent keeps the name',
    }),
    min_range: months('Shortest loan term'),
    max_range: months('Longest loan term (not below min_range)'),
    min_amount: dollars('Smallest amount financed'),
    max_amount: dollars('Largest amount financed (not below min_amount)'),
    min_abn_age: months('Time since ABN registration, at least'),
    max_abn_age: months('Time since ABN registration, at most'),
    min_asset_age: months('Asset age, at least'),
    max_asset_age: months('Asset age, at most'),
    min_gst_age: months('Time since GST registration, at least'),
    max_gst_age: months('Time since GST registration, at most'),
    min_asset_age_plus_term: months('Asset age plus term, at least'),
    max_asset_age_plus_term: months('Asset age plus term, at most'),
    min_credit_score: t.int({ description: 'Credit score, at least, 0 or more; null = not checked' }),
    max_credit_score: t.int({ description: 'Credit score, at most, 0 or more; null = not checked' }),
    monthly_fee: dollars('Account fee per month, added to each repayment (not financed)', 'none'),
    documentation_fee: dollars('Documentation fee, financed or paid up front (doc_fee_financed)', 'none'),
    brokerage_cap: t.float({
      description: 'Maximum brokerage, percent (0 to 100) of the amount financed before brokerage; null = no cap',
    }),
    maximum_brokerage_limit: dollars('Maximum brokerage ex GST', 'no cap'),
    compounding_frequency: t.field({
      type: CompoundingFrequencyEnum,
      description: 'How often interest compounds; m (monthly) also what null or, on create, absent stores',
    }),
    brokerage_loading_treatment: t.float({
      description: 'Rate loading, percentage points (0 to 100) per 1% of brokerage; null or 0 = brokerage funded',
    }),
    max_origination_fee_limit: dollars('Largest origination fee, GST-inclusive', 'no limit'),
    doc_fee_financed: t.field({
      type: TriStateEnum,
      description:
        'yes or both (also what null or, on create, absent stores): the documentation fee is financed unless the deal says no; no: paid up front (a deal asking to finance it does not price here)',
    }),
    private_sale: t.field({
      type: TriStateEnum,
      description:
        'yes: private sales only; no: no private sales; both (also what null or, on create, absent stores): either answer',
    }),
    sale_hire_back: t.field({
      type: TriStateEnum,
      description:
        'yes: sale and hire back only; no: no sale and hire back; both (also what null or, on create, absent stores): either answer',
    }),
    home_owner: t.field({
      type: TriStateEnum,
      description:
        'yes: home owners only; no: non-owners only; both (also what null or, on create, absent stores): either answer',
    }),
  };
}

export const ProductInput = builder.inputType('ProductInput', {
  description: "A new product of the caller's organisation (organisation_id is set from the caller)",
  fields: (t) => productInputFields(t, true),
});
export const ProductPatchInput = builder.inputType('ProductPatchInput', {
  description: 'Fields to change; absent fields are kept, null clears a field',
  fields: (t) => productInputFields(t, false),
});

function rateBracketInputFields(t: any, creating: boolean) {
  const months = (what: string) => t.int({ description: `${what}, months, 0 or more; null = not checked` });
  const dollars = (what: string) =>
    t.float({ description: `${what}, dollars, 0 to 1,000,000,000,000; null = not checked` });
  // Required on create; on a patch, absent keeps the stored value.
  const required = (rule: string) => (creating ? `Required; ${rule}` : rule[0].toUpperCase() + rule.slice(1));
  return {
    name: t.string({ required: creating, description: required('not blank, at most 200 characters') }),
    product_id: t.int({
      required: creating,
      description: creating
        ? "Required; a product of the caller's own rate card"
        : "A product of the caller's own rate card (moves the bracket to it)",
    }),
    type: t.field({ type: CardTypeEnum, description: 'commercial (default) or consumer' }),
    min_term: months('Shortest term'),
    max_term: months('Longest term (not below min_term)'),
    min_amount: dollars('Smallest amount financed'),
    max_amount: dollars('Largest amount financed (not below min_amount)'),
    min_asset_age: months('Asset age, at least'),
    max_asset_age: months('Asset age, at most'),
    base_min: t.float({
      required: creating,
      description: required('annual base rate at the low end of the band, percent, 0 to 100'),
    }),
    base_max: t.float({
      required: creating,
      description: required('annual base rate at the high end of the band, percent, 0 to 100 (not below base_min)'),
    }),
    max_lvr: t.float({ description: 'Loan-to-value ceiling, percent, 0 to 1000; null = not checked' }),
  };
}

export const RateBracketInput = builder.inputType('RateBracketInput', {
  description: "A new rate bracket of one of the caller's own products (organisation_id is set from the caller)",
  fields: (t) => rateBracketInputFields(t, true),
});
export const RateBracketPatchInput = builder.inputType('RateBracketPatchInput', {
  description: 'Fields to change; absent fields are kept, null clears a field',
  fields: (t) => rateBracketInputFields(t, false),
});

export const AssetMappingInput = builder.inputType('AssetMappingInput', {
  description: 'Map an asset (or category) to a whole product (rate_bracket_id null) or to one of its brackets',
  fields: (t) => ({
    asset_id: t.int({ required: true, description: 'The asset or category (a category covers everything beneath it)' }),
    product_id: t.int({ required: true, description: "A product of the caller's own rate card" }),
    rate_bracket_id: t.int({ description: 'One bracket of that product; absent or null maps every bracket of it' }),
  }),
});

// ---------- errors ----------

builder.objectType(RateCardVersionConflictError, {
  name: 'RateCardVersionConflictError',
  description: 'The card changed since the caller read it (expectedVersion is stale); nothing was written',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    current_version: t.exposeInt('currentVersion', {
      description: 'The card version now: re-read, re-apply the change and send this',
    }),
  }),
});
