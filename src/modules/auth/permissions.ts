/**
 * Permission codenames, granted through groups (spec: UserGroup.permissions). docs/catalogue-format.md lists them.
 * Organisation admins hold every permission of their own organisation.
 */
export const PERMISSIONS = {
  /** Edit the asset tree (PATCH /assets/{id}). */
  change_equipment: 'Edit assets and categories',
  /** Read rate-card version history and diffs. */
  view_rate_card_version: 'Read rate-card version history',
  /** Restore a rate-card version. */
  restore_rate_card_version: 'Restore rate-card versions',
  /** Maintain the organisation's approvals. */
  change_approval: 'Edit approvals',
  /** Maintain the organisation's products and rate brackets. */
  change_rate_card: 'Edit products and rate brackets',
} as const;

export type PermissionCodename = keyof typeof PERMISSIONS;
export const PERMISSION_CODENAMES = Object.keys(PERMISSIONS) as PermissionCodename[];
