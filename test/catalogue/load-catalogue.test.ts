import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/db.ts';
import type { PrismaClient } from '../../src/generated/prisma/client.ts';
import { verifyPassword } from '../../src/modules/auth/passwords.ts';
import {
  CatalogueFileError,
  parseCatalogueFile,
  type CatalogueFile,
} from '../../src/modules/catalogue/catalogue-file.ts';
import {
  RESET_TABLES,
  isDatabaseEmpty,
  loadCatalogue,
  readExistingCatalogue,
} from '../../src/modules/catalogue/load-catalogue.ts';
import { openPgliteCopy } from '../../testkit/databases.ts';
import { seedKit } from '../../testkit/seed.ts';

const root = path.resolve(import.meta.dirname, '../..');
function fileAt(p: string): CatalogueFile {
  const r = parseCatalogueFile(JSON.parse(readFileSync(path.join(root, p), 'utf8')));
  if (!r.ok) throw new Error(`${p}: ${r.path}: ${r.message}`);
  return r.value;
}
const DEMO = fileAt('prisma/seed/demo-catalogue.json');
const EXAMPLE = fileAt('docs/example-catalogue.json');

// One in-memory database for the file, a copy of the run's migrated starting point; every test starts from empty tables.
let db: Database;
beforeAll(async () => {
  db = await openPgliteCopy('none');
});
afterAll(async () => {
  await db?.close();
});
async function freshDb(): Promise<PrismaClient> {
  await db.prisma.$executeRawUnsafe(
    `TRUNCATE ${RESET_TABLES.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`,
  );
  return db.prisma;
}

/** Every row of every app table, plus the catalogue version: equal snapshots = nothing was written. */
async function snapshot(prisma: PrismaClient): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const t of [...RESET_TABLES, 'catalogue_state'])
    out[t] = await prisma.$queryRawUnsafe(`SELECT * FROM "${t}" ORDER BY 1, 2`);
  return JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

async function refusal(p: Promise<unknown>): Promise<CatalogueFileError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CatalogueFileError);
  return e as CatalogueFileError;
}

describe('loadCatalogue', () => {
  it('loads the demo file with its ids, hashed passwords, groups, overrides and bracket links', async () => {
    const prisma = await freshDb();
    expect(await isDatabaseEmpty(prisma)).toBe(true);
    const counts = await loadCatalogue(prisma, DEMO, { reset: false });
    expect(counts).toEqual(Object.fromEntries(Object.entries(DEMO).map(([k, v]) => [k, v.length])));
    expect(await isDatabaseEmpty(prisma)).toBe(false);

    // ids kept
    expect(await prisma.asset.findUnique({ where: { id: 1 } })).toMatchObject({
      name: 'Motor Vehicles',
      is_asset: false,
    });
    for (const a of DEMO.approvals) {
      expect(
        await prisma.approval.findUnique({ where: { id: a.id }, select: { name: true, organisation_id: true } }),
      ).toEqual({ name: a.name, organisation_id: a.organisation_id });
    }
    expect(
      (await prisma.rateBracket.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((b) => b.id),
    ).toEqual(DEMO.rate_brackets.map((b) => b.id).sort((x, y) => x - y));

    // passwords hashed, never stored in plain; one salt per user
    const users = await prisma.user.findMany({
      include: { groups: { include: { permissions: true } } },
      orderBy: { id: 'asc' },
    });
    expect(users.map((u) => u.email)).toEqual(DEMO.users.map((u) => u.email));
    for (const u of users) {
      expect(u.password_hash).not.toContain('demo-password-1');
      expect(u.password_hash).toMatch(/^\$2[aby]\$10\$/);
      expect(await verifyPassword('demo-password-1', u.password_hash)).toBe(true);
    }
    expect(new Set(users.map((u) => u.password_hash)).size).toBe(users.length);

    const fin = users.find((u) => u.email === 'financier.admin@demo.test')!;
    expect(fin.groups.map((g) => g.name).sort()).toEqual(['Equipment editors', 'Financier administrators']);
    expect(fin.groups.flatMap((g) => g.permissions.map((p) => p.codename))).toEqual(
      expect.arrayContaining(['change_equipment', 'view_rate_card_version']),
    );

    const bayside = await prisma.organisation.findFirstOrThrow({ where: { name: 'Bayside Asset Finance Brokers' } });
    expect(bayside.plan_overrides).toEqual({ entitlements: ['matrix.enabled'], matrix_allowance: 10 });

    const links = await prisma.approvalRateBracket.count();
    expect(links).toBe(DEMO.approvals.reduce((n, a) => n + (a.rate_bracket_ids?.length ?? 0), 0));
    const first = DEMO.approvals.find((a) => a.max_asset_cost != null)!;
    const stored = await prisma.approval.findUniqueOrThrow({ where: { id: first.id } });
    expect(stored.max_asset_cost?.toString()).toBe(String(Number(first.max_asset_cost)));

    const sub = await prisma.subscription.findFirstOrThrow({ include: { organisation: true } });
    expect(sub).toMatchObject({ plan: 'pro', plan_name: 'Pro', status: 'active', seats: 3, card_last4: '4242' });
    expect(sub.organisation.name).toBe('Demo Brokers Pty Ltd');
  });

  it('moves id sequences past the loaded ids, so later creates do not collide', async () => {
    const prisma = await freshDb();
    await loadCatalogue(prisma, DEMO, { reset: false });
    const max = (xs: { id: number }[]) => Math.max(...xs.map((x) => x.id));
    const kit = seedKit(prisma);
    expect((await kit.broker({ name: 'New' })).id).toBe(max(DEMO.organisations) + 1);
    expect((await kit.asset({ name: 'Boat' })).id).toBe(max(DEMO.assets) + 1);
    const harbour = await kit.financierOf(1);
    expect((await harbour.approval({ name: 'New', doc_level: 'full_doc' })).id).toBe(max(DEMO.approvals) + 1);
    expect((await kit.user({ email: 'new@demo.test' })).id).toBe(max(DEMO.users) + 1);
    expect((await kit.group({ name: 'Another' })).id).toBe(DEMO.groups.length + 1);
    const product = await harbour.product({ product_name: 'New' });
    expect(product.id).toBe(max(DEMO.products) + 1);
    expect((await product.bracket({ name: 'New', base_min: 8, base_max: 9 })).id).toBe(max(DEMO.rate_brackets) + 1);
    expect((await product.mapTo(1)).map((m) => m.id)).toEqual([max(DEMO.asset_rate_brackets) + 1]);
  });

  it('adds to an existing catalogue without --reset, resolving references to rows already loaded', async () => {
    const prisma = await freshDb();
    await loadCatalogue(prisma, DEMO, { reset: false });
    const addition = parseCatalogueFile(
      {
        approvals: [
          {
            id: 500,
            name: 'Added later',
            doc_level: 'lite_doc',
            organisation_id: 1,
            asset_ids: [1],
            rate_bracket_ids: [1, 2],
          },
        ],
      },
      await readExistingCatalogue(prisma),
    );
    if (!addition.ok) throw new Error(addition.message);
    expect(await loadCatalogue(prisma, addition.value, { reset: false })).toMatchObject({
      approvals: 1,
      organisations: 0,
    });
    expect(await prisma.approvalRateBracket.count({ where: { approval_id: 500 } })).toBe(2);
    expect(await prisma.organisation.count()).toBe(DEMO.organisations.length);
  });

  it('refuses ids that already exist when loading without --reset, and writes nothing', async () => {
    const prisma = await freshDb();
    await loadCatalogue(prisma, DEMO, { reset: false });
    const before = await snapshot(prisma);
    const e = await refusal(loadCatalogue(prisma, DEMO, { reset: false }));
    expect(e.path).toBe('organisations[0].id');
    expect(e.message).toMatch(/already exists in the database/);
    expect(await snapshot(prisma)).toBe(before);
  });

  it('--reset empties every table first', async () => {
    const prisma = await freshDb();
    await loadCatalogue(prisma, EXAMPLE, { reset: false });
    const editor = await prisma.user.findUniqueOrThrow({ where: { email: 'editor@harbour.example' } });
    await prisma.session.create({
      data: { id: 's1', user_id: editor.id, signed_in_at: new Date(), environment: 'local' },
    });
    await prisma.rateCardVersion.create({ data: { organisation_id: 1, resource: 'rate_card', payload: {} } });

    const counts = await loadCatalogue(prisma, DEMO, { reset: true });
    expect(counts.organisations).toBe(DEMO.organisations.length);
    expect(await prisma.user.findUnique({ where: { email: 'editor@harbour.example' } })).toBeNull();
    expect(await prisma.group.findUnique({ where: { name: 'Rate card editors' } })).toBeNull();
    expect(await prisma.session.count()).toBe(0);
    expect(await prisma.rateCardVersion.count()).toBe(0);
    expect(await prisma.organisation.count()).toBe(DEMO.organisations.length);
    expect(await prisma.permission.count()).toBe(new Set(DEMO.groups.flatMap((g) => g.permissions ?? [])).size);
    expect((await prisma.group.findFirstOrThrow()).id).toBe(1); // RESTART IDENTITY

    // loading the same file again with --reset is repeatable
    await loadCatalogue(prisma, DEMO, { reset: true });
    expect(await prisma.approval.count()).toBe(DEMO.approvals.length);
  });

  it('a bad reference found after --reset emptied the tables leaves the database exactly as before', async () => {
    const prisma = await freshDb();
    await loadCatalogue(prisma, DEMO, { reset: false });
    const before = await snapshot(prisma);
    // Validated against an empty database inside the transaction, after the TRUNCATE: the approval's financier
    // is not in the file, so the load fails mid-way and must roll the emptying back.
    const bad: CatalogueFile = {
      ...structuredClone(DEMO),
      approvals: [{ ...DEMO.approvals[0], organisation_id: 999 }],
    };
    const e = await refusal(loadCatalogue(prisma, bad, { reset: true }));
    expect(e.path).toBe('approvals[0].organisation_id');
    expect(e.message).toMatch(/organisation 999 does not exist/);
    expect(await snapshot(prisma)).toBe(before);
  });

  it('a dangling bracket reference that only the database check sees leaves the database untouched', async () => {
    const prisma = await freshDb();
    await loadCatalogue(prisma, DEMO, { reset: false });
    const before = await snapshot(prisma);
    const extra = {
      approvals: [
        { id: 700, name: 'X', doc_level: 'low_doc' as const, organisation_id: 1, rate_bracket_ids: [1, 9999] },
      ],
    };
    const e = await refusal(loadCatalogue(prisma, extra as unknown as CatalogueFile, { reset: false }));
    expect(e.path).toBe('approvals[0].rate_bracket_ids[1]');
    expect(await snapshot(prisma)).toBe(before);
  });

  it('a database failure after rows were inserted rolls everything back', async () => {
    const prisma = await freshDb();
    await loadCatalogue(prisma, EXAMPLE, { reset: false });
    const before = await snapshot(prisma);
    // The last insert (approval-bracket links) fails: organisations, users, assets ... were already written.
    const failing = new Proxy(prisma, {
      get(target, prop) {
        if (prop !== '$transaction') return Reflect.get(target, prop);
        return (fn: (tx: unknown) => Promise<unknown>, opts: unknown) =>
          target.$transaction(
            (tx) =>
              fn(
                new Proxy(tx, {
                  get(t, p) {
                    if (p === 'approvalRateBracket')
                      return {
                        createMany: async () => {
                          throw new Error('disk full');
                        },
                      };
                    return Reflect.get(t, p);
                  },
                }),
              ) as never,
            opts as never,
          );
      },
    });
    await expect(loadCatalogue(failing, DEMO, { reset: true })).rejects.toThrow('disk full');
    expect(await snapshot(prisma)).toBe(before);
  });

  it('RESET_TABLES lists every table except _prisma_migrations and catalogue_state', async () => {
    const prisma = await freshDb();
    const rows = await prisma.$queryRaw<
      { tablename: string }[]
    >`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`;
    const tables = rows.map((r) => r.tablename).filter((t) => t !== '_prisma_migrations' && t !== 'catalogue_state');
    expect([...RESET_TABLES].sort()).toEqual(tables.sort());
  });
});
