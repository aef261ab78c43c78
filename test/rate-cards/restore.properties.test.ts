/**
 * Restore is exact (property, fast-check): start from a card written straight into the database (as the catalogue
 * file loads one: no restore point), apply a random sequence of edits through the service (products, brackets and
 * asset mappings created, changed, deleted), restore the restore points each series had at k (k = 0 is the card
 * before any edit: the series' baselines), and the card and its mappings equal what they were at k, ids included,
 * and the diff of version k against the card now says "No changes.". The restore is itself a new restore point, so
 * restoring the latest ones afterwards brings the card back too.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/lib/caller.ts';
import type { VersionResource } from '../../src/lib/vocabulary.ts';
import { NO_CHANGES, compareAssetMappings } from '../../src/modules/rate-cards/compare.ts';
import {
  type AssetMappingCard,
  BASELINE_REASON,
  type RateCard,
  readAssetMappings,
  readRateCard,
} from '../../src/modules/rate-cards/index.ts';
import * as service from '../../src/modules/rate-cards/service.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';
import { sized } from '../../testkit/sizes.ts';

let t: TestApp;
/** Assets a mapping may name (the demo catalogue's first few). */
let assetIds: number[];

beforeAll(async () => {
  t = await startTestApp();
  const assets = await t.database.prisma.asset.findMany({
    where: { is_deleted: false },
    orderBy: { id: 'asc' },
    select: { id: true },
    take: 6,
  });
  assetIds = assets.map((a) => a.id);
});
afterAll(async () => {
  await t?.close();
});

type Edit =
  | { kind: 'createProduct'; name: string; fee: number | null; freq: 'w' | 'm' | 'q' | 'y' | null }
  | { kind: 'updateProduct'; pick: number; fee: number | null; name: string }
  | { kind: 'deleteProduct'; pick: number }
  | { kind: 'createBracket'; pick: number; base: number; spread: number; maxTerm: number | null }
  | { kind: 'updateBracket'; pick: number; base: number; spread: number }
  | { kind: 'deleteBracket'; pick: number }
  | { kind: 'createMapping'; pick: number; asset: number; bracket: number | null }
  | { kind: 'deleteMapping'; pick: number };

const name = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');
const money = fc.option(
  fc.integer({ min: 0, max: 50_000 }).map((c) => c / 100),
  { nil: null },
);
const rate = fc.integer({ min: 0, max: 8_000 }).map((bp) => bp / 100);
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('createProduct' as const),
    name,
    fee: money,
    freq: fc.constantFrom('w', 'm', 'q', 'y', null),
  }),
  fc.record({ kind: fc.constant('updateProduct' as const), pick: fc.nat(), fee: money, name }),
  fc.record({ kind: fc.constant('deleteProduct' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('createBracket' as const),
    pick: fc.nat(),
    base: rate,
    spread: rate,
    maxTerm: fc.option(fc.integer({ min: 1, max: 120 }), { nil: null }),
  }),
  fc.record({ kind: fc.constant('updateBracket' as const), pick: fc.nat(), base: rate, spread: rate }),
  fc.record({ kind: fc.constant('deleteBracket' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('createMapping' as const),
    pick: fc.nat(),
    asset: fc.nat(),
    bracket: fc.option(fc.nat(), { nil: null }),
  }),
  fc.record({ kind: fc.constant('deleteMapping' as const), pick: fc.nat() }),
);
/** The card before any edit: products, each with one bracket, mapped to an asset or not. */
const startArb = fc.record({ products: fc.integer({ min: 0, max: 2 }), mapped: fc.boolean() });

interface State {
  card: RateCard;
  mappings: AssetMappingCard;
}

function callerFor(organisationId: number, userId: number): Caller {
  return {
    userId,
    email: `owner@${organisationId}.test`,
    isAdmin: true,
    organisation: {
      id: organisationId,
      name: 'Prop',
      type: 'f',
      plan: 'enterprise',
      is_bid_broker: false,
      terms: {} as never,
    },
    permissions: new Set(),
    via: 'session',
    scope: null,
    origin: null,
    sessionId: 'x',
    apiTokenId: null,
  };
}

/**
 * Applies one edit; answers false when it does not apply to the card as it is (nothing to update or delete, or a
 * mapping the card already has).
 */
async function apply(caller: Caller, { card, mappings }: State, edit: Edit): Promise<boolean> {
  const ctx = { prisma: t.database.prisma };
  const product = card.products.length ? card.products[('pick' in edit ? edit.pick : 0) % card.products.length] : null;
  const bracket = card.rate_brackets.length
    ? card.rate_brackets[('pick' in edit ? edit.pick : 0) % card.rate_brackets.length]
    : null;
  switch (edit.kind) {
    case 'createProduct':
      await service.createProduct(
        ctx,
        caller,
        { product_name: edit.name, monthly_fee: edit.fee, compounding_frequency: edit.freq },
        null,
      );
      return true;
    case 'updateProduct':
      if (!product) return false;
      await service.updateProduct(ctx, caller, product.id, { product_name: edit.name, monthly_fee: edit.fee }, null);
      return true;
    case 'deleteProduct':
      if (!product) return false;
      await service.deleteProduct(ctx, caller, product.id, null);
      return true;
    case 'createBracket':
      if (!product) return false;
      await service.createRateBracket(
        ctx,
        caller,
        {
          name: `B${edit.base}`,
          product_id: product.id,
          base_min: edit.base,
          base_max: Math.min(100, edit.base + edit.spread),
          max_term: edit.maxTerm,
        },
        null,
      );
      return true;
    case 'updateBracket':
      if (!bracket) return false;
      await service.updateRateBracket(
        ctx,
        caller,
        bracket.id,
        { base_min: edit.base, base_max: Math.min(100, edit.base + edit.spread) },
        null,
      );
      return true;
    case 'deleteBracket':
      if (!bracket) return false;
      await service.deleteRateBracket(ctx, caller, bracket.id, null);
      return true;
    case 'createMapping': {
      if (!product) return false;
      const own = card.rate_brackets.filter((b) => b.product_id === product.id);
      const rate_bracket_id = edit.bracket === null || own.length === 0 ? null : own[edit.bracket % own.length].id;
      const asset_id = assetIds[edit.asset % assetIds.length];
      const twin = mappings.asset_rate_brackets.some(
        (m) => m.asset_id === asset_id && m.product_id === product.id && m.rate_bracket_id === rate_bracket_id,
      );
      if (twin) return false;
      await service.createAssetMapping(ctx, caller, { asset_id, product_id: product.id, rate_bracket_id }, null);
      return true;
    }
    case 'deleteMapping': {
      const list = mappings.asset_rate_brackets;
      if (list.length === 0) return false;
      await service.deleteAssetMapping(ctx, caller, list[edit.pick % list.length].id, null);
      return true;
    }
  }
}

describe('Restoring version k makes the card and its asset mappings what they were at k, from the baseline on', () => {
  it('for random edit sequences of products, brackets and mappings, and any k', async () => {
    const kit = seedKit(t.database.prisma);
    const prisma = t.database.prisma;
    const ctx = { prisma };
    await fc.assert(
      fc.asyncProperty(
        startArb,
        fc.array(editArb, { minLength: 1, maxLength: 14 }),
        fc.nat(),
        async (start, edits, kPick) => {
          const financier = await kit.financier();
          // The card as the catalogue file loads one: written directly, so no restore point holds it.
          for (let i = 0; i < start.products; i++) {
            const product = await financier.product({ product_name: `Loaded ${i}` });
            const bracket = await product.bracket({ name: `Loaded bracket ${i}`, base_min: 5 + i });
            if (start.mapped) await bracket.mapTo(assetIds[i % assetIds.length]);
          }
          const owner = await financier.user({ is_admin: true });
          const caller = callerFor(financier.id, owner.id);
          const stateNow = async (): Promise<State> => ({
            card: await readRateCard(prisma, financier.id),
            mappings: await readAssetMappings(prisma, financier.id),
          });
          const versions = (resource: VersionResource, order: 'asc' | 'desc') =>
            prisma.rateCardVersion.findFirst({
              where: { organisation_id: financier.id, resource },
              orderBy: { id: order },
            });
          const latestId = async (resource: VersionResource) => (await versions(resource, 'desc'))?.id ?? null;

          // history[k]: the card and mappings after edit k, and each series' newest restore point then (none yet:
          // the series has not changed, and its baseline, recorded with its first change, holds it).
          type Point = State & { rate_card: number | null; asset_mapping: number | null };
          const history: Point[] = [{ ...(await stateNow()), rate_card: null, asset_mapping: null }];
          for (const edit of edits) {
            if (!(await apply(caller, history.at(-1)!, edit))) continue;
            history.push({
              ...(await stateNow()),
              rate_card: await latestId('rate_card'),
              asset_mapping: await latestId('asset_mapping'),
            });
          }
          if (history.length === 1) return;

          // Each series that changed starts with its baseline: pinned, the series as it was before any edit.
          const baseline = {
            rate_card: await versions('rate_card', 'asc'),
            asset_mapping: await versions('asset_mapping', 'asc'),
          };
          if (baseline.rate_card) {
            expect(baseline.rate_card).toMatchObject({ reason: BASELINE_REASON, pinned: true });
            expect(baseline.rate_card.payload).toEqual(history[0].card);
          }
          if (baseline.asset_mapping) {
            expect(baseline.asset_mapping).toMatchObject({ reason: BASELINE_REASON, pinned: true });
            expect(baseline.asset_mapping.payload).toEqual(history[0].mappings);
          }
          const restorePointsAt = (point: Point) => ({
            rate_card: point.rate_card ?? baseline.rate_card?.id ?? null,
            asset_mapping: point.asset_mapping ?? baseline.asset_mapping?.id ?? null,
          });
          /** The rate card first: a mapping is restored only where its product and bracket exist. */
          const restore = async (point: Point) => {
            const ids = restorePointsAt(point);
            if (ids.rate_card !== null) await service.restoreRateCardVersion(ctx, caller, ids.rate_card, null);
            if (ids.asset_mapping !== null) {
              const { skipped } = await service.restoreRateCardVersion(ctx, caller, ids.asset_mapping, null);
              expect(skipped).toBe(0);
            }
            return ids;
          };

          const k = history[kPick % history.length];
          const restored = await restore(k);
          expect(await stateNow()).toEqual({ card: k.card, mappings: k.mappings });
          // And version k compared with the card now: nothing to change.
          if (restored.rate_card !== null) {
            const diff = await service.rateCardVersionDiff(ctx, caller, restored.rate_card);
            expect(diff.summary_lines).toEqual([NO_CHANGES]);
          }
          if (restored.asset_mapping !== null) {
            const version = await prisma.rateCardVersion.findUniqueOrThrow({ where: { id: restored.asset_mapping } });
            const diff = compareAssetMappings(
              await readAssetMappings(prisma, financier.id),
              version.payload as unknown as AssetMappingCard,
            );
            expect(diff.summary_lines).toEqual([NO_CHANGES]);
          }

          // And forward again, to the card after the last edit.
          const last = history.at(-1)!;
          await restore(last);
          expect(await stateNow()).toEqual({ card: last.card, mappings: last.mappings });
        },
      ),
      { numRuns: sized(25, 5), seed: 20261123 },
    );
  }, 300_000);
});
