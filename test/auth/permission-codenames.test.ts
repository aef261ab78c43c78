/**
 * A user's permissions are what their groups grant. The caller statement reads them from the user row
 * (`permission_codenames`), which the database keeps (migration *_user_permission_codenames_triggers): every change
 * to membership, to a group's permissions or to a permission rewrites it in the change's own transaction, so a
 * request right after sees it. Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (with a concurrency
 * case there).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticate } from '../../src/modules/auth/caller.ts';
import { seedKit, type SeedKit } from '../../testkit/seed.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { LOCK_POLL, lockWaiters } from '../../testkit/lock-waits.ts';

let t: TestApp;
let kit: SeedKit;

beforeAll(async () => {
  t = await startTestApp();
  kit = seedKit(t.database.prisma);
});

afterAll(async () => {
  await t?.close();
});

const sql = (text: string, ...params: unknown[]) => t.database.prisma.$executeRawUnsafe(text, ...params);

/** Users whose column differs from what their groups grant, computed the long way. */
async function drifted(): Promise<unknown[]> {
  return t.database.prisma.$queryRawUnsafe(`
    SELECT u.id, u.permission_codenames AS stored,
           ARRAY(SELECT DISTINCT p.codename FROM "_UserGroups" ug
                   JOIN "_GroupPermissions" gp ON gp."A" = ug."A" JOIN permissions p ON p.id = gp."B"
                  WHERE ug."B" = u.id ORDER BY p.codename) AS granted
      FROM users u
     WHERE u.permission_codenames IS DISTINCT FROM ARRAY(SELECT DISTINCT p.codename FROM "_UserGroups" ug
                   JOIN "_GroupPermissions" gp ON gp."A" = ug."A" JOIN permissions p ON p.id = gp."B"
                  WHERE ug."B" = u.id ORDER BY p.codename)`);
}

/** The permissions a request by `email` is given (the caller statement itself). */
async function permissionsOf(email: string): Promise<string[]> {
  const { access } = await t.login(email);
  const auth = await authenticate(t.database.prisma, t.config, new Date(), `Bearer ${access}`);
  if (auth.kind !== 'caller') throw new Error('not signed in');
  return [...auth.caller.permissions].sort();
}

const groupId = async (name: string) => (await t.database.prisma.group.findUniqueOrThrow({ where: { name } })).id;
const permissionId = async (codename: string) =>
  (await t.database.prisma.permission.findUniqueOrThrow({ where: { codename } })).id;

describe('The stored permissions are what the groups grant', () => {
  it('after the demo catalogue loaded: no user drifts, and the demo financier admin holds its group’s five', async () => {
    expect(await drifted()).toEqual([]);
    expect(await permissionsOf('financier.admin@demo.test')).toEqual([
      'change_approval',
      'change_equipment',
      'change_rate_card',
      'restore_rate_card_version',
      'view_rate_card_version',
    ]);
  });
});

describe('Every change is seen by the next request', () => {
  it('membership: joining and leaving a group', async () => {
    const financier = await kit.financier();
    const user = await financier.user({ groups: [{ name: 'Editors A', permissions: ['change_rate_card'] }] });
    expect(await permissionsOf(user.email)).toEqual(['change_rate_card']);
    await kit
      .financier()
      .then((f) => f.user({ groups: [{ name: 'Viewers A', permissions: ['view_rate_card_version'] }] }));
    await sql('INSERT INTO "_UserGroups" ("A", "B") VALUES ($1, $2)', await groupId('Viewers A'), user.id);
    expect(await permissionsOf(user.email)).toEqual(['change_rate_card', 'view_rate_card_version']);
    await sql('DELETE FROM "_UserGroups" WHERE "A" = $1 AND "B" = $2', await groupId('Editors A'), user.id);
    expect(await permissionsOf(user.email)).toEqual(['view_rate_card_version']);
    await sql('UPDATE "_UserGroups" SET "A" = $1 WHERE "B" = $2', await groupId('Editors A'), user.id);
    expect(await permissionsOf(user.email)).toEqual(['change_rate_card']);
    expect(await drifted()).toEqual([]);
  });

  it('a group’s permissions: granted and withdrawn for every member at once; a codename granted twice is held once', async () => {
    const financier = await kit.financier();
    const one = await financier.user({ groups: [{ name: 'Editors B', permissions: ['change_rate_card'] }] });
    const two = await financier.user({
      groups: ['Editors B', { name: 'Approvers B', permissions: ['change_approval'] }],
    });
    await sql(
      'INSERT INTO "_GroupPermissions" ("A", "B") VALUES ($1, $2)',
      await groupId('Editors B'),
      await permissionId('change_approval'),
    );
    expect(await permissionsOf(one.email)).toEqual(['change_approval', 'change_rate_card']);
    expect(await permissionsOf(two.email)).toEqual(['change_approval', 'change_rate_card']);
    await sql('DELETE FROM "_GroupPermissions" WHERE "A" = $1', await groupId('Editors B'));
    expect(await permissionsOf(one.email)).toEqual([]);
    expect(await permissionsOf(two.email)).toEqual(['change_approval']);
    expect(await drifted()).toEqual([]);
  });

  it('deleting a group or a permission (their links cascade), and renaming a permission', async () => {
    const financier = await kit.financier();
    const user = await financier.user({
      groups: [
        { name: 'Temp C', permissions: ['change_equipment'] },
        { name: 'Keep C', permissions: ['restore_rate_card_version'] },
      ],
    });
    await t.database.prisma.group.delete({ where: { name: 'Temp C' } });
    expect(await permissionsOf(user.email)).toEqual(['restore_rate_card_version']);
    await t.database.prisma.permission.create({
      data: { codename: 'ephemeral_c', groups: { connect: { name: 'Keep C' } } },
    });
    expect(await permissionsOf(user.email)).toEqual(['ephemeral_c', 'restore_rate_card_version']);
    await t.database.prisma.permission.update({ where: { codename: 'ephemeral_c' }, data: { codename: 'renamed_c' } });
    expect(await permissionsOf(user.email)).toEqual(['renamed_c', 'restore_rate_card_version']);
    await t.database.prisma.permission.delete({ where: { codename: 'renamed_c' } });
    expect(await permissionsOf(user.email)).toEqual(['restore_rate_card_version']);
    expect(await drifted()).toEqual([]);
  });

  it('a change rolled back leaves the stored permissions as they were', async () => {
    const financier = await kit.financier();
    const user = await financier.user({ groups: [{ name: 'Editors D', permissions: ['change_rate_card'] }] });
    await expect(
      t.database.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('DELETE FROM "_UserGroups" WHERE "B" = $1', user.id);
        const [inside] = await tx.$queryRawUnsafe<{ permission_codenames: string[] }[]>(
          'SELECT permission_codenames FROM users WHERE id = $1',
          user.id,
        );
        expect(inside.permission_codenames).toEqual([]); // the change took effect inside
        throw new Error('roll back');
      }),
    ).rejects.toThrow(/^roll back$/);
    expect(await permissionsOf(user.email)).toEqual(['change_rate_card']);
  });

  it('TRUNCATE of a link table (a catalogue reset truncates them): nobody keeps a permission', async () => {
    await expect(
      t.database.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('TRUNCATE "_GroupPermissions"');
        const [{ holders }] = await tx.$queryRawUnsafe<{ holders: number }[]>(
          "SELECT count(*)::int AS holders FROM users WHERE permission_codenames <> '{}'",
        );
        expect(holders).toBe(0);
        throw new Error('roll back');
      }),
    ).rejects.toThrow(/^roll back$/);
    expect(await drifted()).toEqual([]);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('Concurrent grants to one user both land (PostgreSQL)', () => {
  it('two transactions add two groups to the same user at once: the user holds both', async () => {
    const url = t.config.databaseUrl!;
    const financier = await kit.financier();
    const user = await financier.user();
    await kit.financier().then((f) =>
      f.user({
        groups: [
          { name: 'Race E1', permissions: ['change_rate_card'] },
          { name: 'Race E2', permissions: ['change_approval'] },
        ],
      }),
    );
    const [g1, g2] = [await groupId('Race E1'), await groupId('Race E2')];
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await Promise.all([a.connect(), b.connect()]);
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      await a.query('INSERT INTO "_UserGroups" ("A", "B") VALUES ($1, $2)', [g1, user.id]);
      const second = b.query('INSERT INTO "_UserGroups" ("A", "B") VALUES ($1, $2)', [g2, user.id]); // waits on a
      // a commits only once b is blocked on a's lock: the two transactions truly overlap.
      await vi.waitUntil(async () => (await lockWaiters(t.database.prisma)) === 1, LOCK_POLL);
      await a.query('COMMIT');
      await second;
      await b.query('COMMIT');
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
    expect(await permissionsOf(user.email)).toEqual(['change_approval', 'change_rate_card']);
  });
});
