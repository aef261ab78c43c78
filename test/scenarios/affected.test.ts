/**
 * Which saved scenarios a change can affect (src/modules/repricing/affected.ts), at the engine: the rules of
 * docs/scenarios.md "Which scenarios a change can affect". test/scenarios/repricing.test.ts holds them over the
 * database's change log.
 */
import { describe, expect, it } from 'vitest';
import type { AssetNode, AssetRateBracketRelation } from '../../src/modules/catalogue/index.ts';
import {
  affectedScenarios,
  type Candidate,
  type ChangeRow,
  changeScope,
} from '../../src/modules/repricing/affected.ts';

// Asset 2 sits under category 1; financier 7 is mapped on the category, financier 8 on nothing.
const catalogue = {
  relations: [{ asset_id: 1, organisation_id: 7 }] as AssetRateBracketRelation[],
  assetsById: new Map([
    [1, { id: 1, parent_id: null }],
    [2, { id: 2, parent_id: 1 }],
  ]) as unknown as Map<number, AssetNode>,
};
const deal = (id: number, term: number | null, saved: number | null = null): Candidate => ({
  id,
  assetId: 2,
  term,
  savedOrganisationId: saved,
  currentOrganisationId: null,
});
const brackets = (organisation: number, min: number | null, max: number | null): ChangeRow => ({
  organisation_id: organisation,
  kind: 'rate_bracket',
  min_term: min,
  max_term: max,
});
const affected = (changes: ChangeRow[], candidates: Candidate[]) =>
  affectedScenarios(catalogue, changeScope(changes), candidates);

describe('A rate-bracket change reaches the deals whose term its brackets cover, bounds inclusive', () => {
  const deals = [deal(1, 36), deal(2, 48), deal(3, 60), deal(4, 61), deal(5, null)];
  it('covers [min, max] and a deal whose term is unknown', () => {
    expect(affected([brackets(7, 48, 60)], deals)).toEqual([2, 3, 5]);
  });
  it('a null bound is open on that side', () => {
    expect(affected([brackets(7, null, 47)], deals)).toEqual([1, 5]);
    expect(affected([brackets(7, 61, null)], deals)).toEqual([4, 5]);
  });
  it('several rows of one financier add up; any other kind of change reaches every term', () => {
    expect(affected([brackets(7, 36, 36), brackets(7, 61, 61)], deals)).toEqual([1, 4, 5]);
    expect(affected([brackets(7, 36, 36), { ...brackets(7, null, null), kind: 'approval' }], deals)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });
  it('applies to the saved financier too; an unmapped financier reaches only the scenarios it is saved on', () => {
    const saved = [deal(1, 36, 8), deal(2, 60, 8)];
    expect(affected([brackets(8, 48, 60)], saved)).toEqual([2]);
    expect(affected([{ ...brackets(8, null, null), kind: 'rate_card' }], [...saved, deal(3, 60)])).toEqual([1, 2]);
  });
  it('a change to every financier affects every scenario', () => {
    expect(affected([{ ...brackets(7, 1, 1), organisation_id: null, kind: 'rate_card' }], deals)).toHaveLength(5);
  });
});
