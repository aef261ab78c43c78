/**
 * Which saved scenarios a set of catalogue changes can affect, decided from the change and the scenario's deal
 * without running anything: a scenario is affected when a changed organisation is the financier of its saved or its
 * current cheapest row, or has an asset mapping on the scenario's asset or a category above it (so a bracket of theirs
 * could price the deal, now or before the change). A change to every financier (the asset tree, a shared product, a
 * catalogue load) affects them all. Pure: no I/O.
 */
import type { AssetNode, AssetRateBracketRelation } from '../catalogue/index.ts';

/** The coalesced changes of one pass. */
export interface ChangeScope {
  all: boolean;
  organisations: ReadonlySet<number>;
}

/** What the decision reads of a saved scenario. */
export interface Candidate {
  id: number;
  /** The deal's asset id, or null when the stored request names none usable. */
  assetId: number | null;
  savedOrganisationId: number | null;
  currentOrganisationId: number | null;
}

export function changeScope(changes: readonly { organisation_id: number | null }[]): ChangeScope {
  const organisations = new Set<number>();
  let all = false;
  for (const change of changes) {
    if (change.organisation_id === null) all = true;
    else organisations.add(change.organisation_id);
  }
  return { all, organisations };
}

/** Answers the ids of the candidates the scope can affect, in the candidates' order. */
export function affectedScenarios(
  catalogue: { relations: readonly AssetRateBracketRelation[]; assetsById: ReadonlyMap<number, AssetNode> },
  scope: ChangeScope,
  candidates: readonly Candidate[],
): number[] {
  if (scope.all) return candidates.map((c) => c.id);
  if (scope.organisations.size === 0) return [];
  // Per asset, the changed organisations mapped on it directly (only those matter).
  const mappedOn = new Map<number, Set<number>>();
  for (const r of catalogue.relations) {
    if (!scope.organisations.has(r.organisation_id)) continue;
    let set = mappedOn.get(r.asset_id);
    if (!set) mappedOn.set(r.asset_id, (set = new Set()));
    set.add(r.organisation_id);
  }
  const reached = new Map<number, boolean>();
  const reachable = (assetId: number): boolean => {
    const known = reached.get(assetId);
    if (known !== undefined) return known;
    let hit = false;
    const seen = new Set<number>();
    for (let id: number | null | undefined = assetId; id != null && !seen.has(id); ) {
      seen.add(id);
      if (mappedOn.has(id)) {
        hit = true;
        break;
      }
      id = catalogue.assetsById.get(id)?.parent_id;
    }
    reached.set(assetId, hit);
    return hit;
  };
  return candidates
    .filter(
      (c) =>
        (c.savedOrganisationId !== null && scope.organisations.has(c.savedOrganisationId)) ||
        (c.currentOrganisationId !== null && scope.organisations.has(c.currentOrganisationId)) ||
        (c.assetId !== null && reachable(c.assetId)),
    )
    .map((c) => c.id);
}
