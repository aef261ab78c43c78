/**
 * Optimistic concurrency of a rate card: writers serialise on the organisation's card row (one statement takes the
 * lock), so of two writers holding the same expected version exactly one wins and the other gets 409 with the
 * current version; writers without an expected version all land, each with its own restore point, nothing lost.
 * On PGlite (one connection) the requests queue; on PostgreSQL (TEST_DATABASE_URL) they meet real races.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { raceRounds } from '../../testkit/sizes.ts';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const cardVersion = async () =>
  (await t.database.prisma.rateCardState.findUnique({ where: { organisation_id: 1 } }))?.version ?? 0;

describe('Two writers with the same expected version: exactly one wins, the other is told the current version', () => {
  it(`${raceRounds(10)} rounds of two racing writers (REST, If-Match): one 201 and one 409 each round`, async () => {
    for (let round = 0; round < raceRounds(10); round++) {
      const expected = await cardVersion();
      const answers = await Promise.all(
        ['a', 'b'].map((w) =>
          t.rest('POST', '/api/v1/products', {
            token: admin,
            body: { product_name: `Race ${round} ${w}` },
            headers: { 'if-match': `"${expected}"` },
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      const lost = answers.find((a) => a.status === 409)!;
      expect(lost.body).toEqual({ error: 'version_conflict', current_version: expected + 1 });
      expect(await cardVersion()).toBe(expected + 1);
      expect(await t.database.prisma.product.count({ where: { product_name: { startsWith: `Race ${round} ` } } })).toBe(
        1,
      );
    }
  });
});

describe('Writers without an expected version: every change lands, each with its own restore point', () => {
  it('20 concurrent creations: 20 products, the card version up by 20, 20 restore points, the last holding them all', async () => {
    const start = await cardVersion();
    const versionsBefore = await t.database.prisma.rateCardVersion.count({ where: { organisation_id: 1 } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.rest('POST', '/api/v1/products', { token: admin, body: { product_name: `Burst ${i}` } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    expect(await cardVersion()).toBe(start + 20);
    expect(new Set(answers.map((a) => a.headers.get('etag'))).size).toBe(20);
    const versions = await t.database.prisma.rateCardVersion.findMany({
      where: { organisation_id: 1 },
      orderBy: { id: 'asc' },
    });
    expect(versions.length).toBe(versionsBefore + 20);
    const last = versions.at(-1)!.payload as { products: { product_name: string }[] };
    expect(last.products.filter((p) => p.product_name.startsWith('Burst ')).length).toBe(20);
  });
});
