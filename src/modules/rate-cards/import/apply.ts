/**
 * Rate-card import, the apply: the whole card replaced by the file's, all or nothing, recorded as one rate-card
 * version ("Imported from file"). The file is judged before anything is locked; the card is read, matched and
 * replaced inside changeRateCard's transaction, which also checks the caller's expected version, so the change
 * applied is exactly the one compared (and answered) there.
 */
import type { Prisma } from '../../../generated/prisma/client.ts';
import type { RateCardImportFormat } from '../../../lib/vocabulary.ts';
import type { Caller } from '../../../lib/caller.ts';
import type { ServiceContext } from '../../../lib/service-context.ts';
import { compareRateCards, type Comparison } from '../compare.ts';
import { changeRateCard, rateCardWriterOf, readRateCard, replaceRateCard } from '../index.ts';
import { importedRateCard, matchImported, newRecordCounts, readRateCardFile } from './preview.ts';
import { approvalLinksOf } from '../approval-links.ts';

const IMPORT_REASON = 'Imported from file';

export interface RateCardImportResult extends Comparison {
  /** The restore point recorded for the import. */
  version_id: number;
  /** The card version after the import (the next change's expected version). */
  card_version: number;
}

/** `n` fresh ids of `table`, drawn from its sequence (never reused, so a new record can never take another's id). */
async function freshIds(
  tx: Prisma.TransactionClient,
  table: 'products' | 'rate_brackets',
  n: number,
): Promise<number[]> {
  if (n === 0) return [];
  const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
    `SELECT nextval(pg_get_serial_sequence('"${table}"', 'id'))::int AS id FROM generate_series(1, $1::int)`,
    n,
  );
  return rows.map((r) => r.id);
}

export async function applyRateCardImport(
  ctx: ServiceContext,
  caller: Caller,
  format: RateCardImportFormat,
  content: string,
  expectedVersion: number,
): Promise<RateCardImportResult> {
  const organisationId = rateCardWriterOf(caller, ctx.client);
  const imported = readRateCardFile(format, content);
  const outcome = await changeRateCard(
    ctx,
    caller,
    { resource: 'rate_card', reason: IMPORT_REASON, expectedVersion, partsPresent: ['products', 'rate_brackets'] },
    async (tx) => {
      const [current, approvalLinks] = await Promise.all([
        readRateCard(tx, organisationId),
        approvalLinksOf(tx, organisationId),
      ]);
      const matches = matchImported(imported, current);
      const counts = newRecordCounts(matches);
      const card = importedRateCard(imported, matches, organisationId, {
        products: await freshIds(tx, 'products', counts.products),
        brackets: await freshIds(tx, 'rate_brackets', counts.brackets),
      });
      const comparison = compareRateCards(current, card, { approvalLinks });
      await replaceRateCard(tx, organisationId, card);
      return comparison;
    },
  );
  return { ...outcome.result, version_id: outcome.version.id, card_version: outcome.cardVersion };
}
