/**
 * Matrix results ordered and grouped (docs/matrix.md, "Sort orders"): the order names and doc levels are read in,
 * approvals within a financier, and outcomes grouped into financier groups (docs/api-v1.md, "Matrix result shapes").
 * The join's row order (join.rules.ts, join.fast.ts) uses the same comparisons; rows.ts formats the groups as the API
 * shows them.
 *
 * Pure: no I/O.
 */
import { DOC_LEVELS, type DocLevel } from '../../lib/vocabulary.ts';
import type { ApprovalOutcome } from './criteria.ts';

/** Position in DOC_LEVELS: 0 = least onerous. An unknown level sorts after every known one. */
export function docLevelRank(level: DocLevel): number {
  const rank = DOC_LEVELS.indexOf(level);
  return rank < 0 ? DOC_LEVELS.length : rank;
}

const NAME_COLLATOR = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * Name order as a broker reads a list: case- and accent-insensitive, digits by value ("Tier 2" before "Tier 10");
 * names equal that way fall back to code-unit order so the result never depends on input order.
 */
export function compareNames(a: string, b: string): number {
  const c = NAME_COLLATOR.compare(a, b);
  if (c !== 0) return c;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Ascending numeric order with NaN last, so a bad figure can never scramble a sort. */
export function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
}

/** Within a financier: least-onerous doc level, then higher `priority` (the headline row), then approval name, then id. */
function compareWithinFinancier(a: ApprovalOutcome, b: ApprovalOutcome): number {
  return (
    docLevelRank(a.approval.doc_level) - docLevelRank(b.approval.doc_level) ||
    compareNumbers(b.approval.priority, a.approval.priority) ||
    compareNames(a.approval.name, b.approval.name) ||
    a.approval.id - b.approval.id
  );
}

/** A sorted copy; the input is not mutated. */
export function sortApprovalsWithinFinancier(outcomes: readonly ApprovalOutcome[]): ApprovalOutcome[] {
  return [...outcomes].sort(compareWithinFinancier);
}

/** An organisation missing from the names map (a catalogue inconsistency) is named '' rather than failing the run. */
export function organisationNameOf(organisationNames: ReadonlyMap<number, string>, organisationId: number): string {
  return organisationNames.get(organisationId) ?? '';
}

/** MatrixFinancierGroup, before formatting. */
export interface FinancierGroup {
  organisation_id: number;
  organisation_name: string;
  approvals: ApprovalOutcome[];
}

/** Groups outcomes by the approval's organisation: groups by organisation name then id, approvals within each by `compareWithinFinancier`. */
export function groupByFinancier(
  outcomes: readonly ApprovalOutcome[],
  organisationNames: ReadonlyMap<number, string>,
): FinancierGroup[] {
  const byOrganisation = new Map<number, FinancierGroup>();
  for (const outcome of outcomes) {
    const id = outcome.approval.organisation_id;
    let group = byOrganisation.get(id);
    if (group === undefined) {
      group = { organisation_id: id, organisation_name: organisationNameOf(organisationNames, id), approvals: [] };
      byOrganisation.set(id, group);
    }
    group.approvals.push(outcome);
  }
  const groups = [...byOrganisation.values()];
  for (const group of groups) group.approvals.sort(compareWithinFinancier);
  return groups.sort(
    (a, b) => compareNames(a.organisation_name, b.organisation_name) || a.organisation_id - b.organisation_id,
  );
}
