/**
 * GET /api/v1/calculator/financiers?surface= over real HTTP (api-v1.md: the four surfaces' rules, sorted by name,
 * a lender offered only its own organisation on either Matrix surface, empty when the caller cannot run the
 * surface, 401; Authentication 5: a read token may GET).
 *
 * Financiers added to the demo catalogue to tell the surfaces apart:
 * - Aardvark Consumer Finance: a consumer card only; its only approval links that consumer card.
 * - Quokka Mixed Finance: a commercial and a consumer card; its only approval links the consumer card.
 * - Mallee Approvals Finance: an approval linking no card, and no card at all.
 * - Zebra Commercial Finance: a commercial card and no approval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type FinancierSeed } from '../../testkit/seed.ts';

let t: TestApp;
let pro: string; // broker.admin: Pro, BID broker
let free: string; // free.broker: Free, not BID
let lender: string; // financier.admin: org 1 (Harbour Equipment Finance)
let orgless: string; // a user with no organisation
let proNonBid: string; // a Pro broker without Best Interests Duty standing
const created = { aardvark: 0, quokka: 0, mallee: 0, zebra: 0 };

const DEMO = [
  { id: 4, name: 'Coral Coast Capital' },
  { id: 1, name: 'Harbour Equipment Finance' },
  { id: 5, name: 'Ironbark Plant & Machinery Finance' },
  { id: 3, name: 'Red Gum Commercial Finance' },
  { id: 2, name: 'Southern Cross Asset Finance' },
  { id: 6, name: 'Tasman Motor Finance' },
  { id: 7, name: 'Wattle Agri Finance' },
];
const byName = (list: { id: number; name: string }[]) =>
  [...list].sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id);

async function addFinanciers(): Promise<void> {
  const kit = seedKit(t.database.prisma);
  const card = async (financier: FinancierSeed, type: 'commercial' | 'consumer') =>
    (await financier.product({ product_name: `${type} product` })).bracket({
      type,
      name: `${type} card`,
      base_min: 9,
      base_max: 11,
    });
  const approval = (financier: FinancierSeed, brackets: { id: number }[]) =>
    financier.approval({ name: 'Test approval', doc_level: 'full_doc', brackets });
  // Created in reverse name order, so id order never happens to be name order.
  const zebra = await kit.financier({ name: 'Zebra Commercial Finance' });
  await card(zebra, 'commercial');
  const quokka = await kit.financier({ name: 'Quokka Mixed Finance' });
  await card(quokka, 'commercial');
  await approval(quokka, [await card(quokka, 'consumer')]);
  const mallee = await kit.financier({ name: 'Mallee Approvals Finance' });
  await approval(mallee, []);
  const aardvark = await kit.financier({ name: 'Aardvark Consumer Finance' });
  await approval(aardvark, [await card(aardvark, 'consumer')]);
  Object.assign(created, { aardvark: aardvark.id, quokka: quokka.id, mallee: mallee.id, zebra: zebra.id });
}

beforeAll(async () => {
  t = await startTestApp();
  await addFinanciers();
  const kit = seedKit(t.database.prisma);
  await kit.user({ email: 'no.org@test.example' });
  const nonBid = await kit.broker({ name: 'Pro Non-BID Brokers', plan: 'pro', is_bid_broker: false });
  await nonBid.user({ email: 'pro.nonbid@test.example' });
  [pro, free, lender, orgless, proNonBid] = await Promise.all(
    [
      'broker.admin@demo.test',
      'free.broker@demo.test',
      'financier.admin@demo.test',
      'no.org@test.example',
      'pro.nonbid@test.example',
    ].map(async (e) => (await t.login(e)).access),
  );
});
afterAll(async () => {
  await t?.close();
});

const list = async (token: string | null, surface?: string, app: TestApp = t) => {
  const query = surface === undefined ? '' : `?surface=${encodeURIComponent(surface)}`;
  const res = await app.rest('GET', `/api/v1/calculator/financiers${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Array.isArray(res.body)).toBe(true);
  for (const entry of res.body) {
    expect(Object.keys(entry).sort()).toEqual(['id', 'name']);
    expect(Number.isInteger(entry.id)).toBe(true);
    expect(typeof entry.name).toBe('string');
  }
  return res.body as { id: number; name: string }[];
};
const named = (...names: (keyof typeof created)[]) =>
  names.map((n) => ({
    id: created[n],
    name: {
      aardvark: 'Aardvark Consumer Finance',
      quokka: 'Quokka Mixed Finance',
      mallee: 'Mallee Approvals Finance',
      zebra: 'Zebra Commercial Finance',
    }[n],
  }));

describe("surface calculator: financiers with a commercial rate card in the caller's book, sorted by name", () => {
  it('a broker is offered every financier with a commercial card, and none with only consumer cards or no card', async () => {
    expect(await list(pro, 'calculator')).toEqual(byName([...DEMO, ...named('quokka', 'zebra')]));
  });

  it('the list is sorted by name, not by id', async () => {
    const body = await list(pro, 'calculator');
    expect(body).toEqual(byName(body));
    expect(body.map((f) => f.id)).not.toEqual([...body.map((f) => f.id)].sort((a, b) => a - b));
  });

  it('the Free broker may run the calculator, so it gets the same list', async () => {
    expect(await list(free, 'calculator')).toEqual(await list(pro, 'calculator'));
  });

  it('a lender is offered only its own organisation (its book)', async () => {
    expect(await list(lender, 'calculator')).toEqual([{ id: 1, name: 'Harbour Equipment Finance' }]);
  });
});

describe('surface consumer_calculator: financiers with consumer cards, only for a Best Interests Duty broker', () => {
  it('a Pro BID broker is offered exactly the financiers with a consumer card', async () => {
    expect(await list(pro, 'consumer_calculator')).toEqual(
      byName([{ id: 6, name: 'Tasman Motor Finance' }, ...named('aardvark', 'quokka')]),
    );
  });

  it('the Free non-BID broker, a Pro broker without BID standing, and a lender, are offered nothing', async () => {
    expect(await list(free, 'consumer_calculator')).toEqual([]);
    expect(await list(proNonBid, 'consumer_calculator')).toEqual([]);
    expect(await list(lender, 'consumer_calculator')).toEqual([]);
    // the same Pro broker is offered the commercial and Matrix lists
    expect(await list(proNonBid, 'calculator')).toEqual(await list(pro, 'calculator'));
    expect(await list(proNonBid, 'matrix')).toEqual(await list(pro, 'matrix'));
  });
});

describe('surface matrix: financiers with an approval', () => {
  it('a Pro broker is offered every financier with an approval, linked to cards or not', async () => {
    expect(await list(pro, 'matrix')).toEqual(byName([...DEMO, ...named('aardvark', 'quokka', 'mallee')]));
  });

  it('a lender is offered only its own organisation', async () => {
    expect(await list(lender, 'matrix')).toEqual([{ id: 1, name: 'Harbour Equipment Finance' }]);
  });

  it('empty for the Free broker, who cannot run the Matrix', async () => {
    expect(await list(free, 'matrix')).toEqual([]);
  });
});

describe('surface matrix_calculator: financiers with an approval assigned to a commercial rate card', () => {
  it('an approval linking only a consumer card, or no card, does not count, even for a financier with commercial cards', async () => {
    const body = await list(pro, 'matrix_calculator');
    expect(body).toEqual(byName(DEMO));
    for (const id of Object.values(created)) expect(body.map((f) => f.id)).not.toContain(id);
  });

  it('a lender is offered only its own organisation', async () => {
    expect(await list(lender, 'matrix_calculator')).toEqual([{ id: 1, name: 'Harbour Equipment Finance' }]);
  });

  it('empty for the Free broker, who cannot run the Matrix Calculator', async () => {
    expect(await list(free, 'matrix_calculator')).toEqual([]);
  });
});

describe('surface: absent or unknown reads as calculator', () => {
  it.each([undefined, '', 'bogus', 'MATRIX', 'consumer', 'matrix-calculator'])(
    'surface %j lists the calculator financiers',
    async (surface) => {
      expect(await list(pro, surface)).toEqual(await list(pro, 'calculator'));
      expect(await list(free, surface)).toEqual(await list(free, 'calculator'));
    },
  );

  it('a repeated surface parameter reads as calculator too', async () => {
    const res = await t.rest('GET', '/api/v1/calculator/financiers?surface=matrix&surface=matrix', { token: pro });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await list(pro, 'calculator'));
  });
});

describe('empty when the caller cannot run the surface', () => {
  it('a user without an organisation is offered nothing on any surface', async () => {
    for (const surface of ['calculator', 'consumer_calculator', 'matrix', 'matrix_calculator'])
      expect(await list(orgless, surface), surface).toEqual([]);
  });

  it('a surface switched off for the deployment lists nothing; the others are unaffected', async () => {
    const off = await startTestApp({
      shareDatabaseWith: t,
      config: { disabledSurfaces: ['calculator', 'matrix_calculator'] },
    });
    try {
      expect(await list(pro, 'calculator', off)).toEqual([]);
      expect(await list(pro, 'bogus', off)).toEqual([]);
      expect(await list(pro, 'matrix_calculator', off)).toEqual([]);
      expect(await list(pro, 'matrix', off)).toEqual(await list(pro, 'matrix'));
      expect((await list(pro, 'consumer_calculator', off)).length).toBe(3);
    } finally {
      await off.close();
    }
  });
});

describe('Authentication: 401 without a token; a read API token may read the options', () => {
  it('no token, or an invalid one, answers 401 with an error body', async () => {
    for (const token of [null, 'not-a-jwt']) {
      const res = await t.rest('GET', '/api/v1/calculator/financiers?surface=matrix', { token });
      expect(res.status).toBe(401);
      expect(typeof res.body.error).toBe('string');
    }
  });

  it('a read-scoped API token gets the same list as its owner', async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: pro,
      body: { name: 'financiers read', scope: 'read' },
    });
    expect(minted.status).toBe(201);
    expect(await list(minted.body.token, 'matrix')).toEqual(await list(pro, 'matrix'));
  });
});
