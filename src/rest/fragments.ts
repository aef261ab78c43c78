/**
 * Named GraphQL fragments a route's document may spread (`...CalculatorRowFields`). The bridge appends every
 * fragment a document uses, and those its fragments use, before validating it at start. A fragment's field order is
 * the order of the keys in the REST body: reordering fields here changes the bytes clients receive.
 */

// Pieces several row types share; a fragment is written on one type, so these are spelled once here instead.
const ORGANISATION = 'organisation_id organisation_name';
const RATE_CARD = 'product_id product_name rate_bracket_id rate_bracket_name';
const APPROVAL_OUTCOME =
  'approval_id approval_name doc_level status missing_fields deposit_percentage deposit_amount deposit_required max_term';
const PRICED_FIGURES =
  'base_min base_max rate_min rate_max e_min e_max repayment_min repayment_max balloon commission amount_financed instalments';

export const FRAGMENTS: Readonly<Record<string, string>> = {
  ErrorFields: `
fragment ErrorFields on Error {
  __typename message code
  ... on ValidationError { errors { field messages } }
  ... on RateLimitedError { retry_after }
  ... on CapHitError { detail limit used metric }
  ... on EntitlementRequiredError { detail entitlement }
  ... on FeatureDisabledError { detail }
}`,
  CalculatorRowFields: `
fragment CalculatorRowFields on CalculatorRow {
  ${ORGANISATION} ${RATE_CARD} ${PRICED_FIGURES} repayment_frequency advance monthly_fee_per_instalment
}`,
  PricedCardFields: `
fragment PricedCardFields on PricedCardItem { ${ORGANISATION} ${RATE_CARD} ${PRICED_FIGURES} masked }`,
  MatrixApprovalFields: `
fragment MatrixApprovalFields on MatrixApprovalResult { ${APPROVAL_OUTCOME} rate_bracket_ids }`,
  MatrixFinancierGroupFields: `
fragment MatrixFinancierGroupFields on MatrixFinancierGroup { ${ORGANISATION} approvals { ...MatrixApprovalFields } }`,
  MatrixCalculatorRowFields: `
fragment MatrixCalculatorRowFields on MatrixCalculatorRow {
  ${ORGANISATION} ${APPROVAL_OUTCOME} ${RATE_CARD}
  base_min base_max e_min e_max repayment_min repayment_max balloon commission masked priced_bracket_count
}`,
  StructuringSuggestionFields: `
fragment StructuringSuggestionFields on StructuringSuggestion {
  approval_id organisation_id changes { lever from to to_percentage } wait_months deposit term balloon
  rate_bracket_id rate_min e_min repayment_min repayment_frequency masked sentence
}`,
  WhatWouldItTakeFields: `
fragment WhatWouldItTakeFields on WhatWouldItTakeResult {
  approvals { approval_id approval_name organisation_id organisation_name doc_level status
    blockers { criterion field kind lever deal_value required eligible_in_months sentence }
    suggestion { ...StructuringSuggestionFields } no_suggestion_reason }
  cheapest { ...StructuringSuggestionFields }
  approval_count
}`,
  RateCardVersionFields: `
fragment RateCardVersionFields on RateCardVersion {
  id organisation_id resource created_at reason pinned label parts_present actor_email origin connection { id client_name }
}`,
  NotificationPreferencesFields: `
fragment NotificationPreferencesFields on NotificationPreferences {
  categories quiet_hours_enabled quiet_hours_start quiet_hours_end timezone timezone_source updated_at
  available_categories { key label description default_enabled }
}`,
  ApprovalFields: `
fragment ApprovalFields on Approval {
  id name doc_level organisation_id priority min_deposit_percentage min_deposit_amount max_term min_term
  min_abn_age max_abn_age min_gst_age max_gst_age min_asset_age max_asset_age min_asset_cost max_asset_cost
  min_borrower_age max_borrower_age min_file_age max_file_age min_credit_score max_credit_score
  home_owner private_sale sale_hire_back asset_state transaction_types industries asset_ids assets rate_bracket_ids
}`,
  ApiTokenFields: `
fragment ApiTokenFields on ApiToken {
  id name token_id last_four scope environment origin created_at expires_at last_used_at revoked_at
}`,
};

/** `document` followed by every named fragment it spreads, directly or through another fragment (each once). */
export function withFragments(document: string): string {
  const used: string[] = [];
  const pending = [document];
  while (pending.length) {
    for (const [, name] of pending.pop()!.matchAll(/\.\.\.\s*([_A-Za-z]\w*)/g)) {
      if (Object.hasOwn(FRAGMENTS, name) && !used.includes(name)) {
        used.push(name);
        pending.push(FRAGMENTS[name]);
      }
    }
  }
  return document + used.map((name) => FRAGMENTS[name]).join('');
}
