/**
 * The asset tree's rules, pure (no I/O): what a name and an alias may be, which parents an asset may take (no cycle,
 * not deleted, not too deep), which assets are live, and an asset's ancestors. The service (assets.service.ts) reads
 * and locks the rows; these functions judge them, so the property tests can drive them without a database.
 */
import type { FieldErrors } from '../../lib/errors.ts';
import type { AssetNode } from './model.ts';

/**
 * The deepest an asset may sit: a root is at depth 1. Real trees are 3 or 4 levels deep; the bound keeps every walk
 * up the tree (ancestors, cycle checks, search paths) short, whatever the rows say.
 */
export const MAX_ASSET_DEPTH = 16;
export const MAX_ASSET_NAME_LENGTH = 200;
export const MAX_ASSET_ALIAS_LENGTH = 1000;

/** The columns the tree rules read. */
export type TreeNode = Pick<AssetNode, 'id' | 'parent_id' | 'is_deleted'>;

// Control characters (line breaks, tabs, escapes) would break labels ("A › B") and CSV exports; refused.
const CONTROL = /\p{Cc}/u;

/**
 * Checks `name` (required unless `partial` and absent) and `alias` and answers them trimmed; an empty alias is
 * stored as null. Adds every problem to `errors`, named by field.
 */
export function checkAssetText(
  input: { name?: string | null; alias?: string | null },
  errors: FieldErrors,
  partial: boolean,
): { name?: string; alias?: string | null } {
  const out: { name?: string; alias?: string | null } = {};
  if (input.name === undefined || input.name === null) {
    if (!partial || input.name === null) errors.add('name', 'This field is required.');
  } else {
    const name = input.name.trim();
    if (name === '') errors.add('name', 'This field may not be blank.');
    else if ([...name].length > MAX_ASSET_NAME_LENGTH)
      errors.add('name', `Ensure this field has no more than ${MAX_ASSET_NAME_LENGTH} characters.`);
    else if (CONTROL.test(name)) errors.add('name', 'Must not contain line breaks, tabs or other control characters.');
    else out.name = name;
  }
  if (input.alias !== undefined) {
    const alias = input.alias === null ? '' : input.alias.trim();
    if ([...alias].length > MAX_ASSET_ALIAS_LENGTH)
      errors.add('alias', `Ensure this field has no more than ${MAX_ASSET_ALIAS_LENGTH} characters.`);
    else if (CONTROL.test(alias))
      errors.add('alias', 'Must not contain line breaks, tabs or other control characters.');
    else out.alias = alias === '' ? null : alias;
  }
  return out;
}

/** Why a parent was refused; the service words it for `parent_id`. */
export type ParentProblem =
  | { kind: 'unknown' }
  | { kind: 'cycle' }
  | { kind: 'deleted'; deletedId: number }
  | { kind: 'too_deep' }
  /** A row on the parent's line was not among the rows read (it moved meanwhile): read and lock again. */
  | { kind: 'stale'; missingId: number };

export interface ParentLine {
  /** The parent and its ancestors, parent first. */
  line: TreeNode[];
}

/**
 * Judges `parentId` as the parent of `assetId` (null for a new asset) from `rows` (the parent's line as read and
 * locked). `subtreeHeight` is how many levels the moved asset carries (1 for a leaf or a new asset). The parent is
 * refused when it is the asset itself or beneath it (a cycle), unknown, deleted or beneath a deleted category, or when
 * the asset's subtree would then reach deeper than MAX_ASSET_DEPTH. A line that loops without the asset (a corrupt
 * tree) is refused as a cycle too.
 */
export function judgeParent(
  rows: ReadonlyMap<number, TreeNode>,
  assetId: number | null,
  parentId: number,
  subtreeHeight = 1,
): ParentProblem | ParentLine {
  if (parentId === assetId) return { kind: 'cycle' };
  const first = rows.get(parentId);
  if (!first) return { kind: 'unknown' };
  const line: TreeNode[] = [];
  const seen = new Set<number>();
  for (let node: TreeNode | undefined = first; node; ) {
    if (node.id === assetId || seen.has(node.id)) return { kind: 'cycle' };
    seen.add(node.id);
    line.push(node);
    // Stop early: a line this long is refused anyway, and a corrupt one may not end.
    if (line.length + subtreeHeight > MAX_ASSET_DEPTH) return { kind: 'too_deep' };
    if (node.parent_id === null) break;
    const next = rows.get(node.parent_id);
    if (!next) return { kind: 'stale', missingId: node.parent_id };
    node = next;
  }
  const deleted = line.find((n) => n.is_deleted);
  if (deleted) return { kind: 'deleted', deletedId: deleted.id };
  return { line };
}

/**
 * The ids of the ancestors of `id`, root first, from a parent map. Stops at an unknown parent, at a repeat (a corrupt
 * loop), and after `max` steps, so it always ends.
 */
export function ancestorIds(
  parentOf: ReadonlyMap<number, number | null>,
  id: number,
  max: number = MAX_ASSET_DEPTH,
): number[] {
  const out: number[] = [];
  const seen = new Set<number>([id]);
  let next = parentOf.get(id) ?? null;
  while (next !== null && !seen.has(next) && out.length < max && parentOf.has(next)) {
    out.push(next);
    seen.add(next);
    next = parentOf.get(next) ?? null;
  }
  return out.reverse();
}

/**
 * Assets a deal may name and search may find: not deleted, and no deleted ancestor (deleting a category takes its
 * whole subtree out; restoring it brings the subtree back as it was). Memoised walk: O(assets x depth).
 */
export function liveAssetIds(assets: readonly TreeNode[]): Set<number> {
  const byId = new Map<number, TreeNode>();
  for (const a of assets) if (!byId.has(a.id)) byId.set(a.id, a);
  const live = new Map<number, boolean>();
  const isLive = (start: number): boolean => {
    const path: number[] = [];
    const onPath = new Set<number>();
    let answer = true;
    for (let id: number | null = start; id !== null; ) {
      const known = live.get(id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      const node = byId.get(id);
      if (!node || onPath.has(id) || path.length > MAX_ASSET_DEPTH * 4) break; // unknown parent or a loop: ends here
      if (node.is_deleted) {
        answer = false;
        path.push(id);
        break;
      }
      path.push(id);
      onPath.add(id);
      id = node.parent_id;
    }
    for (const id of path) live.set(id, answer);
    return live.get(start) ?? answer;
  };
  const out = new Set<number>();
  for (const a of byId.values()) if (isLive(a.id)) out.add(a.id);
  return out;
}

/** True when some asset is its own ancestor (for tests: the write rules must never allow it). */
export function hasCycle(assets: readonly TreeNode[]): boolean {
  const parentOf = new Map(assets.map((a) => [a.id, a.parent_id]));
  for (const a of assets) {
    const seen = new Set<number>();
    for (let id: number | null | undefined = a.id; id !== null && id !== undefined; id = parentOf.get(id)) {
      if (seen.has(id)) return true;
      seen.add(id);
    }
  }
  return false;
}
