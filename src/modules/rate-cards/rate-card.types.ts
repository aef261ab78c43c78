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
  description: "A financier's product: the rules its rate brackets share",
  fields: (t) => ({
    id: t.exposeInt('id'),
    product_name: t.exposeString('product_name'),
    organisation_id: t.exposeInt('organisation_id', { nullable: true }),
    min_range: t.exposeInt('min_range', { nullable: true, description: 'Loan term, months' }),
    max_range: t.exposeInt('max_range', { nullable: true }),
    min_amount: t.exposeFloat('min_amount', { nullable: true, description: 'Loan amount, dollars' }),
    max_amount: t.exposeFloat('max_amount', { nullable: true }),
    min_abn_age: t.exposeInt('min_abn_age', { nullable: true }),
    max_abn_age: t.exposeInt('max_abn_age', { nullable: true }),
    min_asset_age: t.exposeInt('min_asset_age', { nullable: true }),
    max_asset_age: t.exposeInt('max_asset_age', { nullable: true }),
    min_gst_age: t.exposeInt('min_gst_age', { nullable: true }),
    max_gst_age: t.exposeInt('max_gst_age', { nullable: true }),
    min_asset_age_plus_term: t.exposeInt('min_asset_age_plus_term', { nullable: true }),
    max_asset_age_plus_term: t.exposeInt('max_asset_age_plus_term', { nullable: true }),
    min_credit_score: t.exposeInt('min_credit_score', { nullable: true }),
    max_credit_score: t.exposeInt('max_credit_score', { nullable: true }),
    monthly_fee: t.exposeFloat('monthly_fee', { nullable: true }),
    documentation_fee: t.exposeFloat('documentation_fee', { nullable: true }),
    brokerage_cap: t.exposeFloat('brokerage_cap', { nullable: true, description: 'Maximum brokerage, percent' }),
    maximum_brokerage_limit: t.exposeFloat('maximum_brokerage_limit', {
      nullable: true,
      description: 'Maximum brokerage, dollars',
    }),
    compounding_frequency: t.expose('compounding_frequency', { type: CompoundingFrequencyEnum, nullable: true }),
    brokerage_loading_treatment: t.exposeFloat('brokerage_loading_treatment', { nullable: true }),
    max_origination_fee_limit: t.exposeFloat('max_origination_fee_limit', { nullable: true }),
    doc_fee_financed: t.expose('doc_fee_financed', { type: TriStateEnum, nullable: true }),
    private_sale: t.expose('private_sale', { type: TriStateEnum, nullable: true }),
    sale_hire_back: t.expose('sale_hire_back', { type: TriStateEnum, nullable: true }),
    home_owner: t.expose('home_owner', { type: TriStateEnum, nullable: true }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
    rate_brackets: t.relation('rate_brackets', { query: { orderBy: { id: 'asc' } } }),
  }),
});

export const RateBracketRef = builder.prismaObject('RateBracket', {
  description: 'One line of a rate card: the base rates a product charges within its bounds',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    organisation_id: t.exposeInt('organisation_id'),
    product_id: t.exposeInt('product_id'),
    type: t.expose('type', { type: CardTypeEnum }),
    min_term: t.exposeInt('min_term', { nullable: true, description: 'Months' }),
    max_term: t.exposeInt('max_term', { nullable: true }),
    min_amount: t.exposeFloat('min_amount', { nullable: true, description: 'Amount financed, dollars' }),
    max_amount: t.exposeFloat('max_amount', { nullable: true }),
    min_asset_age: t.exposeInt('min_asset_age', { nullable: true, description: 'Months' }),
    max_asset_age: t.exposeInt('max_asset_age', { nullable: true }),
    base_min: t.exposeFloat('base_min', { description: 'Annual rate, percent' }),
    base_max: t.exposeFloat('base_max'),
    max_lvr: t.exposeFloat('max_lvr', { nullable: true, description: 'Loan-to-value ceiling, percent' }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    updated_at: t.expose('updated_at', { type: 'DateTime' }),
    product: t.relation('product'),
  }),
});

export const AssistantConnectionRef = builder
  .objectRef<{ id: number; client_name: string }>('RateCardVersionAssistant')
  .implement({
    description: 'The AI-assistant connection that made a change',
    fields: (t) => ({ id: t.exposeInt('id'), client_name: t.exposeString('client_name') }),
  });

export const RateCardVersionRef = builder.prismaObject('RateCardVersion', {
  description: "One restore point of a financier's rate card or asset mappings (metadata only, never the payload)",
  fields: (t) => ({
    id: t.exposeInt('id'),
    organisation_id: t.exposeInt('organisation_id', { nullable: true }),
    resource: t.expose('resource', { type: VersionResourceEnum }),
    created_at: t.expose('created_at', { type: 'DateTime' }),
    reason: t.exposeString('reason'),
    pinned: t.exposeBoolean('pinned', { description: 'Pinned versions are never pruned' }),
    label: t.exposeString('label'),
    parts_present: t.exposeStringList('parts_present'),
    actor_email: t.exposeString('actor_email'),
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
    organisation_id: t.exposeInt('organisation_id'),
    version: t.exposeInt('version', { description: 'Bumped by every change to the card or its asset mappings' }),
    products: t.field({ type: [ProductRef], resolve: (c) => c.products as never }),
    rate_brackets: t.field({ type: [RateBracketRef], resolve: (c) => c.rate_brackets as never }),
  }),
});

export const RateCardChangeRef = builder
  .objectRef<CardChangeResult & { skipped?: number }>('RateCardChange')
  .implement({
    description: 'A change to a rate card: what it wrote, the restore point recorded with it, the new card version',
    fields: (t) => ({
      card_version: t.exposeInt('cardVersion', { description: 'The card version after the change' }),
      restore_point: t.field({ type: RateCardVersionRef, resolve: (c) => c.version }),
      asset_mapping_restore_point: t.field({
        type: RateCardVersionRef,
        nullable: true,
        description: 'Also recorded when the change removed or moved asset mappings',
        resolve: (c) => c.assetMappingVersion,
      }),
      product: t.field({ type: ProductRef, nullable: true, resolve: (c) => c.result.product ?? null }),
      rate_bracket: t.field({ type: RateBracketRef, nullable: true, resolve: (c) => c.result.rate_bracket ?? null }),
      asset_mapping: t.field({
        type: AssetRateBracketRef,
        nullable: true,
        resolve: (c) => c.result.asset_mapping ?? null,
      }),
      deleted_id: t.int({ nullable: true, resolve: (c) => c.result.deleted_id ?? null }),
      skipped_asset_mappings: t.int({
        description: 'Restoring asset mappings: those left out because their asset, product or bracket is gone',
        resolve: (c) => c.skipped ?? 0,
      }),
    }),
  });

export const RateCardVersionDiffRef = builder.objectRef<VersionDiff>('RateCardVersionDiff').implement({
  description: 'What restoring a rate-card version would change, compared with the card today',
  fields: (t) => ({
    version: t.field({ type: RateCardVersionRef, resolve: (d) => d.version }),
    summary_lines: t.exposeStringList('summary_lines'),
    parts: t.field({ type: 'JSON', resolve: (d) => d.parts }),
    warnings: t.exposeStringList('warnings'),
    subtrees: t.field({ type: 'JSON', resolve: (d) => d.subtrees }),
  }),
});

export const RateCardFollowingRef = builder
  .objectRef<{ organisation_id: number; following: boolean }>('RateCardFollowing')
  .implement({
    fields: (t) => ({ organisation_id: t.exposeInt('organisation_id'), following: t.exposeBoolean('following') }),
  });

// ---------- inputs ----------

function productInputFields(t: any, nameRequired: boolean) {
  return {
    product_name: t.string({ required: nameRequired }),
    min_range: t.int(),
    max_range: t.int(),
    min_amount: t.float(),
    max_amount: t.float(),
    min_abn_age: t.int(),
    max_abn_age: t.int(),
    min_asset_age: t.int(),
    max_asset_age: t.int(),
    min_gst_age: t.int(),
    max_gst_age: t.int(),
    min_asset_age_plus_term: t.int(),
    max_asset_age_plus_term: t.int(),
    min_credit_score: t.int(),
    max_credit_score: t.int(),
    monthly_fee: t.float(),
    documentation_fee: t.float(),
    brokerage_cap: t.float(),
    maximum_brokerage_limit: t.float(),
    compounding_frequency: t.field({ type: CompoundingFrequencyEnum }),
    brokerage_loading_treatment: t.float(),
    max_origination_fee_limit: t.float(),
    doc_fee_financed: t.field({ type: TriStateEnum }),
    private_sale: t.field({ type: TriStateEnum }),
    sale_hire_back: t.field({ type: TriStateEnum }),
    home_owner: t.field({ type: TriStateEnum }),
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
  return {
    name: t.string({ required: creating }),
    product_id: t.int({ required: creating }),
    type: t.field({ type: CardTypeEnum }),
    min_term: t.int(),
    max_term: t.int(),
    min_amount: t.float(),
    max_amount: t.float(),
    min_asset_age: t.int(),
    max_asset_age: t.int(),
    base_min: t.float({ required: creating }),
    base_max: t.float({ required: creating }),
    max_lvr: t.float(),
  };
}

export const RateBracketInput = builder.inputType('RateBracketInput', {
  fields: (t) => rateBracketInputFields(t, true),
});
export const RateBracketPatchInput = builder.inputType('RateBracketPatchInput', {
  description: 'Fields to change; absent fields are kept, null clears a field',
  fields: (t) => rateBracketInputFields(t, false),
});

export const AssetMappingInput = builder.inputType('AssetMappingInput', {
  description: 'Map an asset (or category) to a whole product (rate_bracket_id null) or to one of its brackets',
  fields: (t) => ({
    asset_id: t.int({ required: true }),
    product_id: t.int({ required: true }),
    rate_bracket_id: t.int(),
  }),
});

// ---------- errors ----------

builder.objectType(RateCardVersionConflictError, {
  name: 'RateCardVersionConflictError',
  description: 'The card changed since the caller read it (expectedVersion is stale); nothing was written',
  interfaces: [ErrorInterface],
  fields: (t) => ({ current_version: t.exposeInt('currentVersion') }),
});
