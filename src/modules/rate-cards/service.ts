/**
 * Rate-card maintenance use cases: products, rate brackets and asset mappings (each a change through changeRateCard,
 * so a restore point is recorded in the same transaction), and the version history (list, diff, restore, pin,
 * label, follow). No GraphQL.
 */
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.ts';
import type { VersionResource } from '../../lib/vocabulary.ts';
import { say, type ClientKind } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import type { PermissionCodename } from '../../lib/permissions.ts';
import { bookOf, hasPermission } from '../../lib/policy.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import type { AssetMappingCard, RateCard } from './card.ts';
import { approvalLinksOf } from './approval-links.ts';
import { productAsStored } from '../catalogue/index.ts';
import { compareRateCards, type CardComparison } from './compare.ts';
import { lockRateBracketsForDelete, readRateCard, replaceAssetMappings, replaceRateCard } from './store.ts';
import {
  type RateCardChangeOutcome,
  type RateCardVersionRecord,
  changeRateCard,
  rateCardOrganisationOf,
  rateCardWriterOf,
} from './versions.ts';
import {
  type ProductFields,
  type RateBracketFields,
  defined,
  validateLabel,
  validateProduct,
  validateRateBracket,
} from './validate.ts';

// `client` words refusals (X-Service-Client); a caller outside any request (a script, a test) may leave it out: web.
type Ctx = Pick<ServiceContext, 'prisma'> & Partial<Pick<ServiceContext, 'client'>>;
const clientOf = (ctx: Ctx): ClientKind => ctx.client ?? 'web';
type Expected = number | null | undefined;

export interface ChangedCard {
  product?: Prisma.ProductGetPayload<object> | null;
  rate_bracket?: Prisma.RateBracketGetPayload<object> | null;
  asset_mapping?: Prisma.AssetRateBracketGetPayload<object> | null;
  deleted_id?: number | null;
}
export type CardChangeResult = RateCardChangeOutcome<ChangedCard>;

function requirePermission(caller: Caller, codename: PermissionCodename, client: ClientKind): void {
  if (!hasPermission(caller, codename)) throw new ForbiddenError(say('forbidden', client));
}

const quoted = (name: string) => `"${name.length > 60 ? `${name.slice(0, 57)}...` : name}"`;

/**
 * One change to the caller's card through changeRateCard: `apply` answers what changed and the sentence its restore
 * point records (known only once the change is made, e.g. the new record's id).
 */
function cardChange(
  ctx: Ctx,
  caller: Caller,
  resource: VersionResource,
  expectedVersion: Expected,
  apply: (tx: Db) => Promise<{ changed: ChangedCard; reason: string }>,
) {
  let reason = '';
  return changeRateCard(ctx, caller, { resource, reason: () => reason, expectedVersion }, async (tx) => {
    const outcome = await apply(tx);
    reason = outcome.reason;
    return outcome.changed;
  });
}

// ---------- reads ----------

/**
 * Whose card the caller may read: brokers (and users of no financier) every financier's, as they price against
 * them; a financier only its own. Absent = the caller's own organisation. Anything else answers NotFound, like a
 * missing organisation.
 */
export async function readableCardOrganisation(
  ctx: Ctx,
  caller: Caller,
  organisationId?: number | null,
): Promise<number> {
  const id = organisationId ?? caller.organisation?.id;
  const book = bookOf(caller);
  if (id === undefined || (book !== null && !book.has(id)))
    throw new NotFoundError(say('not_found_organisation', clientOf(ctx)));
  if (id !== caller.organisation?.id || caller.organisation.type !== 'f') {
    const organisation = await ctx.prisma.organisation.findUnique({ where: { id }, select: { type: true } });
    if (organisation?.type !== 'f') throw new NotFoundError(say('not_found_organisation', clientOf(ctx)));
  }
  return id;
}

/** Version history is the caller's own organisation's, with view_rate_card_version; another organisation's is NotFound. */
export function versionHistoryOrganisation(client: ClientKind, caller: Caller, organisationId?: number | null): number {
  requirePermission(caller, 'view_rate_card_version', client);
  const own = caller.organisation?.id;
  if (own === undefined || (organisationId !== undefined && organisationId !== null && organisationId !== own))
    throw new NotFoundError(say('not_found_organisation', client));
  return own;
}

/** One of the caller's organisation's restore points, of `resource` when given; anything else is NotFound (identical). */
async function ownVersion(
  ctx: Ctx,
  caller: Caller,
  id: number,
  resource?: VersionResource,
): Promise<RateCardVersionRecord> {
  const organisationId = caller.organisation?.id;
  const version =
    organisationId === undefined
      ? null
      : await ctx.prisma.rateCardVersion.findFirst({
          where: { id, organisation_id: organisationId, ...(resource ? { resource } : {}) },
        });
  if (!version) throw new NotFoundError(say('not_found_rate_card_version', clientOf(ctx)));
  return version;
}

export interface VersionDiff extends CardComparison {
  version: RateCardVersionRecord;
}

/**
 * What restoring a rate-card version would change, compared with the card today (before: today, after: the
 * version). Rate-card versions only: an asset-mapping version, another organisation's or a missing one answer the
 * same NotFound.
 */
export async function rateCardVersionDiff(ctx: Ctx, caller: Caller, id: number): Promise<VersionDiff> {
  requirePermission(caller, 'view_rate_card_version', clientOf(ctx));
  const version = await ownVersion(ctx, caller, id, 'rate_card');
  const [today, approvalLinks] = await Promise.all([
    readRateCard(ctx.prisma, version.organisation_id!),
    approvalLinksOf(ctx.prisma, version.organisation_id!),
  ]);
  return { version, ...compareRateCards(today, version.payload as unknown as RateCard, { approvalLinks }) };
}

// ---------- products ----------

export function createProduct(ctx: Ctx, caller: Caller, input: ProductFields, expectedVersion: Expected) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  validateProduct(input);
  return cardChange(ctx, caller, 'rate_card', expectedVersion, async (tx) => {
    const product = await tx.product.create({
      data: {
        ...(productAsStored(defined(input)) as Prisma.ProductUncheckedCreateInput),
        organisation_id: organisationId,
      },
    });
    return { changed: { product }, reason: `Created product ${quoted(product.product_name)} (id ${product.id})` };
  });
}

async function ownProduct(tx: Db, client: ClientKind, organisationId: number, id: number) {
  const product = await tx.product.findUnique({ where: { id } });
  if (!product || product.organisation_id !== organisationId) throw new NotFoundError(say('not_found_product', client));
  return product;
}

export function updateProduct(ctx: Ctx, caller: Caller, id: number, input: ProductFields, expectedVersion: Expected) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  validateProduct(input, {}); // shape first (400 before anything is locked); bounds again against the stored record
  return cardChange(ctx, caller, 'rate_card', expectedVersion, async (tx) => {
    const stored = await ownProduct(tx, clientOf(ctx), organisationId, id);
    validateProduct(input, stored as unknown as Record<string, unknown>);
    const product = await tx.product.update({
      where: { id },
      data: productAsStored(defined(input)) as Prisma.ProductUpdateInput,
    });
    const fields = Object.keys(defined(input));
    return {
      changed: { product },
      reason: `Updated product ${quoted(product.product_name)} (id ${id}): ${fields.join(', ') || 'no fields'}`,
    };
  });
}

export function deleteProduct(ctx: Ctx, caller: Caller, id: number, expectedVersion: Expected) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  return cardChange(ctx, caller, 'rate_card', expectedVersion, async (tx) => {
    const product = await ownProduct(tx, clientOf(ctx), organisationId, id);
    // Its brackets and every asset mapping to it or them go with it (approvals lose their links to the brackets).
    const brackets = (await tx.rateBracket.findMany({ where: { product_id: id }, select: { id: true } })).map(
      (b) => b.id,
    );
    await lockRateBracketsForDelete(tx, brackets);
    await tx.assetRateBracket.deleteMany({
      where: { OR: [{ product_id: id }, { rate_bracket_id: { in: brackets } }] },
    });
    await tx.rateBracket.deleteMany({ where: { product_id: id } });
    await tx.product.delete({ where: { id } });
    return {
      changed: { deleted_id: id },
      reason: `Deleted product ${quoted(product.product_name)} (id ${id}) and its ${brackets.length} rate bracket(s)`,
    };
  });
}

// ---------- rate brackets ----------

async function requireOwnProduct(tx: Db, organisationId: number, productId: number): Promise<void> {
  const product = await tx.product.findUnique({ where: { id: productId }, select: { organisation_id: true } });
  if (!product || product.organisation_id !== organisationId)
    throw ValidationError.of('product_id', 'Not a product of your organisation.');
}

export function createRateBracket(ctx: Ctx, caller: Caller, input: RateBracketFields, expectedVersion: Expected) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  validateRateBracket(input);
  return cardChange(ctx, caller, 'rate_card', expectedVersion, async (tx) => {
    await requireOwnProduct(tx, organisationId, input.product_id!);
    const rate_bracket = await tx.rateBracket.create({
      data: { ...(defined(input) as Prisma.RateBracketUncheckedCreateInput), organisation_id: organisationId },
    });
    return {
      changed: { rate_bracket },
      reason: `Created rate bracket ${quoted(rate_bracket.name)} (id ${rate_bracket.id}) of product ${rate_bracket.product_id}`,
    };
  });
}

async function ownBracket(tx: Db, client: ClientKind, organisationId: number, id: number) {
  const bracket = await tx.rateBracket.findUnique({ where: { id } });
  if (!bracket || bracket.organisation_id !== organisationId)
    throw new NotFoundError(say('not_found_rate_bracket', client));
  return bracket;
}

export function updateRateBracket(
  ctx: Ctx,
  caller: Caller,
  id: number,
  input: RateBracketFields,
  expectedVersion: Expected,
) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  validateRateBracket(input, {});
  return cardChange(ctx, caller, 'rate_card', expectedVersion, async (tx) => {
    const stored = await ownBracket(tx, clientOf(ctx), organisationId, id);
    validateRateBracket(input, stored as unknown as Record<string, unknown>);
    const moved = input.product_id !== undefined && input.product_id !== null && input.product_id !== stored.product_id;
    if (moved) await requireOwnProduct(tx, organisationId, input.product_id!);
    const rate_bracket = await tx.rateBracket.update({
      where: { id },
      data: defined(input) as Prisma.RateBracketUncheckedUpdateInput,
    });
    // A mapping names the bracket and its product: keep them agreeing.
    if (moved)
      await tx.assetRateBracket.updateMany({
        where: { rate_bracket_id: id },
        data: { product_id: input.product_id! },
      });
    return {
      changed: { rate_bracket },
      reason: `Updated rate bracket ${quoted(rate_bracket.name)} (id ${id}): ${Object.keys(defined(input)).join(', ') || 'no fields'}`,
    };
  });
}

export function deleteRateBracket(ctx: Ctx, caller: Caller, id: number, expectedVersion: Expected) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  return cardChange(ctx, caller, 'rate_card', expectedVersion, async (tx) => {
    const bracket = await ownBracket(tx, clientOf(ctx), organisationId, id);
    await tx.assetRateBracket.deleteMany({ where: { rate_bracket_id: id } });
    await tx.rateBracket.delete({ where: { id } });
    return { changed: { deleted_id: id }, reason: `Deleted rate bracket ${quoted(bracket.name)} (id ${id})` };
  });
}

// ---------- asset mappings ----------

export interface AssetMappingFields {
  asset_id: number;
  product_id: number;
  rate_bracket_id?: number | null;
}

export function createAssetMapping(ctx: Ctx, caller: Caller, input: AssetMappingFields, expectedVersion: Expected) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  return cardChange(ctx, caller, 'asset_mapping', expectedVersion, async (tx) => {
    const rate_bracket_id = input.rate_bracket_id ?? null;
    const [asset, product, bracket, twin] = await Promise.all([
      tx.asset.findUnique({ where: { id: input.asset_id }, select: { is_deleted: true } }),
      tx.product.findUnique({ where: { id: input.product_id }, select: { organisation_id: true } }),
      rate_bracket_id === null
        ? null
        : tx.rateBracket.findUnique({ where: { id: rate_bracket_id }, select: { product_id: true } }),
      tx.assetRateBracket.findFirst({
        where: {
          organisation_id: organisationId,
          asset_id: input.asset_id,
          product_id: input.product_id,
          rate_bracket_id,
        },
        select: { id: true },
      }),
    ]);
    const errors: { field: string; messages: string[] }[] = [];
    if (!asset || asset.is_deleted) errors.push({ field: 'asset_id', messages: ['Unknown asset.'] });
    if (!product || product.organisation_id !== organisationId)
      errors.push({ field: 'product_id', messages: ['Not a product of your organisation.'] });
    else if (rate_bracket_id !== null && bracket?.product_id !== input.product_id)
      errors.push({ field: 'rate_bracket_id', messages: ['Not a rate bracket of that product.'] });
    if (errors.length === 0 && twin)
      errors.push({ field: 'asset_id', messages: [`Already mapped (asset mapping ${twin.id}).`] });
    if (errors.length) throw new ValidationError(errors);
    const asset_mapping = await tx.assetRateBracket.create({
      data: {
        organisation_id: organisationId,
        asset_id: input.asset_id,
        product_id: input.product_id,
        rate_bracket_id,
      },
    });
    return {
      changed: { asset_mapping },
      reason: `Mapped asset ${input.asset_id} to product ${input.product_id}${rate_bracket_id === null ? '' : `, rate bracket ${rate_bracket_id}`} (mapping ${asset_mapping.id})`,
    };
  });
}

export function deleteAssetMapping(ctx: Ctx, caller: Caller, id: number, expectedVersion: Expected) {
  const organisationId = rateCardWriterOf(caller, clientOf(ctx));
  return changeRateCard(
    ctx,
    caller,
    { resource: 'asset_mapping', reason: `Removed asset mapping ${id}`, expectedVersion },
    async (tx): Promise<ChangedCard> => {
      const mapping = await tx.assetRateBracket.findUnique({ where: { id }, select: { organisation_id: true } });
      if (!mapping || mapping.organisation_id !== organisationId)
        throw new NotFoundError(say('not_found_asset_mapping', clientOf(ctx)));
      await tx.assetRateBracket.delete({ where: { id } });
      return { deleted_id: id };
    },
  );
}

// ---------- versions ----------

/**
 * Restores a version of either series: in one change the card becomes the version's snapshot (replaceRateCard /
 * replaceAssetMappings), recorded as a new restore point whose reason names the restored one.
 */
export async function restoreRateCardVersion(ctx: Ctx, caller: Caller, id: number, expectedVersion: Expected) {
  rateCardOrganisationOf(caller, clientOf(ctx));
  requirePermission(caller, 'restore_rate_card_version', clientOf(ctx));
  const version = await ownVersion(ctx, caller, id);
  const organisationId = version.organisation_id!;
  const label = version.label ? ` "${version.label}"` : '';
  let skipped = 0;
  const outcome = await changeRateCard(
    ctx,
    caller,
    {
      resource: version.resource,
      reason: `Restored version ${version.id}${label} of ${version.created_at.toISOString()}`,
      expectedVersion,
    },
    async (tx) => {
      if (version.resource === 'rate_card')
        await replaceRateCard(tx, organisationId, version.payload as unknown as RateCard);
      else skipped = await replaceAssetMappings(tx, organisationId, version.payload as unknown as AssetMappingCard);
      return {} as ChangedCard;
    },
  );
  return { ...outcome, skipped };
}

export async function pinRateCardVersion(ctx: Ctx, caller: Caller, id: number, pinned: boolean) {
  requirePermission(caller, 'restore_rate_card_version', clientOf(ctx));
  await ownVersion(ctx, caller, id);
  return ctx.prisma.rateCardVersion.update({ where: { id }, data: { pinned } });
}

export async function labelRateCardVersion(ctx: Ctx, caller: Caller, id: number, label: string) {
  requirePermission(caller, 'restore_rate_card_version', clientOf(ctx));
  const clean = validateLabel(label);
  await ownVersion(ctx, caller, id);
  return ctx.prisma.rateCardVersion.update({ where: { id }, data: { label: clean } });
}

// ---------- following ----------

/** Follow a financier's card whose changes the caller may see (their book); idempotent. Answers true. */
export async function followRateCard(ctx: Ctx, caller: Caller, organisationId: number): Promise<boolean> {
  const id = await readableCardOrganisation(ctx, caller, organisationId);
  await ctx.prisma.rateCardFollow.upsert({
    where: { user_id_organisation_id: { user_id: caller.userId, organisation_id: id } },
    create: { user_id: caller.userId, organisation_id: id },
    update: {},
  });
  return true;
}

/** Idempotent: answers true whether or not the caller followed it. */
export async function unfollowRateCard(ctx: Ctx, caller: Caller, organisationId: number): Promise<boolean> {
  await ctx.prisma.rateCardFollow.deleteMany({ where: { user_id: caller.userId, organisation_id: organisationId } });
  return true;
}
