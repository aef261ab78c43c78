/** The catalogue snapshot is keyed by the version the database owns: never older than the version a request read. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueCache } from '../../src/modules/catalogue/snapshot.ts';
import { catalogueIndexBuilders } from '../../src/app-services.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const versionNow = async () => (await t.database.prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } })).version;

describe('Catalogue snapshot keyed by catalogue_state.version', () => {
  it('a catalogue write bumps the version, and the next read reloads', async () => {
    const cache = new CatalogueCache(t.database.prisma, catalogueIndexBuilders);
    const first = await cache.get();
    expect(await cache.get()).toBe(first);
    await t.database.prisma.approval.update({ where: { id: 1 }, data: { name: 'Renamed approval' } });
    const after = await cache.get();
    expect(after.version).toBeGreaterThan(first.version);
    expect(after.approvals.find((a) => a.id === 1)!.name).toBe('Renamed approval');
  });

  it('a request that read a newer version never gets a load that started before it', async () => {
    const cache = new CatalogueCache(t.database.prisma, catalogueIndexBuilders);
    const older = cache.get(await versionNow());
    await t.database.prisma.approval.update({ where: { id: 1 }, data: { name: 'Renamed again' } });
    const wanted = await versionNow();
    const [a, b] = await Promise.all([older, cache.get(wanted)]);
    expect(b.version).toBeGreaterThanOrEqual(wanted);
    expect(b.approvals.find((x) => x.id === 1)!.name).toBe('Renamed again');
    expect(a.version).toBeLessThanOrEqual(b.version);
  });

  it('an unchanged catalogue costs no load at all: the version alone is read', async () => {
    const cache = new CatalogueCache(t.database.prisma, catalogueIndexBuilders);
    const version = await versionNow();
    await cache.get(version);
    const before = t.database.queryCount();
    await cache.get(version);
    expect(t.database.queryCount() - before).toBe(0);
  });
});

describe('the catalogue version is bumped once per writing transaction, as it commits', () => {
  const CATALOGUE_TABLES = [
    'organisations',
    'assets',
    'products',
    'rate_brackets',
    'asset_rate_brackets',
    'approvals',
    'approval_rate_brackets',
  ];

  it('every catalogue table carries the deferred row trigger and the TRUNCATE one', async () => {
    const triggers = await t.database.prisma.$queryRawUnsafe<{ table: string; name: string; deferred: boolean }[]>(
      `SELECT c.relname AS table, tg.tgname AS name, tg.tginitdeferred AS deferred
         FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
        WHERE tg.tgname LIKE 'catalogue_version_%' ORDER BY 1, 2`,
    );
    expect(triggers).toEqual(
      CATALOGUE_TABLES.sort().flatMap((table) => [
        { table, name: `catalogue_version_${table}`, deferred: true },
        { table, name: `catalogue_version_${table}_truncate`, deferred: false },
      ]),
    );
  });

  it('a transaction writing many rows of several tables bumps it by exactly one', async () => {
    const before = await versionNow();
    await t.database.prisma.$transaction(async (tx) => {
      await tx.approval.updateMany({ where: { organisation_id: 1 }, data: { priority: 3 } });
      await tx.rateBracket.updateMany({ where: { organisation_id: 1 }, data: { max_term: 84 } });
      await tx.approval.update({ where: { id: 1 }, data: { name: 'Once' } });
    });
    expect(await versionNow()).toBe(before + 1n);
  });

  it('inside the writing transaction the version has not moved yet; after the commit it has', async () => {
    const before = await versionNow();
    await t.database.prisma.$transaction(async (tx) => {
      await tx.approval.update({ where: { id: 1 }, data: { name: 'Not yet' } });
      const inside = await tx.catalogueState.findUniqueOrThrow({ where: { id: 1 } });
      expect(inside.version).toBe(before);
    });
    expect(await versionNow()).toBe(before + 1n);
  });

  it('a rolled-back write leaves it alone, and so does a statement that changes no row', async () => {
    const before = await versionNow();
    const { name } = await t.database.prisma.approval.findUniqueOrThrow({ where: { id: 1 } });
    await expect(
      t.database.prisma.$transaction(async (tx) => {
        await tx.approval.update({ where: { id: 1 }, data: { name: 'Rolled back' } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow(/^roll back$/);
    expect((await t.database.prisma.approval.findUniqueOrThrow({ where: { id: 1 } })).name).toBe(name);
    await t.database.prisma.approval.updateMany({ where: { id: -1 }, data: { name: 'Nobody' } });
    expect(await versionNow()).toBe(before);
  });

  it('each committed write moves it again: two transactions, two bumps', async () => {
    const before = await versionNow();
    await t.database.prisma.approval.update({ where: { id: 1 }, data: { name: 'First' } });
    await t.database.prisma.approval.update({ where: { id: 1 }, data: { name: 'Second' } });
    expect(await versionNow()).toBe(before + 2n);
  });
});
