/**
 * Every sentence the service returns, in one catalogue. `web` keeps the existing wording (it may name plans and
 * pages); `mobile` serves ios, android and any unrecognised X-Service-Client and states a fact only: no plan, no
 * price, no link (app-store rules). test/lib/wording.test.ts enforces that for every entry.
 */
export type ClientKind = 'web' | 'mobile';

/** Absent means web; ios/android and anything unrecognised read as mobile (spec Authentication 11). */
export function clientKind(header: string | undefined | null): ClientKind {
  if (header === undefined || header === null || header === '' || header.toLowerCase() === 'web') return 'web';
  return 'mobile';
}

type Params = Record<string, string | number>;
interface Entry {
  web: (p: Params) => string;
  mobile: (p: Params) => string;
}

const metricNoun = (p: Params) => (p.metric === 'matrix' ? 'Matrix' : 'calculator');

export const WORDING = {
  cap_hit_detail: {
    web: (p) => `You have used all ${p.limit} of today's ${metricNoun(p)} runs.`,
    mobile: (p) => `You have used all ${p.limit} of today's ${metricNoun(p)} runs.`,
  },
  cap_hit_message: {
    web: (p) =>
      `You've used all ${p.limit} ${metricNoun(p)} runs for today. Upgrade your plan for a higher daily allowance at /settings/billing, or try again tomorrow.`,
    mobile: (p) => `You have used all ${p.limit} of today's ${metricNoun(p)} runs. The allowance resets at midnight.`,
  },
  entitlement_required_detail: {
    web: () => 'The Matrix is not included in this account.',
    mobile: () => 'The Matrix is not available on this account.',
  },
  entitlement_required_message: {
    web: () =>
      'The Matrix is included with Pro and above. Upgrade at /settings/billing to see which financiers will approve this deal.',
    mobile: () => 'The Matrix is not available on this account.',
  },
  feature_disabled_detail: {
    web: () => 'This feature is switched off for now. Please try again later.',
    mobile: () => 'This feature is switched off for now.',
  },
  consumer_unavailable_detail: {
    web: () =>
      'Consumer pricing is open to brokers bound by Best Interests Duty whose plan includes it. See /settings/billing.',
    mobile: () => 'Consumer pricing is not available on this account.',
  },
  seat_limit_reached: {
    web: (p) =>
      `Your organisation is using ${p.used} of ${p.limit} seats. Upgrade your plan at /settings/billing or deactivate another user first.`,
    mobile: (p) => `Your organisation is using ${p.used} of ${p.limit} seats.`,
  },
  last_admin: {
    web: () => 'Your organisation needs at least one active administrator. Make another user an administrator first.',
    mobile: () =>
      'Your organisation needs at least one active administrator. Make another user an administrator first.',
  },
  scenario_over_limit: {
    web: (p) =>
      `You can keep ${p.limit} saved scenarios on your plan. Delete one, or upgrade at /settings/billing to keep more.`,
    mobile: (p) => `You already keep ${p.limit} saved scenarios, the most allowed.`,
  },
  resend_verification: {
    web: () => 'If an account exists for that address and is not yet verified, we have sent a new verification email.',
    mobile: () =>
      'If an account exists for that address and is not yet verified, we have sent a new verification email.',
  },
  forgot_password: {
    web: () => 'If an account exists for that address, we have sent instructions to reset the password.',
    mobile: () => 'If an account exists for that address, we have sent instructions to reset the password.',
  },
  // 403s. Never scope-auth's own message, which names the resolver ("Not authorized to resolve Mutation.x").
  forbidden: {
    web: () => 'You do not have permission to perform this action.',
    mobile: () => 'You do not have permission to perform this action.',
  },
  forbidden_session_only: {
    web: () => 'This action needs a signed-in session; API tokens cannot perform it.',
    mobile: () => 'This action needs a signed-in session; API tokens cannot perform it.',
  },
  forbidden_read_scope: {
    web: () => 'This API token has read scope; a read_write token is needed to change data.',
    mobile: () => 'This API token can read data but cannot change it.',
  },
  forbidden_mcp_token: {
    web: () => 'This token can only be used by its AI assistant.',
    mobile: () => 'This token can only be used by its AI assistant.',
  },
  forbidden_financier_only: {
    web: () => 'Only a financier maintains rate cards.',
    mobile: () => 'Only a financier maintains rate cards.',
  },
  forbidden_admin_only: {
    web: () => 'Only an administrator of the organisation can do this.',
    mobile: () => 'Only an administrator of the organisation can do this.',
  },
  forbidden_manage_users: {
    web: () => 'Only an administrator of the organisation can manage its users.',
    mobile: () => 'Only an administrator of the organisation can manage its users.',
  },
  forbidden_edit_other_users: {
    web: () => 'Only an administrator of the organisation can edit other users.',
    mobile: () => 'Only an administrator of the organisation can edit other users.',
  },
  forbidden_change_admin_rights: {
    web: () => 'Only an administrator can change administrator rights.',
    mobile: () => 'Only an administrator can change administrator rights.',
  },
  forbidden_raise_own_rights: {
    web: () => 'You cannot raise your own rights.',
    mobile: () => 'You cannot raise your own rights.',
  },
  forbidden_operator_group: {
    web: (p) =>
      `Only the service's operator adds users to ${p.groups}: it grants a right over data every organisation shares.`,
    mobile: (p) =>
      `Only the service's operator adds users to ${p.groups}: it grants a right over data every organisation shares.`,
  },
  forbidden_deactivate_self: {
    web: () => 'You cannot deactivate yourself.',
    mobile: () => 'You cannot deactivate yourself.',
  },
  forbidden_issue_reports: {
    web: () =>
      "Only a financier's administrators and the users who maintain its approvals or rate cards see its reports.",
    mobile: () =>
      "Only a financier's administrators and the users who maintain its approvals or rate cards see its reports.",
  },
  // 404s. Another organisation's object answers exactly like a missing one, so no sentence says whose it is.
  not_found_user: { web: () => 'User not found.', mobile: () => 'User not found.' },
  not_found_invitation: { web: () => 'Invitation not found.', mobile: () => 'Invitation not found.' },
  not_found_organisation: { web: () => 'Organisation not found.', mobile: () => 'Organisation not found.' },
  not_found_approval: { web: () => 'Approval not found.', mobile: () => 'Approval not found.' },
  not_found_asset: { web: () => 'Asset not found.', mobile: () => 'Asset not found.' },
  not_found_product: { web: () => 'Product not found.', mobile: () => 'Product not found.' },
  not_found_rate_bracket: { web: () => 'Rate bracket not found.', mobile: () => 'Rate bracket not found.' },
  not_found_asset_mapping: { web: () => 'Asset mapping not found.', mobile: () => 'Asset mapping not found.' },
  not_found_rate_card_version: {
    web: () => 'Rate-card version not found.',
    mobile: () => 'Rate-card version not found.',
  },
  not_found_issue_report: { web: () => 'Issue report not found.', mobile: () => 'Issue report not found.' },
  not_found_api_token: { web: () => 'API token not found.', mobile: () => 'API token not found.' },
  not_found_mcp_connection: {
    web: () => 'AI-assistant connection not found.',
    mobile: () => 'AI-assistant connection not found.',
  },
  nothing_to_reactivate: {
    web: () => 'There is no subscription to reactivate.',
    mobile: () => 'There is nothing to reactivate.',
  },
  unsupported_body: {
    web: () => 'The request body must be JSON encoded as UTF-8 (Content-Type: application/json).',
    mobile: () => 'The request body must be JSON encoded as UTF-8.',
  },
  product_created: { web: () => 'Product created.', mobile: () => 'Product created.' },
  product_updated: { web: () => 'Product updated.', mobile: () => 'Product updated.' },
  rate_card_version_restored: { web: () => 'Version restored.', mobile: () => 'Version restored.' },
  asset_updated: { web: () => 'Asset updated.', mobile: () => 'Asset updated.' },
  structuring_blocker_lever: {
    web: (p) =>
      `${p.criterion}: the deal has ${p.value}, the approval needs ${p.required}; a change of ${p.lever} can meet it.`,
    mobile: (p) =>
      `${p.criterion}: the deal has ${p.value}, the approval needs ${p.required}; a change of ${p.lever} can meet it.`,
  },
  structuring_blocker_time: {
    web: (p) =>
      `${p.criterion}: the deal has ${p.value}, the approval needs ${p.required}; eligible in ${p.months} months.`,
    mobile: (p) =>
      `${p.criterion}: the deal has ${p.value}, the approval needs ${p.required}; eligible in ${p.months} months.`,
  },
  structuring_blocker_fact: {
    web: (p) =>
      `${p.criterion}: the deal has ${p.value}, the approval needs ${p.required}; a fact no structuring changes.`,
    mobile: (p) =>
      `${p.criterion}: the deal has ${p.value}, the approval needs ${p.required}; a fact no structuring changes.`,
  },
  structuring_blocker_unanswered: {
    web: (p) => `${p.criterion}: answer ${p.field}; the approval checks it.`,
    mobile: (p) => `${p.criterion}: answer ${p.field}; the approval checks it.`,
  },
  structuring_change_money: {
    web: (p) => `${p.lever} from $${p.from} to $${p.to}`,
    mobile: (p) => `${p.lever} from ${p.from} to ${p.to} dollars`,
  },
  structuring_change_term: {
    web: (p) => `term from ${p.from} to ${p.to} months`,
    mobile: (p) => `term from ${p.from} to ${p.to} months`,
  },
  structuring_wait: { web: (p) => `wait ${p.months} months`, mobile: (p) => `wait ${p.months} months` },
  structuring_no_change: { web: () => 'as entered', mobile: () => 'as entered' },
  structuring_suggestion: {
    web: (p) =>
      `${p.changes}: ${p.financier} approves at ${p.rate}% a year, $${p.repayment} each ${p.frequency} instalment.`,
    mobile: (p) =>
      `${p.changes}: ${p.financier} approves at ${p.rate}% a year, ${p.repayment} dollars each instalment.`,
  },
  structuring_suggestion_masked: {
    web: (p) => `${p.changes}: ${p.financier} approves. Upgrade at /settings/billing to see the figures.`,
    mobile: (p) => `${p.changes}: ${p.financier} approves.`,
  },
} satisfies Record<string, Entry>;

export type WordingKey = keyof typeof WORDING;

export function say(key: WordingKey, client: ClientKind, params: Params = {}): string {
  return WORDING[key][client](params);
}
