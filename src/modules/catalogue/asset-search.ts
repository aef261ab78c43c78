/**
 * Asset search (GET /assets/search, GraphQL `assetSearch`): finds the assets a broker means by a few typed words.
 * Pure and in memory: no I/O. The index is built once per catalogue snapshot (keyed by the snapshot's `assets`
 * array in a WeakMap, so it is dropped with the snapshot) and each query is one pass over the leaves.
 *
 * Matching: the query is split into tokens (whitespace and commas); every token must occur, case-insensitively, as a
 * substring of the asset's name, one of its aliases, or the name or an alias of any ancestor. So "excav" finds
 * Excavator, "mini dig" finds Mini Excavator, and a category word ("earthmoving") finds every asset beneath it.
 *
 * Only leaves are returned: `is_asset` true, not deleted, and no deleted ancestor. Categories never are.
 *
 * Ranking (best first), ties by label (then id):
 *   0. the name starts with the whole query;
 *   1. a word of the name starts with a token;
 *   2. the name contains a token (inside a word);
 *   3. an alias contains a token;
 *   4. only the ancestors match.
 */
import { FieldErrors } from '../../lib/errors.ts';
import type { AssetNode } from './model.ts';

export const ASSET_SEARCH_DEFAULT_LIMIT = 20;
export const ASSET_SEARCH_MAX_LIMIT = 50;
export const ASSET_SEARCH_MAX_QUERY_LENGTH = 100;
/** Between the names of a path in `label`. */
const LABEL_SEPARATOR = ' › ';

export interface AssetSearchResult {
  id: number;
  name: string;
  alias: string | null;
  parent_id: number | null;
  /** Ancestor names, root first (empty for an asset at the top of the tree). */
  path: readonly string[];
  /** The path and the name, e.g. "Motor Vehicles › Passenger Car". */
  label: string;
}

interface IndexedLeaf {
  result: AssetSearchResult;
  /** Lower-cased name, whitespace collapsed. */
  name: string;
  /** Words of the name (letters and digits), lower-cased. */
  nameWords: readonly string[];
  /** Aliases, lower-cased, joined by "\n" (a token never contains one, so it cannot match across two aliases). */
  aliases: string;
  /** Name, aliases and every ancestor's name and aliases, lower-cased, joined by "\n". */
  haystack: string;
  /** Position in label order: ties compare integers instead of strings. */
  labelRank: number;
}

export interface AssetSearchIndex {
  leaves: readonly IndexedLeaf[];
}

const indexes = new WeakMap<readonly AssetNode[], AssetSearchIndex>();

const lower = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** An alias field is a comma-separated list; blanks are dropped. */
function splitAliases(alias: string | null): string[] {
  if (!alias) return [];
  return alias
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
}

/** The index for this assets array, built on first use and kept as long as the array (the snapshot) lives. */
export function assetSearchIndex(assets: readonly AssetNode[]): AssetSearchIndex {
  let index = indexes.get(assets);
  if (!index) {
    index = buildIndex(assets);
    indexes.set(assets, index);
  }
  return index;
}

function buildIndex(assets: readonly AssetNode[]): AssetSearchIndex {
  const byId = new Map<number, AssetNode>();
  for (const a of assets) byId.set(a.id, a);

  const leaves: IndexedLeaf[] = [];
  for (const asset of assets) {
    if (!asset.is_asset || asset.is_deleted) continue;
    // Walk up to the root. A cycle ends the walk at the repeat; a parent missing from the tree ends it there.
    const ancestors: AssetNode[] = [];
    const seen = new Set<number>([asset.id]);
    let deletedAncestor = false;
    let parentId = asset.parent_id;
    while (parentId !== null && !seen.has(parentId)) {
      const parent = byId.get(parentId);
      if (!parent) break;
      if (parent.is_deleted) {
        deletedAncestor = true;
        break;
      }
      seen.add(parentId);
      ancestors.push(parent);
      parentId = parent.parent_id;
    }
    if (deletedAncestor) continue;
    ancestors.reverse();

    const path = Object.freeze(ancestors.map((a) => a.name));
    const aliases = splitAliases(asset.alias).map(lower);
    const name = lower(asset.name);
    const haystack = [
      name,
      ...aliases,
      ...ancestors.flatMap((a) => [lower(a.name), ...splitAliases(a.alias).map(lower)]),
    ].join('\n');
    leaves.push({
      result: Object.freeze({
        id: asset.id,
        name: asset.name,
        alias: asset.alias,
        parent_id: asset.parent_id,
        path,
        label: [...path, asset.name].join(LABEL_SEPARATOR),
      }),
      name,
      nameWords: name.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ''),
      aliases: aliases.join('\n'),
      haystack,
      labelRank: 0,
    });
  }

  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  const byLabel = [...leaves].sort(
    (a, b) => collator.compare(a.result.label, b.result.label) || a.result.id - b.result.id,
  );
  byLabel.forEach((leaf, i) => {
    leaf.labelRank = i;
  });
  return { leaves: byLabel };
}

/** Tokens of a query: lower-cased, split on whitespace and commas. */
function tokenize(q: string): string[] {
  return q
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((t) => t !== '');
}

function tier(leaf: IndexedLeaf, whole: string, tokens: readonly string[]): number {
  if (leaf.name.startsWith(whole)) return 0;
  if (leaf.nameWords.some((w) => tokens.some((t) => w.startsWith(t)))) return 1;
  if (tokens.some((t) => leaf.name.includes(t))) return 2;
  if (tokens.some((t) => leaf.aliases.includes(t))) return 3;
  return 4;
}

/**
 * The leaves matching every token of `q`, best first, at most `limit`. `q` and `limit` are assumed valid
 * (see validateAssetSearch); a query without tokens finds nothing.
 */
export function searchAssets(
  assets: readonly AssetNode[],
  q: string,
  limit: number = ASSET_SEARCH_DEFAULT_LIMIT,
): AssetSearchResult[] {
  const tokens = tokenize(q);
  if (tokens.length === 0 || limit < 1) return [];
  const whole = lower(q);
  const hits: { leaf: IndexedLeaf; tier: number }[] = [];
  for (const leaf of assetSearchIndex(assets).leaves) {
    let all = true;
    for (const t of tokens)
      if (!leaf.haystack.includes(t)) {
        all = false;
        break;
      }
    if (all) hits.push({ leaf, tier: tier(leaf, whole, tokens) });
  }
  hits.sort((a, b) => a.tier - b.tier || a.leaf.labelRank - b.leaf.labelRank);
  return hits.slice(0, limit).map((h) => h.leaf.result);
}

export interface AssetSearchInput {
  q: string;
  limit: number;
}

/**
 * The request rules: `q` required, not blank (nor only commas), at most 100 characters (after trimming); `limit` an integer 1..50,
 * default 20. Throws one ValidationError naming every bad field.
 */
export function validateAssetSearch(q: string | null | undefined, limit: number | null | undefined): AssetSearchInput {
  const errors = new FieldErrors();
  const trimmed = (q ?? '').trim();
  if (tokenize(trimmed).length === 0) errors.add('q', 'This field may not be blank.');
  else if ([...trimmed].length > ASSET_SEARCH_MAX_QUERY_LENGTH)
    errors.add('q', `Ensure this field has no more than ${ASSET_SEARCH_MAX_QUERY_LENGTH} characters.`);
  const resolvedLimit = limit ?? ASSET_SEARCH_DEFAULT_LIMIT;
  if (!Number.isInteger(resolvedLimit) || resolvedLimit < 1 || resolvedLimit > ASSET_SEARCH_MAX_LIMIT) {
    errors.add('limit', `Must be an integer from 1 to ${ASSET_SEARCH_MAX_LIMIT}.`);
  }
  errors.throwIfAny();
  return { q: trimmed, limit: resolvedLimit };
}
