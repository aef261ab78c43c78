/**
 * Restore is exact (property, fast-check): apply a random sequence of edits to a financier's card through the
 * service (products and brackets created, changed, deleted), restore the restore point recorded after edit k, and
 * the card (readRateCard) equals what it was right after edit k, ids included. The restore is itself a new restore
 * point, so restoring the latest one afterwards brings the card back too.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/modules/auth/caller.ts';
import { type RateCard, readRateCard } from '../../src/modules/rate-cards/index.ts';
import * as service from '../../src/modules/rate-cards/service.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
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
  | { kind: 'deleteBracket'; pick: number };

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
);

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

/** Applies one edit; answers false when it does not apply to the card as it is (nothing to update or delete). */
async function apply(caller: Caller, card: RateCard, edit: Edit): Promise<boolean> {
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
  }
}

describe('Restoring version k makes the card what it was at k', () => {
  it('for random edit sequences and any k', async () => {
    const kit = seedKit(t.database.prisma);
    const prisma = t.database.prisma;
    await fc.assert(
      fc.asyncProperty(fc.array(editArb, { minLength: 1, maxLength: 14 }), fc.nat(), async (edits, kPick) => {
        const financier = await kit.financier();
        const owner = await financier.user({ is_admin: true });
        const caller = callerFor(financier.id, owner.id);
        const history: { versionId: number; card: RateCard }[] = [];
        for (const edit of edits) {
          const card = await readRateCard(prisma, financier.id);
          if (!(await apply(caller, card, edit))) continue;
          const latest = await prisma.rateCardVersion.findFirstOrThrow({
            where: { organisation_id: financier.id, resource: 'rate_card' },
            orderBy: { id: 'desc' },
          });
          history.push({ versionId: latest.id, card: await readRateCard(prisma, financier.id) });
        }
        if (history.length === 0) return;
        const k = history[kPick % history.length];
        await service.restoreRateCardVersion({ prisma }, caller, k.versionId, null);
        expect(await readRateCard(prisma, financier.id)).toEqual(k.card);
        // And forward again, to the card after the last edit.
        const last = history.at(-1)!;
        await service.restoreRateCardVersion({ prisma }, caller, last.versionId, null);
        expect(await readRateCard(prisma, financier.id)).toEqual(last.card);
      }),
      { numRuns: 25, seed: 20261123 },
    );
  }, 300_000);
});
