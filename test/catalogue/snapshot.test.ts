/** The catalogue snapshot is keyed by the version the database owns: never older than the version a request read. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueCache } from '../../src/modules/catalogue/snapshot.ts';
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
    const cache = new CatalogueCache(t.database.prisma);
    const first = await cache.get();
    expect(await cache.get()).toBe(first);
    await t.database.prisma.approval.update({ where: { id: 1 }, data: { name: 'Renamed approval' } });
    const after = await cache.get();
    expect(after.version).toBeGreaterThan(first.version);
    expect(after.approvals.find((a) => a.id === 1)!.name).toBe('Renamed approval');
  });

  it('a request that read a newer version never gets a load that started before it', async () => {
    const cache = new CatalogueCache(t.database.prisma);
    const older = cache.get(await versionNow());
    await t.database.prisma.approval.update({ where: { id: 1 }, data: { name: 'Renamed again' } });
    const wanted = await versionNow();
    const [a, b] = await Promise.all([older, cache.get(wanted)]);
    expect(b.version).toBeGreaterThanOrEqual(wanted);
    expect(b.approvals.find((x) => x.id === 1)!.name).toBe('Renamed again');
    expect(a.version).toBeLessThanOrEqual(b.version);
  });

  it('an unchanged catalogue costs no load at all: the version alone is read', async () => {
    const cache = new CatalogueCache(t.database.prisma);
    const version = await versionNow();
    await cache.get(version);
    const before = t.database.queryCount();
    await cache.get(version);
    expect(t.database.queryCount() - before).toBe(0);
  });
});
