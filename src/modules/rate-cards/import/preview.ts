/**
 * From a file's content to the card it describes, matched against the card today, and what replacing one with the
 * other changes. Pure: the preview and the apply both run this, the apply inside its transaction.
 *
 * Matching (docs/rate-card-import.md): a file's product is today's product of the same name (trimmed,
 * case-insensitive) and keeps its id; a bracket is today's bracket of the same name within that product. So a file
 * exported and imported again changes nothing, and a preview lists only what the file changes. A renamed product or
 * bracket is a different record: the old one is removed and the new one added.
 */
import type { RateCardImportFormat } from '../../../lib/vocabulary.ts';
import type { Product, RateBracket } from '../../catalogue/index.ts';
import type { RateCard } from '../card.ts';
import { compareRateCards, type CompareOptions, type Comparison } from '../compare.ts';
import { parseCsvFile } from './parse-csv.ts';
import { parseJsonFile } from './parse-json.ts';
import { checkContent, Problems } from './problems.ts';
import { type ImportedCard, nameKey, validateFile } from './validate.ts';

/** Reads and judges a file; throws one ValidationError listing every problem (nothing else has happened yet). */
export function readRateCardFile(format: RateCardImportFormat, content: string): ImportedCard {
  const problems = new Problems();
  if (checkContent(content, problems)) {
    const parsed = format === 'csv' ? parseCsvFile(content, problems) : parseJsonFile(content, problems);
    if (parsed) {
      const card = validateFile(parsed, problems);
      if (card && !problems.any) return card;
    }
  }
  throw problems.toError();
}

/** Today's ids of the file's records (null = new), by the matching rule above. */
export function matchImported(imported: ImportedCard, current: RateCard) {
  const productByName = new Map<string, Product>();
  for (const p of current.products)
    if (!productByName.has(nameKey(p.product_name))) productByName.set(nameKey(p.product_name), p);
  const bracketByName = new Map<string, RateBracket>();
  for (const b of current.rate_brackets) {
    const k = `${b.product_id}|${nameKey(b.name)}`;
    if (!bracketByName.has(k)) bracketByName.set(k, b);
  }
  const products = imported.products.map((p) => productByName.get(nameKey(p.product_name))?.id ?? null);
  const brackets = imported.brackets.map(({ product, fields }) => {
    const productId = products[product];
    return productId === null ? null : (bracketByName.get(`${productId}|${nameKey(fields.name)}`)?.id ?? null);
  });
  return { products, brackets };
}

/** How many new products and brackets the file adds (the apply allocates their ids). */
export function newRecordCounts(matches: ReturnType<typeof matchImported>) {
  return {
    products: matches.products.filter((id) => id === null).length,
    brackets: matches.brackets.filter((id) => id === null).length,
  };
}

/**
 * The card the file describes, as the organisation's: matched records keep today's ids, new ones take `newIds` in
 * file order (the preview passes -1, -2, ...; the apply ids drawn from the tables' sequences).
 */
export function importedRateCard(
  imported: ImportedCard,
  matches: ReturnType<typeof matchImported>,
  organisationId: number,
  newIds: { products: number[]; brackets: number[] },
): RateCard {
  let p = 0;
  let b = 0;
  const productIds = matches.products.map((id) => id ?? newIds.products[p++]);
  const products: Product[] = imported.products.map((fields, i) => ({
    id: productIds[i],
    organisation_id: organisationId,
    ...fields,
  }));
  const rate_brackets: RateBracket[] = imported.brackets.map(({ product, fields }, i) => ({
    id: matches.brackets[i] ?? newIds.brackets[b++],
    organisation_id: organisationId,
    product_id: productIds[product],
    ...fields,
  }));
  return {
    products: products.sort((x, y) => x.id - y.id),
    rate_brackets: rate_brackets.sort((x, y) => x.id - y.id),
  };
}

const provisional = (n: number) => Array.from({ length: n }, (_, i) => -(i + 1));

/** What importing `content` over `current` would change; throws ValidationError for a bad file. Writes nothing. */
export function previewImport(
  current: RateCard,
  organisationId: number,
  format: RateCardImportFormat,
  content: string,
  options: CompareOptions = {},
): { card: RateCard; comparison: Comparison } {
  const imported = readRateCardFile(format, content);
  const matches = matchImported(imported, current);
  const counts = newRecordCounts(matches);
  const card = importedRateCard(imported, matches, organisationId, {
    products: provisional(counts.products),
    brackets: provisional(counts.brackets),
  });
  return { card, comparison: compareRateCards(current, card, options) };
}
