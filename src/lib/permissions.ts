/**
 * Permission codenames, granted through groups (spec: UserGroup.permissions). docs/catalogue-format.md lists them.
 * Organisation admins hold every permission of their own organisation, except the operator's (below).
 */
const PERMISSIONS = {
  /** Edit the asset tree (PATCH /assets/{id}); an operator permission (below). */
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

/**
 * Permissions only the service's operator grants, because they change what every tenant shares: the asset tree is
 * one for all organisations, so editing it is a trust the operator gives, not one an organisation admin can give
 * itself. Being an admin does not hold them; only membership of a group that grants one does, and that membership
 * comes from the operator alone (a catalogue file, `npm run equipment-editors`): an invitation may not name such a
 * group. docs/asset-tree.md, "Who may edit the tree".
 */
export const OPERATOR_PERMISSIONS: readonly PermissionCodename[] = ['change_equipment'];

export const isOperatorPermission = (codename: string): boolean =>
  (OPERATOR_PERMISSIONS as readonly string[]).includes(codename);

/** Groups one user belongs to at most: an invitation names at most this many, and so does the catalogue file. */
export const USER_GROUPS_MAX = 20;
