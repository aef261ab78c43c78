/**
 * The asset tree as approval coverage reads it (docs/matrix.md, "Outcome rules": `asset_ids`): an approval naming a
 * category covers every asset beneath it. Built once per catalogue snapshot.
 */
import type { AssetNode } from '../catalogue/index.ts';

/** For an asset id, the asset itself plus every ancestor category: the ids an approval's `asset_ids` may name to cover it. */
export interface AssetAncestry {
  /** The asset and all its ancestors. An id not in the tree answers just itself. */
  selfAndAncestors(assetId: number): ReadonlySet<number>;
  /** True when a member of `memberIds` is the asset or one of its ancestors (empty = every asset). */
  covers(memberIds: readonly number[], assetId: number): boolean;
}

/**
 * Indexes the asset tree by parent. Ancestor lines are walked on first request and memoised, so building is
 * O(assets) and a deal costs O(depth). Cycle-safe: the walk stops at the first id it has already seen, so a
 * corrupt `parent_id` loop cannot hang a request (OWASP API4). Deleted nodes still link the tree: whether a
 * deleted asset may be quoted is request validation's decision, not coverage's.
 */
export function buildAssetAncestry(assets: readonly AssetNode[]): AssetAncestry {
  const parentOf = new Map<number, number | null>();
  for (const node of assets) parentOf.set(node.id, node.parent_id);
  const memo = new Map<number, ReadonlySet<number>>();

  const selfAndAncestors = (assetId: number): ReadonlySet<number> => {
    let line = memo.get(assetId);
    if (line === undefined) {
      const walked = new Set<number>();
      let id: number | null | undefined = assetId;
      // A parent id missing from the tree is still an ancestor an approval may name; the walk ends there.
      while (id !== null && id !== undefined && !walked.has(id)) {
        walked.add(id);
        id = parentOf.get(id);
      }
      line = walked;
      memo.set(assetId, line);
    }
    return line;
  };

  return {
    selfAndAncestors,
    covers(memberIds, assetId) {
      if (memberIds.length === 0) return true;
      const line = selfAndAncestors(assetId);
      for (let i = 0; i < memberIds.length; i++) if (line.has(memberIds[i])) return true;
      return false;
    },
  };
}
