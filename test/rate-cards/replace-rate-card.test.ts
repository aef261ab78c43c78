/**
 * replaceRateCard (restore and import apply) makes the database equal a card and nothing else: it refuses a card that
 * names another organisation, lists an id twice or takes over ids another organisation owns (a ValidationError naming
 * the item, nothing written), and ids it writes explicitly never collide with later ordinary inserts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/lib/errors.ts';
import { type RateCard, readRateCard, replaceRateCard } from '../../src/modules/rate-cards/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function refusal(card: RateCard): Promise<string[]> {
  const before = await readRateCard(t.database.prisma, 1);
  try {
    await t.database.prisma.$transaction((tx) => replaceRateCard(tx, 1, card));
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect(await readRateCard(t.database.prisma, 1)).toEqual(before);
    return (error as ValidationError).fieldErrors.map((e) => e.field);
  }
  throw new Error('replaceRateCard accepted the card');
}

describe('replaceRateCard refuses a card it must not write, naming the item', () => {
  it('another organisation’s product id, an id listed twice, a bracket of a product not in the card, another organisation named', async () => {
    const card = await readRateCard(t.database.prisma, 1);
    const theirs = await t.database.prisma.product.findFirstOrThrow({ where: { organisation_id: 2 } });
    const p = card.products[0];
    expect(await refusal({ ...card, products: [...card.products, { ...p, id: theirs.id }] })).toEqual([
      `products[${card.products.length}].id`,
    ]);
    expect(await refusal({ ...card, products: [...card.products, { ...p }] })).toEqual([
      `products[${card.products.length}].id`,
    ]);
    expect(
      await refusal({ ...card, rate_brackets: [{ ...card.rate_brackets[0], product_id: 999_999, id: 999_998 }] }),
    ).toEqual(['rate_brackets[0].product_id']);
    expect(await refusal({ products: [{ ...p, organisation_id: 2 }], rate_brackets: [] })).toEqual([
      'products[0].organisation_id',
    ]);
  });
});

describe('Ids written explicitly move the id sequence past them', () => {
  it('a product written with id 900000 is followed by ordinary inserts above it', async () => {
    const card = await readRateCard(t.database.prisma, 1);
    await t.database.prisma.$transaction((tx) =>
      replaceRateCard(tx, 1, {
        ...card,
        products: [...card.products, { ...card.products[0], id: 900_000, product_name: 'Imported' }],
      }),
    );
    const next = await t.database.prisma.product.create({ data: { product_name: 'After', organisation_id: 1 } });
    expect(next.id).toBeGreaterThan(900_000);
    expect((await readRateCard(t.database.prisma, 1)).products.map((p) => p.id)).toContain(900_000);
  });
});
