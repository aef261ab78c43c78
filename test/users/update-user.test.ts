/** Spec: PUT /users/{id}; States "User activity"; Resources "Seats"; reliability Q4 and AZ3. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPasswordHash } from '../../testkit/passwords.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';

let t: TestApp;
let admin: string;
let member: string;
let memberId: number;
let adminId: number;
let organisationId: number;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.login('broker.admin@demo.test')).access;
  member = (await t.login('broker.user@demo.test')).access;
  const m = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.user@demo.test' } });
  const a = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } });
  memberId = m.id;
  adminId = a.id;
  organisationId = a.organisation_id!;
});
afterAll(async () => {
  await t?.close();
});

const put = (token: string, id: number, body: unknown, headers?: Record<string, string>) =>
  t.rest('PUT', `/api/v1/users/${id}`, { token, body, headers });

async function addUsers(count: number, active: boolean): Promise<number[]> {
  const hash = await testPasswordHash('pw-pw-pw-pw');
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const u = await t.database.prisma.user.create({
      data: {
        email: `extra${Date.now()}${i}${Math.random()}@demo.test`,
        password_hash: hash,
        organisation_id: organisationId,
        is_active: active,
      },
    });
    ids.push(u.id);
  }
  return ids;
}

describe('PUT /users/{id} answers 200 with the User', () => {
  it('an admin edits a member of the same organisation', async () => {
    const res = await put(admin, memberId, { first_name: 'Sam', last_name: 'Lee' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: memberId,
      email: 'broker.user@demo.test',
      first_name: 'Sam',
      last_name: 'Lee',
      organisation_id: organisationId,
      is_admin: false,
      is_active: true,
    });
    expect(Array.isArray(res.body.groups)).toBe(true);
    expect(typeof res.body.created).toBe('string');
  });

  it('a user edits their own name', async () => {
    expect((await put(member, memberId, { first_name: 'Samantha' })).body.first_name).toBe('Samantha');
  });
});

describe('who may edit whom', () => {
  it('a non-admin cannot edit another user (403) and cannot raise their own rights (403)', async () => {
    expect((await put(member, adminId, { first_name: 'X' })).status).toBe(403);
    expect((await put(member, memberId, { is_admin: true })).status).toBe(403);
    expect((await t.database.prisma.user.findUniqueOrThrow({ where: { id: memberId } })).is_admin).toBe(false);
  });

  it("another tenant's user answers 404 exactly like a missing one", async () => {
    const stranger = await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'free.broker@demo.test' } });
    const foreign = await put(admin, stranger.id, { first_name: 'X' });
    const missing = await put(admin, 999999, { first_name: 'X' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });

  it('organisation_id can only be cleared, never moved to another organisation; forbidden properties are not persisted', async () => {
    const moved = await put(admin, memberId, { organisation_id: 9 });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({
      error: 'Invalid request.',
      errors: { organisation_id: ['A user cannot be moved to another organisation; it can only be cleared.'] },
    });
    const injected = await put(admin, memberId, {
      id: 1,
      email: 'evil@x.test',
      is_email_verified: false,
      created: '2000-01-01T00:00:00Z',
      password_hash: 'x',
    });
    expect(injected.status).toBe(200);
    const row = await t.database.prisma.user.findUniqueOrThrow({ where: { id: memberId } });
    expect(row).toMatchObject({ email: 'broker.user@demo.test', is_email_verified: true });
    expect(row.password_hash).not.toBe('x');
  });

  it('wrong types answer 400 naming the field', async () => {
    const res = await put(admin, memberId, { is_active: 'yes', first_name: 12 });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['first_name', 'is_active']);
  });
});

describe('User activity: is_active false --PUT is_active true--> true (organisation below its user limit)', () => {
  it('reactivation takes a seat back when one is free', async () => {
    const [inactive] = await addUsers(1, false);
    const res = await put(admin, inactive, { is_active: true });
    expect(res.status).toBe(200);
    expect(res.body.is_active).toBe(true);
    await t.database.prisma.user.update({ where: { id: inactive }, data: { is_active: false } });
  });
});

describe('User activity: is_active false --PUT is_active true--> stays false (organisation at its user limit): 409 seat_limit_reached', () => {
  it('answers 409 with a client-worded error, reason and seats; the user stays inactive', async () => {
    // Pro allows 3 seats; the demo broker has 2 active users. Fill the third with a pending invite.
    const invite = await t.database.prisma.invitation.create({
      data: { organisation_id: organisationId, email: 'invitee@demo.test' },
    });
    const [inactive] = await addUsers(1, false);
    const web = await put(admin, inactive, { is_active: true });
    expect(web.status).toBe(409);
    expect(web.body).toEqual({ error: expect.any(String), reason: 'seat_limit_reached', seats: { used: 3, limit: 3 } });
    expect(web.body.error).toMatch(/billing/);
    const ios = await put(admin, inactive, { is_active: true }, { 'x-service-client': 'ios' });
    expect(ios.status).toBe(409);
    expect(ios.body.error).not.toMatch(/upgrade|pro|\$|http|\//i);
    expect((await t.database.prisma.user.findUniqueOrThrow({ where: { id: inactive } })).is_active).toBe(false);
    await t.database.prisma.invitation.delete({ where: { id: invite.id } });
  });

  it('an organisation over its limit keeps everyone: used may exceed limit', async () => {
    const extra = await addUsers(2, true); // 4 active on a 3-seat plan
    const res = await put(admin, memberId, { first_name: 'Still here' });
    expect(res.status).toBe(200);
    await t.database.prisma.user.updateMany({ where: { id: { in: extra } }, data: { is_active: false } });
  });
});

describe('Seats under concurrency (reliability Q4)', () => {
  it('one free seat, 20 concurrent reactivations: exactly one 200, the rest 409', async () => {
    await t.database.prisma.user.updateMany({
      where: { organisation_id: organisationId, email: { startsWith: 'extra' } },
      data: { is_active: false },
    });
    const candidates = await addUsers(20, false); // 2 active of 3: one seat free
    const answers = await Promise.all(candidates.map((id) => put(admin, id, { is_active: true })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const active = await t.database.prisma.user.count({ where: { organisation_id: organisationId, is_active: true } });
    expect(active).toBe(3);
  });
});
