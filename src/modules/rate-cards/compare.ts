/**
 * PLACEHOLDER with the agreed signatures (the import engineer writes the real comparison; the lead takes theirs at
 * merge). What restoring or importing `after` would change compared with `before`: plain records, no I/O.
 */
import type { AssetMappingCard, RateCard } from './card.ts';

export interface CardComparison {
  summary_lines: string[];
  warnings: string[];
  parts: Record<string, unknown>;
  subtrees: Record<string, unknown>;
}

interface Keyed {
  id: number;
}

function diffList<T extends Keyed>(before: readonly T[], after: readonly T[]) {
  const was = new Map(before.map((r) => [r.id, r]));
  const now = new Map(after.map((r) => [r.id, r]));
  return {
    added: after.filter((r) => !was.has(r.id)).map((r) => r.id),
    removed: before.filter((r) => !now.has(r.id)).map((r) => r.id),
    changed: after.filter((r) => was.has(r.id) && JSON.stringify(was.get(r.id)) !== JSON.stringify(r)).map((r) => r.id),
  };
}

function linesOf(part: string, d: ReturnType<typeof diffList>): string[] {
  const lines: string[] = [];
  if (d.added.length) lines.push(`${d.added.length} ${part} added`);
  if (d.removed.length) lines.push(`${d.removed.length} ${part} removed`);
  if (d.changed.length) lines.push(`${d.changed.length} ${part} changed`);
  return lines;
}

export function compareRateCards(before: RateCard, after: RateCard, _options?: unknown): CardComparison {
  const products = diffList(before.products, after.products);
  const rate_brackets = diffList(before.rate_brackets, after.rate_brackets);
  const summary_lines = [...linesOf('products', products), ...linesOf('rate brackets', rate_brackets)];
  return {
    summary_lines: summary_lines.length ? summary_lines : ['No changes'],
    warnings: [],
    parts: { products, rate_brackets },
    subtrees: {},
  };
}

export function compareAssetMappings(before: AssetMappingCard, after: AssetMappingCard): CardComparison {
  const asset_rate_brackets = diffList(before.asset_rate_brackets, after.asset_rate_brackets);
  const summary_lines = linesOf('asset mappings', asset_rate_brackets);
  return {
    summary_lines: summary_lines.length ? summary_lines : ['No changes'],
    warnings: [],
    parts: { asset_rate_brackets },
    subtrees: {},
  };
}
