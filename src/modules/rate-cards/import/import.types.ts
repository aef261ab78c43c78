import { builder, type ObjectFieldBuilder } from '../../../graphql/builder.ts';
import { RATE_CARD_IMPORT_FORMATS, type RateCardImportFormat } from '../../../lib/vocabulary.ts';
import type { Comparison } from '../compare.ts';
import type { RateCardImportResult } from './apply.ts';
import type { RateCardImportPreview } from './service.ts';
import { IMPORT_LIMITS } from './problems.ts';

const FORMAT_DESCRIPTIONS: Record<RateCardImportFormat, string> = {
  csv: 'One row per rate bracket with its product columns repeated, a header row first',
  json: 'An object with products and rate_brackets lists',
};

export const RateCardImportFormatEnum = builder.enumType('RateCardImportFormat', {
  description: 'The format of a rate-card file (docs/rate-card-import.md)',
  values: Object.fromEntries(
    RATE_CARD_IMPORT_FORMATS.map((format) => [format, { description: FORMAT_DESCRIPTIONS[format] }]),
  ) as Record<RateCardImportFormat, { description: string }>,
});

/**
 * The cost budget's size of a comparison's lines (src/graphql-server/cost.ts): about one per record of either side, today's
 * card (the catalogue's largest) and the file (the import's limits).
 */
const comparisonLines = (sizes: { recordsPerCard: number }): number =>
  sizes.recordsPerCard + IMPORT_LIMITS.maxProducts + IMPORT_LIMITS.maxBrackets + 1;

/** The comparison's four fields, the same on the preview and on the apply's answer (and the version diff). */
function comparisonFields<T extends Comparison>(t: ObjectFieldBuilder<T>) {
  return {
    summary_lines: t.stringList({
      description: 'What changes, one sentence each',
      extensions: { listSize: comparisonLines },
      resolve: (r) => r.summary_lines,
    }),
    warnings: t.stringList({
      extensions: { listSize: comparisonLines },
      description: 'What to check first: unreachable or shadowed brackets, large rate moves, unlinked approvals',
      resolve: (r) => r.warnings,
    }),
    parts: t.field({
      type: 'JSON',
      resolve: (r) => r.parts,
      description: 'Per part (products, rate_brackets): counts of added, changed, removed and unchanged records',
    }),
    subtrees: t.field({
      type: 'JSON',
      resolve: (r) => r.subtrees,
      description: 'Per product name: its status, id, the sentences beneath it and its brackets by change',
    }),
  };
}

export const RateCardImportPreviewRef = builder.objectRef<RateCardImportPreview>('RateCardImportPreview').implement({
  description: 'What importing a rate-card file would change; nothing was written',
  fields: (t) => ({
    ...comparisonFields(t),
    expected_version: t.exposeInt('expected_version', {
      description: 'The card version compared with: pass it to applyRateCardImport',
    }),
  }),
});

export const RateCardImportResultRef = builder.objectRef<RateCardImportResult>('RateCardImportResult').implement({
  description: 'A rate-card file applied: the whole card replaced, recorded as one version',
  fields: (t) => ({
    ...comparisonFields(t),
    version_id: t.exposeInt('version_id', { description: 'The rate-card version recorded ("Imported from file")' }),
    card_version: t.exposeInt('card_version', { description: 'The card version after the import' }),
  }),
});
