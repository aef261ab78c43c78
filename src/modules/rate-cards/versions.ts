/**
 * Every change to a financier's rate card or asset mappings goes through changeRateCard, from any surface (GraphQL,
 * REST, the assistant, import), so each one is serialised per organisation, checked against the caller's expected
 * version, and recorded as a restore point in the same transaction as the change itself (docs/rate-card-versions.md).
 */
import type { Prisma, RateCardVersion } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { ChangeOrigin, VersionResource } from '../../lib/vocabulary.ts';
import { say, type ClientKind } from '../../lib/wording.ts';
import type { Caller } from '../../lib/caller.ts';
import { hasPermission } from '../../lib/policy.ts';
import { queueNotification } from '../notifications/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import type { AssetMappingCard, RateCard } from './card.ts';
import { RateCardVersionConflictError } from './errors.ts';
import { readAssetMappings, readRateCard } from './store.ts';

export type RateCardVersionRecord = RateCardVersion;

/** Unpinned restore points kept per organisation and series; older ones are pruned as new ones are recorded. */
export const RATE_CARD_VERSION_RETENTION = 50;

/**
 * The reason of a series' baseline: the restore point recorded, before its first recorded change, of the series as it
 * was (the card loaded from the catalogue file, or before a first import), so even that card can be restored.
 */
export const BASELINE_REASON = 'Starting point (before the first recorded change)';

/** The parts each series' snapshot holds. */
const SERIES_PARTS: Record<VersionResource, string[]> = {
  rate_card: ['products', 'rate_brackets'],
  asset_mapping: ['asset_rate_brackets'],
};

export interface RateCardChange {
  resource: VersionResource;
  /** Why, in a sentence the history shows ('Created product "Gold" (id 14)'); a function is asked after `apply`. */
  reason: string | (() => string);
  /** The card version the caller read; null or absent = no check (last writer wins). */
  expectedVersion?: number | null;
  /** Parts the change carried (import: the file's parts); default the series' parts. */
  partsPresent?: string[];
}

export interface RateCardChangeOutcome<T> {
  result: T;
  /** The restore point recorded for `change.resource`. */
  version: RateCardVersionRecord;
  /** The organisation's card version after the change (what the next write sends as its expected version). */
  cardVersion: number;
  /** Also recorded when a rate-card change removed or moved asset mappings (deleting a mapped product, say). */
  assetMappingVersion: RateCardVersionRecord | null;
}

/** A financier's card is changed by its own people only: a financier organisation and, beyond admins, the permission. */
export function rateCardOrganisationOf(caller: Caller, client: ClientKind): number {
  if (caller.organisation?.type !== 'f') throw new ForbiddenError(say('forbidden_financier_only', client));
  return caller.organisation.id;
}

/** The organisation whose card the caller may write: a financier's own people, holding change_rate_card. */
export function rateCardWriterOf(caller: Caller, client: ClientKind): number {
  const organisationId = rateCardOrganisationOf(caller, client);
  if (!hasPermission(caller, 'change_rate_card')) throw new ForbiddenError(say('forbidden', client));
  return organisationId;
}

function originOf(caller: Caller): ChangeOrigin {
  if (caller.via === 'session') return 'app';
  return caller.origin === 'mcp' ? 'assistant' : 'api_token';
}

/**
 * Locks the organisation's card (one row per organisation, created on first use) and answers its version. The
 * upsert takes the row lock in the same statement, so concurrent writers queue here, across processes.
 */
async function lockCard(tx: Db, organisationId: number): Promise<number> {
  const [row] = await tx.$queryRawUnsafe<{ version: number }[]>(
    `INSERT INTO rate_card_states (organisation_id, version) VALUES ($1, 0)
     ON CONFLICT (organisation_id) DO UPDATE SET version = rate_card_states.version
     RETURNING version`,
    organisationId,
  );
  return row.version;
}

/** The organisation's current card version (0 before its first recorded change). */
export async function cardVersionOf(db: Db, organisationId: number): Promise<number> {
  const row = await db.rateCardState.findUnique({ where: { organisation_id: organisationId } });
  return row?.version ?? 0;
}

function snapshotOf(db: Db, organisationId: number, resource: VersionResource): Promise<RateCard | AssetMappingCard> {
  return resource === 'rate_card' ? readRateCard(db, organisationId) : readAssetMappings(db, organisationId);
}

/**
 * Runs `apply` as one change of the caller's organisation's rate card, in ONE transaction: lock the card, check the
 * expected version (RateCardVersionConflictError, nothing written), record the series' baseline if it has no restore
 * point yet (the series BEFORE the change, pinned), apply, record the restore point (the series as it is AFTER the
 * change), bump the version (once: a baseline is no change), queue the `rate_card` notification for the card's
 * followers (not the actor), prune beyond retention. Anything `apply` throws rolls all of it back.
 */
export async function changeRateCard<T>(
  // `client` words a refusal (X-Service-Client); a caller outside any request (a script, a test) may leave it out.
  ctx: Pick<ServiceContext, 'prisma'> & Partial<Pick<ServiceContext, 'client'>>,
  caller: Caller,
  change: RateCardChange,
  apply: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<RateCardChangeOutcome<T>> {
  const organisationId = rateCardOrganisationOf(caller, ctx.client ?? 'web');
  const origin = originOf(caller);
  return ctx.prisma.$transaction(
    async (tx) => {
      const current = await lockCard(tx, organisationId);
      if (change.expectedVersion !== undefined && change.expectedVersion !== null && change.expectedVersion !== current)
        throw new RateCardVersionConflictError(current);
      const connection =
        origin === 'assistant' && caller.apiTokenId !== null
          ? await tx.mcpConnection.findUnique({ where: { token_id: caller.apiTokenId }, select: { id: true } })
          : null;
      const mappingsBefore = change.resource === 'rate_card' ? await readAssetMappings(tx, organisationId) : null;

      const record = (
        resource: VersionResource,
        payload: RateCard | AssetMappingCard,
        reason: string,
        parts: string[],
        pinned = false,
      ) =>
        tx.rateCardVersion.create({
          data: {
            organisation_id: organisationId,
            resource,
            reason,
            pinned,
            parts_present: parts,
            actor_email: caller.email,
            origin,
            connection_id: connection?.id ?? null,
            payload: payload as unknown as Prisma.InputJsonValue,
          },
        });
      // Each version holds the series after its change, so without a baseline the series as it was before its first
      // recorded change could never be restored. Pinned: retention never prunes the only copy of the original card.
      // The series is read only when it has no restore point yet (once per organisation and series, ever).
      const recordBaseline = async (resource: VersionResource, before: () => Promise<RateCard | AssetMappingCard>) => {
        const any = await tx.rateCardVersion.findFirst({
          where: { organisation_id: organisationId, resource },
          select: { id: true },
        });
        if (!any) await record(resource, await before(), BASELINE_REASON, SERIES_PARTS[resource], true);
      };
      await recordBaseline(change.resource, () => snapshotOf(tx, organisationId, change.resource));

      const result = await apply(tx);

      const reason = typeof change.reason === 'function' ? change.reason() : change.reason;
      const version = await record(
        change.resource,
        await snapshotOf(tx, organisationId, change.resource),
        reason,
        change.partsPresent ?? SERIES_PARTS[change.resource],
      );
      let assetMappingVersion: RateCardVersionRecord | null = null;
      if (mappingsBefore) {
        const mappingsAfter = await readAssetMappings(tx, organisationId);
        if (JSON.stringify(mappingsAfter) !== JSON.stringify(mappingsBefore)) {
          await recordBaseline('asset_mapping', async () => mappingsBefore);
          assetMappingVersion = await record(
            'asset_mapping',
            mappingsAfter,
            `${reason} (its asset mappings)`,
            SERIES_PARTS.asset_mapping,
          );
        }
      }
      const cardVersion = current + 1;
      await tx.rateCardState.update({ where: { organisation_id: organisationId }, data: { version: cardVersion } });
      for (const resource of assetMappingVersion ? (['rate_card', 'asset_mapping'] as const) : [change.resource])
        await pruneVersions(tx, organisationId, resource);
      await notifyFollowers(tx, caller, organisationId, version);
      return { result, version, cardVersion, assetMappingVersion };
    },
    // Writers of one organisation queue on its lock: wait for the connection and the lock longer than Prisma's 5 s.
    { maxWait: 10_000, timeout: 30_000 },
  );
}

/** Keeps the newest RATE_CARD_VERSION_RETENTION unpinned restore points of a series; pinned ones are never pruned. */
async function pruneVersions(tx: Db, organisationId: number, resource: VersionResource): Promise<number> {
  return tx.$executeRawUnsafe(
    `DELETE FROM rate_card_versions
      WHERE organisation_id = $1 AND resource = $2::"VersionResource" AND NOT pinned
        AND id NOT IN (SELECT id FROM rate_card_versions
                        WHERE organisation_id = $1 AND resource = $2::"VersionResource" AND NOT pinned
                        ORDER BY id DESC LIMIT $3)`,
    organisationId,
    resource,
    RATE_CARD_VERSION_RETENTION,
  );
}

/** The `rate_card` notification: queued for the users who follow the organisation's card, never for the actor. */
async function notifyFollowers(
  tx: Db,
  caller: Caller,
  organisationId: number,
  version: RateCardVersionRecord,
): Promise<void> {
  const followers = await tx.rateCardFollow.findMany({
    where: { organisation_id: organisationId, user_id: { not: caller.userId } },
    select: { user_id: true },
  });
  if (followers.length === 0) return;
  const organisation = await tx.organisation.findUniqueOrThrow({
    where: { id: organisationId },
    select: { name: true },
  });
  await queueNotification(tx, {
    category: 'rate_card',
    userIds: followers.map((f) => f.user_id),
    title: `${organisation.name} updated its rate card`,
    body: version.reason,
    data: { organisation_id: organisationId, rate_card_version_id: version.id, resource: version.resource },
  });
}
