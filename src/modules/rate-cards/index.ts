/**
 * STAND-IN, NOT FOR MERGE. The rate-cards module's public entry is written on the rate-cards branch; this file only
 * gives the import branch the agreed signatures (readRateCard, replaceRateCard, changeRateCard and the version
 * conflict) so its tests run before the merge. At merge the lead takes the rate-cards branch's index.ts instead and
 * deletes src/modules/rate-cards/import/standin.types.ts (the conflict error's GraphQL type, registered there for real).
 */
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { errorOf, ForbiddenError } from '../../lib/errors.ts';
import type { Caller } from '../auth/caller.ts';
import type { Product, RateBracket } from '../catalogue/model.ts';
import type { ServiceContext } from '../service-context.ts';
import type { RateCard } from './card.ts';

export type { AssetMappingCard, RateCard } from './card.ts';

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
] as const;
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
] as const;
const pick = (row: object, fields: readonly string[]) =>
  Object.fromEntries(fields.map((f) => [f, (row as Record<string, unknown>)[f] ?? null]));

export class RateCardVersionConflictError extends errorOf(
  'version_conflict',
  'The rate card changed since you read it. Reload it and apply your change again.',
) {
  constructor(
    readonly currentVersion: number,
    message?: string,
  ) {
    super(message);
  }
}

export async function readRateCard(db: Db, organisationId: number): Promise<RateCard> {
  const [products, brackets] = await Promise.all([
    db.product.findMany({ where: { organisation_id: organisationId }, orderBy: { id: 'asc' } }),
    db.rateBracket.findMany({ where: { organisation_id: organisationId }, orderBy: { id: 'asc' } }),
  ]);
  return {
    products: products.map((p) => pick(p, PRODUCT_FIELDS) as unknown as Product),
    rate_brackets: brackets.map((b) => pick(b, RATE_BRACKET_FIELDS) as unknown as RateBracket),
  };
}

export async function replaceRateCard(tx: Db, organisationId: number, card: RateCard): Promise<void> {
  const current = await readRateCard(tx, organisationId);
  const keepProducts = new Set(card.products.map((p) => p.id));
  const keepBrackets = new Set(card.rate_brackets.map((b) => b.id));
  const goneProducts = current.products.filter((p) => !keepProducts.has(p.id)).map((p) => p.id);
  const goneBrackets = current.rate_brackets.filter((b) => !keepBrackets.has(b.id)).map((b) => b.id);
  await tx.assetRateBracket.deleteMany({
    where: { OR: [{ product_id: { in: goneProducts } }, { rate_bracket_id: { in: goneBrackets } }] },
  });
  await tx.rateBracket.deleteMany({ where: { id: { in: goneBrackets } } });
  const nowProducts = new Set(current.products.map((p) => p.id));
  const nowBrackets = new Set(current.rate_brackets.map((b) => b.id));
  for (const p of card.products) {
    const data = pick(p, PRODUCT_FIELDS) as never;
    if (nowProducts.has(p.id)) await tx.product.update({ where: { id: p.id }, data });
    else await tx.product.create({ data });
  }
  for (const b of card.rate_brackets) {
    const data = pick(b, RATE_BRACKET_FIELDS) as never;
    if (nowBrackets.has(b.id)) await tx.rateBracket.update({ where: { id: b.id }, data });
    else await tx.rateBracket.create({ data });
  }
  await tx.product.deleteMany({ where: { id: { in: goneProducts } } });
}

export async function cardVersionOf(db: Db, organisationId: number): Promise<number> {
  return db.rateCardVersion.count({ where: { organisation_id: organisationId, resource: 'rate_card' } });
}

export interface RateCardChange {
  resource: 'rate_card' | 'asset_mapping';
  reason: string | (() => string);
  expectedVersion?: number | null;
  partsPresent?: string[];
}

export async function changeRateCard<T>(
  ctx: Pick<ServiceContext, 'prisma'>,
  caller: Caller,
  change: RateCardChange,
  apply: (tx: Prisma.TransactionClient) => Promise<T>,
) {
  if (caller.organisation?.type !== 'f') throw new ForbiddenError('Only a financier maintains rate cards.');
  const organisationId = caller.organisation.id;
  return ctx.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('SELECT id FROM organisations WHERE id = $1 FOR UPDATE', organisationId);
    const current = await cardVersionOf(tx, organisationId);
    if (change.expectedVersion !== undefined && change.expectedVersion !== null && change.expectedVersion !== current)
      throw new RateCardVersionConflictError(current);
    const result = await apply(tx);
    const version = await tx.rateCardVersion.create({
      data: {
        organisation_id: organisationId,
        resource: change.resource,
        reason: typeof change.reason === 'function' ? change.reason() : change.reason,
        parts_present: change.partsPresent ?? ['products', 'rate_brackets'],
        actor_email: caller.email,
        payload: (await readRateCard(tx, organisationId)) as unknown as Prisma.InputJsonValue,
      },
    });
    return { result, version, cardVersion: current + 1, assetMappingVersion: null };
  });
}
