/**
 * The rate card in the database: read it as the plain records of card.ts, and make the database equal a card
 * (restore, import apply). Every function takes the transaction it runs in. No GraphQL.
 */
import type { Db } from '../../lib/db.ts';
import { FieldErrors } from '../../lib/errors.ts';
import { productAsStored, type AssetRateBracketRelation, type Product, type RateBracket } from '../catalogue/index.ts';
import type { AssetMappingCard, RateCard } from './card.ts';

/** The product columns a card holds (the spec's fields without the timestamps), in the spec's order. */
const PRODUCT_FIELDS = [
  'id',
  'product_name',
  'organisation_id',
  'min_range',
  'max_range',
  'min_amount',
  'max_amount',
  'min_abn_age',
  'max_abn_age',
  'min_asset_age',
  'max_asset_age',
  'min_gst_age',
  'max_gst_age',
  'min_asset_age_plus_term',
  'max_asset_age_plus_term',
  'min_credit_score',
  'max_credit_score',
  'monthly_fee',
  'documentation_fee',
  'brokerage_cap',
  'maximum_brokerage_limit',
  'compounding_frequency',
  'brokerage_loading_treatment',
  'max_origination_fee_limit',
  'doc_fee_financed',
  'private_sale',
  'sale_hire_back',
  'home_owner',
] as const satisfies readonly (keyof Product)[];

const RATE_BRACKET_FIELDS = [
  'id',
  'name',
  'organisation_id',
  'product_id',
  'type',
  'min_term',
  'max_term',
  'min_amount',
  'max_amount',
  'min_asset_age',
  'max_asset_age',
  'base_min',
  'base_max',
  'max_lvr',
] as const satisfies readonly (keyof RateBracket)[];

const MAPPING_FIELDS = ['id', 'asset_id', 'organisation_id', 'product_id', 'rate_bracket_id'] as const;

const pick = <K extends string>(row: Record<string, unknown>, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, row[k] ?? null])) as Record<K, unknown>;
/** A card's product as its row: a version saved before the flags were always stated may hold null (`both`). */
const productColumns = (p: Product) => productAsStored(pick(p as never, PRODUCT_FIELDS));
const selectOf = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, true]));

/** The organisation's rate card: its products and rate brackets, each list ordered by id. */
export async function readRateCard(db: Db, organisationId: number): Promise<RateCard> {
  const [products, brackets] = await Promise.all([
    db.product.findMany({
      where: { organisation_id: organisationId },
      orderBy: { id: 'asc' },
      select: selectOf(PRODUCT_FIELDS),
    }),
    db.rateBracket.findMany({
      where: { organisation_id: organisationId },
      orderBy: { id: 'asc' },
      select: selectOf(RATE_BRACKET_FIELDS),
    }),
  ]);
  return {
    products: products.map((p) => pick(p, PRODUCT_FIELDS) as unknown as Product),
    rate_brackets: brackets.map((b) => pick(b, RATE_BRACKET_FIELDS) as unknown as RateBracket),
  };
}

/** The organisation's asset mappings, ordered by id. */
export async function readAssetMappings(db: Db, organisationId: number): Promise<AssetMappingCard> {
  const rows = await db.assetRateBracket.findMany({
    where: { organisation_id: organisationId },
    orderBy: { id: 'asc' },
    select: selectOf(MAPPING_FIELDS),
  });
  return { asset_rate_brackets: rows.map((m) => pick(m, MAPPING_FIELDS) as unknown as AssetRateBracketRelation) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const withoutId = ({ id: _id, ...rest }: Record<string, unknown>) => rest;

/**
 * Rows written with explicit ids (a restored product keeps its id) move the id sequence past them, so the next
 * ordinary insert never collides. setval is not transactional, which is harmless: a sequence may only skip ids.
 */
async function sequencePast(db: Db, table: 'products' | 'rate_brackets' | 'asset_rate_brackets'): Promise<void> {
  await db.$executeRawUnsafe(
    `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'),
            GREATEST((SELECT COALESCE(MAX(id), 1) FROM "${table}"), (SELECT last_value FROM "${table}_id_seq")))`,
  );
}

/** Rate brackets per bulk statement: on PGlite a statement runs on the event loop, so each stays short. */
const BRACKETS_PER_STATEMENT = 500;

/** The rate_brackets columns a card writes, with their SQL types (jsonb_to_recordset reads the rows by them). */
const BRACKET_COLUMNS = RATE_BRACKET_FIELDS.map((f) => {
  const type = /^(id|organisation_id|product_id|min_term|max_term|min_asset_age|max_asset_age)$/.test(f)
    ? 'int'
    : f === 'name'
      ? 'text'
      : f === 'type'
        ? '"CardType"'
        : 'double precision';
  return { name: f, type };
});
const BRACKET_RECORDSET = `jsonb_to_recordset($1::jsonb) AS r(${BRACKET_COLUMNS.map((c) => `"${c.name}" ${c.type}`).join(', ')})`;
const BRACKET_SQL = {
  insert: `INSERT INTO rate_brackets (${BRACKET_COLUMNS.map((c) => `"${c.name}"`).join(', ')})
           SELECT ${BRACKET_COLUMNS.map((c) => `r."${c.name}"`).join(', ')} FROM ${BRACKET_RECORDSET}`,
  update: `UPDATE rate_brackets b SET ${BRACKET_COLUMNS.filter((c) => c.name !== 'id')
    .map((c) => `"${c.name}" = r."${c.name}"`)
    .join(', ')}, updated_at = CURRENT_TIMESTAMP
           FROM ${BRACKET_RECORDSET} WHERE b.id = r.id`,
};

/**
 * Inserts or updates many rate brackets, BRACKETS_PER_STATEMENT at a time, each batch one statement with one JSON
 * parameter. A row per statement (or one statement with a parameter per field) costs far more than the write: an
 * import of thousands of brackets would hold a PGlite server's event loop for seconds. Updates lock their rows in id
 * order first, as every rate-bracket writer does.
 */
async function writeRateBrackets(tx: Db, mode: 'insert' | 'update', brackets: readonly RateBracket[]): Promise<void> {
  const rows = [...brackets].sort((a, b) => a.id - b.id).map((b) => pick(b as never, RATE_BRACKET_FIELDS));
  for (let i = 0; i < rows.length; i += BRACKETS_PER_STATEMENT) {
    const batch = rows.slice(i, i + BRACKETS_PER_STATEMENT);
    if (mode === 'update')
      await tx.$executeRawUnsafe(
        'SELECT 1 FROM rate_brackets WHERE id = ANY($1::int[]) ORDER BY id FOR NO KEY UPDATE',
        batch.map((r) => r.id),
      );
    await tx.$executeRawUnsafe(BRACKET_SQL[mode], JSON.stringify(batch));
  }
}

/**
 * Locks rate brackets about to be deleted, in id order. An approval write locks the brackets it links (KEY SHARE,
 * also in id order), so the two queue instead of deadlocking, whatever order a DELETE's plan would take them in.
 */
export async function lockRateBracketsForDelete(db: Db, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.$queryRawUnsafe('SELECT id FROM rate_brackets WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', ids);
}

/** Ids of `table` among `ids` that exist and belong to another organisation (a card may never take them over). */
async function foreignIds(db: Db, table: string, ids: number[], organisationId: number): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.$queryRawUnsafe<{ id: number }[]>(
    `SELECT id FROM "${table}" WHERE id = ANY($1::int[]) AND organisation_id IS DISTINCT FROM $2`,
    ids,
    organisationId,
  );
  return new Set(rows.map((r) => r.id));
}

/** An id listed twice in one card is refused at its second place (`products[4].id`). */
function duplicateIds(errors: FieldErrors, part: string, rows: readonly { id: number }[]): void {
  const seen = new Set<number>();
  rows.forEach((row, i) => {
    if (!Number.isInteger(row.id) || row.id < 1 || row.id > 2_147_483_647)
      errors.add(`${part}[${i}].id`, 'Must be a positive integer.');
    else if (seen.has(row.id)) errors.add(`${part}[${i}].id`, `Id ${row.id} is listed twice.`);
    seen.add(row.id);
  });
}

/**
 * Makes the organisation's rate card in the database equal `card` (restore, import apply): products and brackets
 * the card lacks are deleted (with the asset mappings that point at them, and approvals' links to those brackets);
 * those it holds are inserted with their ids or updated where they differ. Only differences are written. A card
 * that names another organisation, or ids another organisation owns, is refused (ValidationError naming the item).
 */
export async function replaceRateCard(tx: Db, organisationId: number, card: RateCard): Promise<void> {
  const errors = new FieldErrors();
  const productIds = new Set(card.products.map((p) => p.id));
  duplicateIds(errors, 'products', card.products);
  duplicateIds(errors, 'rate_brackets', card.rate_brackets);
  card.products.forEach((p, i) => {
    if (p.organisation_id !== organisationId)
      errors.add(`products[${i}].organisation_id`, 'Must be the organisation whose card this is.');
  });
  card.rate_brackets.forEach((b, i) => {
    if (b.organisation_id !== organisationId)
      errors.add(`rate_brackets[${i}].organisation_id`, 'Must be the organisation whose card this is.');
    if (!productIds.has(b.product_id)) errors.add(`rate_brackets[${i}].product_id`, 'Not a product of this card.');
  });
  errors.throwIfAny();
  const [foreignProducts, foreignBrackets] = await Promise.all([
    foreignIds(tx, 'products', [...productIds], organisationId),
    foreignIds(
      tx,
      'rate_brackets',
      card.rate_brackets.map((b) => b.id),
      organisationId,
    ),
  ]);
  card.products.forEach((p, i) => {
    if (foreignProducts.has(p.id)) errors.add(`products[${i}].id`, 'Belongs to another organisation.');
  });
  card.rate_brackets.forEach((b, i) => {
    if (foreignBrackets.has(b.id)) errors.add(`rate_brackets[${i}].id`, 'Belongs to another organisation.');
  });
  errors.throwIfAny();

  const current = await readRateCard(tx, organisationId);
  const wantedBrackets = new Map(card.rate_brackets.map((b) => [b.id, b]));
  const nowProducts = new Map(current.products.map((p) => [p.id, p]));
  const nowBrackets = new Map(current.rate_brackets.map((b) => [b.id, b]));
  const removedProducts = current.products.filter((p) => !productIds.has(p.id)).map((p) => p.id);
  const removedBrackets = current.rate_brackets.filter((b) => !wantedBrackets.has(b.id)).map((b) => b.id);

  await lockRateBracketsForDelete(tx, removedBrackets);
  if (removedProducts.length || removedBrackets.length) {
    await tx.assetRateBracket.deleteMany({
      where: { OR: [{ product_id: { in: removedProducts } }, { rate_bracket_id: { in: removedBrackets } }] },
    });
  }
  if (removedBrackets.length) await tx.rateBracket.deleteMany({ where: { id: { in: removedBrackets } } });

  const newProducts = card.products.filter((p) => !nowProducts.has(p.id));
  if (newProducts.length) {
    await tx.product.createMany({ data: newProducts.map((p) => productColumns(p) as never) });
    await sequencePast(tx, 'products');
  }
  for (const p of card.products) {
    const now = nowProducts.get(p.id);
    if (now && !same(pick(now as never, PRODUCT_FIELDS), productColumns(p)))
      await tx.product.update({ where: { id: p.id }, data: withoutId(productColumns(p)) as never });
  }
  const newBrackets = card.rate_brackets.filter((b) => !nowBrackets.has(b.id));
  if (newBrackets.length) {
    await writeRateBrackets(tx, 'insert', newBrackets);
    await sequencePast(tx, 'rate_brackets');
  }
  const changedBrackets = card.rate_brackets.filter((b) => {
    const now = nowBrackets.get(b.id);
    return now && !same(pick(now as never, RATE_BRACKET_FIELDS), pick(b as never, RATE_BRACKET_FIELDS));
  });
  await writeRateBrackets(tx, 'update', changedBrackets);
  for (const b of changedBrackets) {
    // A bracket moved to another product takes its asset mappings along (a mapping names both).
    if (nowBrackets.get(b.id)!.product_id !== b.product_id)
      await tx.assetRateBracket.updateMany({ where: { rate_bracket_id: b.id }, data: { product_id: b.product_id } });
  }
  if (removedProducts.length) await tx.product.deleteMany({ where: { id: { in: removedProducts } } });
}

/**
 * Makes the organisation's asset mappings equal `card`. A mapping whose asset, product or bracket no longer exists
 * (or is not this organisation's) cannot be restored and is left out: restore the rate card first. Answers how many
 * were left out.
 */
export async function replaceAssetMappings(tx: Db, organisationId: number, card: AssetMappingCard): Promise<number> {
  const current = await readAssetMappings(tx, organisationId);
  const wanted = card.asset_rate_brackets.filter((m) => m.organisation_id === organisationId);
  const [assets, products, brackets, foreign] = await Promise.all([
    tx.asset.findMany({ where: { id: { in: wanted.map((m) => m.asset_id) } }, select: { id: true } }),
    tx.product.findMany({ where: { organisation_id: organisationId }, select: { id: true } }),
    tx.rateBracket.findMany({ where: { organisation_id: organisationId }, select: { id: true, product_id: true } }),
    foreignIds(
      tx,
      'asset_rate_brackets',
      wanted.map((m) => m.id),
      organisationId,
    ),
  ]);
  const assetIds = new Set(assets.map((a) => a.id));
  const productIds = new Set(products.map((p) => p.id));
  const bracketProduct = new Map(brackets.map((b) => [b.id, b.product_id]));
  const restorable = wanted.filter(
    (m) =>
      !foreign.has(m.id) &&
      assetIds.has(m.asset_id) &&
      m.product_id !== null &&
      productIds.has(m.product_id) &&
      (m.rate_bracket_id === null || bracketProduct.get(m.rate_bracket_id) === m.product_id),
  );
  const keep = new Map(restorable.map((m) => [m.id, m]));
  const now = new Map(current.asset_rate_brackets.map((m) => [m.id, m]));
  const removed = current.asset_rate_brackets.filter((m) => !keep.has(m.id)).map((m) => m.id);
  if (removed.length) await tx.assetRateBracket.deleteMany({ where: { id: { in: removed } } });
  const added = restorable.filter((m) => !now.has(m.id));
  if (added.length) {
    await tx.assetRateBracket.createMany({ data: added.map((m) => pick(m as never, MAPPING_FIELDS) as never) });
    await sequencePast(tx, 'asset_rate_brackets');
  }
  for (const m of restorable) {
    const was = now.get(m.id);
    if (was && !same(pick(was as never, MAPPING_FIELDS), pick(m as never, MAPPING_FIELDS)))
      await tx.assetRateBracket.update({
        where: { id: m.id },
        data: withoutId(pick(m as never, MAPPING_FIELDS)) as never,
      });
  }
  return card.asset_rate_brackets.length - restorable.length;
}
