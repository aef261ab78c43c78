/**
 * Rate-card import, the preview: what a file would change, with the warnings a financier should read first. Writes
 * nothing. The caller's own financier organisation only; needs `change_rate_card` (admins hold it) and write access,
 * like the apply it prepares (the spec's `read` tokens may POST only the five computations).
 */
import type { RateCardImportFormat } from '../../../lib/vocabulary.ts';
import type { Caller } from '../../../lib/caller.ts';
import type { ServiceContext } from '../../../lib/service-context.ts';
import { approvalLinksOf } from '../approval-links.ts';
import type { Comparison } from '../compare.ts';
import { cardVersionOf, rateCardWriterOf, readRateCard } from '../index.ts';
import { previewImport } from './preview.ts';

export interface RateCardImportPreview extends Comparison {
  /** The card version the preview compared with: send it to the apply, which refuses the file if the card moved. */
  expected_version: number;
}

export async function previewRateCardImport(
  ctx: ServiceContext,
  caller: Caller,
  format: RateCardImportFormat,
  content: string,
): Promise<RateCardImportPreview> {
  const organisationId = rateCardWriterOf(caller, ctx.client);
  // The version first: if the card changes after it was read, the apply's check refuses rather than overwriting.
  const expected_version = await cardVersionOf(ctx.prisma, organisationId);
  const [current, approvalLinks] = await Promise.all([
    readRateCard(ctx.prisma, organisationId),
    approvalLinksOf(ctx.prisma, organisationId),
  ]);
  const { comparison } = previewImport(current, organisationId, format, content, { approvalLinks });
  return { ...comparison, expected_version };
}
