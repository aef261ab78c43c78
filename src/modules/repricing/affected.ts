/**
 * Which saved scenarios a set of catalogue changes can affect, decided from the change and the scenario's deal
 * without running anything. A changed organisation reaches a scenario when the change covers the deal's term (a
 * rate-bracket change covers the terms of the brackets it wrote, before and after; any other change every term), and
 * then affects it when it is the financier of its saved or its current cheapest row, or has an asset mapping on the
 * scenario's asset or a category above it (so a bracket of theirs could price the deal, now or before the change).
 * A change to every financier (the asset tree, a shared product, a catalogue load) affects them all. Pure: no I/O.
 */
import type { AssetNode, AssetRateBracketRelation } from '../catalogue/index.ts';

/** Terms in months, bounds inclusive as a bracket's are; null: no bound on that side. */
interface TermRange {
  min: number | null;
  max: number | null;
}

/** The coalesced changes of one pass: per changed organisation, the terms its changes reach (null: every term). */
export interface ChangeScope {
  all: boolean;
  organisations: ReadonlyMap<number, readonly TermRange[] | null>;
}

/** A change-log row as the decision reads it. */
export interface ChangeRow {
  organisation_id: number | null;
  kind: string;
  min_term: number | null;
  max_term: number | null;
}

/** What the decision reads of a saved scenario. */
export interface Candidate {
  id: number;
  /** The deal's asset id, or null when the stored request names none usable. */
  assetId: number | null;
  /** The deal's term in months, or null when the stored request names none usable (every change reaches it). */
  term: number | null;
  savedOrganisationId: number | null;
  currentOrganisationId: number | null;
}

export function changeScope(changes: readonly ChangeRow[]): ChangeScope {
  const organisations = new Map<number, TermRange[] | null>();
  let all = false;
  for (const change of changes) {
    if (change.organisation_id === null) {
      all = true;
      continue;
    }
    const known = organisations.get(change.organisation_id);
    const range = { min: change.min_term, max: change.max_term };
    if (change.kind !== 'rate_bracket') organisations.set(change.organisation_id, null);
    else if (known === undefined) organisations.set(change.organisation_id, [range]);
    else known?.push(range); // null: every term is reached already
  }
  return { all, organisations };
}

const covers = (ranges: readonly TermRange[] | null, term: number | null): boolean =>
  ranges === null ||
  term === null ||
  ranges.some((r) => (r.min === null || r.min <= term) && (r.max === null || term <= r.max));

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
  // Per asset, the changed organisations mapped on it or on a category above it.
  const reaching = new Map<number, readonly number[]>();
  const reachingOf = (assetId: number): readonly number[] => {
    const known = reaching.get(assetId);
    if (known) return known;
    const found = new Set<number>();
    const seen = new Set<number>();
    for (let id: number | null | undefined = assetId; id != null && !seen.has(id); ) {
      seen.add(id);
      for (const organisation of mappedOn.get(id) ?? []) found.add(organisation);
      id = catalogue.assetsById.get(id)?.parent_id;
    }
    const list = [...found];
    reaching.set(assetId, list);
    return list;
  };
  const reaches = (organisation: number | null, term: number | null): boolean =>
    organisation !== null &&
    scope.organisations.has(organisation) &&
    covers(scope.organisations.get(organisation)!, term);
  return candidates
    .filter(
      (c) =>
        reaches(c.savedOrganisationId, c.term) ||
        reaches(c.currentOrganisationId, c.term) ||
        (c.assetId !== null && reachingOf(c.assetId).some((organisation) => reaches(organisation, c.term))),
    )
    .map((c) => c.id);
}
