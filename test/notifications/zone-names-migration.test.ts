/**
 * Canonical zone names for rows stored before names were made canonical: the migration
 * `20261125171000_canonical_zone_names` rewrites ICU's legacy spellings (Asia/Calcutta) to the IANA names every new
 * write stores (Asia/Kolkata), in preferences and devices, with the same table the code applies.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICU_LEGACY_ZONE_NAMES } from '../../src/modules/notifications/timezone.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

const SQL = readFileSync(
  path.resolve(import.meta.dirname, '../../prisma/migrations/20261125171000_canonical_zone_names/migration.sql'),
  'utf8',
);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the migration rewrites legacy zone names to the names the code stores', () => {
  it("its table is the code's table, pair for pair", () => {
    const pairs = Object.fromEntries([...SQL.matchAll(/\('([^']+)', '([^']+)'\)/g)].map((m) => [m[1], m[2]]));
    expect(pairs).toEqual(ICU_LEGACY_ZONE_NAMES);
  });

  it('preferences and devices: legacy names rewritten, every other zone (and the empty one) untouched', async () => {
    const prisma = t.database.prisma;
    const users = await prisma.user.findMany({ orderBy: { id: 'asc' }, take: 3 });
    expect(users).toHaveLength(3);
    const zones = ['Asia/Calcutta', 'Australia/Sydney', ''];
    for (const [k, user] of users.entries()) {
      await prisma.notificationPreference.upsert({
        where: { user_id: user.id },
        create: { user_id: user.id, timezone: zones[k] },
        update: { timezone: zones[k] },
      });
      await prisma.device.create({ data: { user_id: user.id, token: `zone-migration-${k}`, timezone: zones[k] } });
    }
    await prisma.device.create({
      data: { user_id: users[0].id, token: 'zone-migration-kiev', timezone: 'Europe/Kiev' },
    });
    // One statement (the preferences update is a CTE), as prepared statements and the migration runner both take it.
    await prisma.$executeRawUnsafe(SQL);

    const preferences = await prisma.notificationPreference.findMany({
      where: { user_id: { in: users.map((u) => u.id) } },
    });
    expect(users.map((u) => preferences.find((p) => p.user_id === u.id)?.timezone)).toEqual([
      'Asia/Kolkata',
      'Australia/Sydney',
      '',
    ]);
    const devices = await prisma.device.findMany({
      where: { token: { startsWith: 'zone-migration-' } },
      orderBy: { token: 'asc' },
    });
    expect(devices.map((d) => [d.token, d.timezone])).toEqual([
      ['zone-migration-0', 'Asia/Kolkata'],
      ['zone-migration-1', 'Australia/Sydney'],
      ['zone-migration-2', ''],
      ['zone-migration-kiev', 'Europe/Kyiv'],
    ]);
  });
});
