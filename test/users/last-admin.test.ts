/**
 * PUT /users/{id} and GraphQL updateUser: an organisation always keeps an active administrator. Demoting
 * (is_admin false), deactivating (is_active false) or removing (organisation_id null) its last active admin answers
 * 409 `{error, reason: "last_admin"}` (docs/api-decisions.md "Users") and changes nothing, exactly under concurrency:
 * the check runs under the organisation row's lock, as seats do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPasswordHash } from '../../testkit/passwords.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { raceRounds } from '../../testkit/sizes.ts';

const PASSWORD = 'last-admin-pw-1';
let t: TestApp;
let hash: string;
beforeAll(async () => {
  t = await startTestApp();
  hash = await testPasswordHash(PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

let serial = 0;
interface Member {
  id: number;
  token: string;
}

/** A broker organisation of the test's own with `admins` active admins, `members` non-admins and `inactiveAdmins`. */
async function organisation(spec: { admins: number; members?: number; inactiveAdmins?: number }) {
  const prisma = t.database.prisma;
  const org = await prisma.organisation.create({
    data: { name: `Last Admin Test ${++serial}`, type: 'b', plan: 'enterprise' },
  });
  const make = async (is_admin: boolean, is_active: boolean): Promise<Member> => {
    const email = `la${serial}-${Math.random().toString(36).slice(2)}@test.test`;
    const user = await prisma.user.create({
      data: { email, password_hash: hash, organisation_id: org.id, is_admin, is_active: true, is_email_verified: true },
    });
    const token = (await t.login(email, PASSWORD)).access;
    if (!is_active) await prisma.user.update({ where: { id: user.id }, data: { is_active: false } });
    return { id: user.id, token };
  };
  const admins: Member[] = [];
  for (let i = 0; i < spec.admins; i += 1) admins.push(await make(true, true));
  const members: Member[] = [];
  for (let i = 0; i < (spec.members ?? 0); i += 1) members.push(await make(false, true));
  const inactiveAdmins: Member[] = [];
  for (let i = 0; i < (spec.inactiveAdmins ?? 0); i += 1) inactiveAdmins.push(await make(true, false));
  const activeAdmins = () => prisma.user.count({ where: { organisation_id: org.id, is_admin: true, is_active: true } });
  return { id: org.id, admins, members, inactiveAdmins, activeAdmins };
}

const put = (token: string, id: number, body: unknown, headers?: Record<string, string>) =>
  t.rest('PUT', `/api/v1/users/${id}`, { token, body, headers });
const LAST_ADMIN = { error: expect.any(String), reason: 'last_admin' };

describe('the last active admin cannot be demoted, deactivated or removed: 409 last_admin, nothing changed', () => {
  it('the only admin demoting themselves: 409 with a client-worded sentence; still an admin', async () => {
    const org = await organisation({ admins: 1, members: 1 });
    const [only] = org.admins;
    const web = await put(only.token, only.id, { is_admin: false, first_name: 'Changed' });
    expect(web.status).toBe(409);
    expect(web.body).toEqual(LAST_ADMIN);
    expect(web.body.error).toMatch(/administrator/);
    const ios = await put(only.token, only.id, { is_admin: false }, { 'x-service-client': 'ios' });
    expect(ios.status).toBe(409);
    expect(ios.body).toEqual(LAST_ADMIN);
    expect(ios.body.error).not.toMatch(/upgrade|plan|\$|http|\//i);
    const row = await t.database.prisma.user.findUniqueOrThrow({ where: { id: only.id } });
    expect(row).toMatchObject({ is_admin: true, is_active: true, organisation_id: org.id, first_name: '' });
  });

  it('the only admin removing themselves from the organisation (organisation_id null): 409', async () => {
    const org = await organisation({ admins: 1 });
    const [only] = org.admins;
    const res = await put(only.token, only.id, { organisation_id: null });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(LAST_ADMIN);
    expect((await t.database.prisma.user.findUniqueOrThrow({ where: { id: only.id } })).organisation_id).toBe(org.id);
  });

  it('an inactive admin does not count: the only active admin is still the last one', async () => {
    const org = await organisation({ admins: 1, inactiveAdmins: 1 });
    const res = await put(org.admins[0].token, org.admins[0].id, { is_admin: false });
    expect(res.status).toBe(409);
    expect(await org.activeAdmins()).toBe(1);
  });

  it('GraphQL updateUser answers LastAdminError', async () => {
    const org = await organisation({ admins: 1 });
    const [only] = org.admins;
    const data = await t
      .graphql(only.token)
      .request<any>(
        'mutation($id: Int!) { updateUser(id: $id, input: { is_admin: false }) { __typename ... on Error { code message } } }',
        { id: only.id },
      );
    expect(data.updateUser).toEqual({ __typename: 'LastAdminError', code: 'last_admin', message: expect.any(String) });
    expect(await org.activeAdmins()).toBe(1);
  });
});

describe('with another active admin, demoting, deactivating and removing an admin succeed', () => {
  it('demote another admin, then the remaining admin is the last one', async () => {
    const org = await organisation({ admins: 3, members: 1 });
    const [a, b, c] = org.admins;
    expect((await put(a.token, b.id, { is_admin: false })).status).toBe(200);
    expect((await put(a.token, c.id, { is_active: false })).status).toBe(200);
    expect(await org.activeAdmins()).toBe(1);
    expect((await put(a.token, a.id, { is_admin: false })).status).toBe(409);
    expect((await put(a.token, a.id, { organisation_id: null })).status).toBe(409);
    // Ordinary edits of the last admin still work.
    const named = await put(a.token, a.id, { first_name: 'Still admin', is_admin: true });
    expect(named.status).toBe(200);
    expect(named.body.is_admin).toBe(true);
  });

  it('an admin may step down once another is active; a member may leave the organisation', async () => {
    const org = await organisation({ admins: 2, members: 1 });
    const [a] = org.admins;
    expect((await put(a.token, a.id, { is_admin: false })).status).toBe(200);
    expect(await org.activeAdmins()).toBe(1);
    const [m] = org.members;
    expect((await put(m.token, m.id, { organisation_id: null })).status).toBe(200);
  });
});

describe('exact under concurrency: an organisation never loses its last active admin', () => {
  it(`two admins demoting each other at the same moment: exactly one 200; one admin left (${raceRounds(20)} rounds)`, async () => {
    for (let round = 0; round < raceRounds(20); round += 1) {
      const org = await organisation({ admins: 2 });
      const [a, b] = org.admins;
      const answers = await Promise.all([
        put(a.token, b.id, { is_admin: false }),
        put(b.token, a.id, { is_admin: false }),
      ]);
      // The loser is 409 last_admin when both passed the request's checks before either committed (a real race, on
      // PostgreSQL); 403 when it was read after the winner had already demoted it (always so on one PGlite connection).
      const statuses = answers.map((r) => r.status).sort();
      expect(
        [
          [200, 403],
          [200, 409],
        ],
        `round ${round}: ${statuses}`,
      ).toContainEqual(statuses);
      const loser = answers.find((r) => r.status !== 200)!;
      if (loser.status === 409) expect(loser.body).toEqual(LAST_ADMIN);
      expect(await org.activeAdmins()).toBe(1);
    }
  });

  it('demote, deactivate and remove racing across five admins: at least one admin stays, and every 200 took exactly one away', async () => {
    for (let round = 0; round < raceRounds(5); round += 1) {
      const org = await organisation({ admins: 5 });
      const admins = org.admins;
      // Each admin takes the next one's standing away, each in a different way, plus everyone tries to step down.
      const requests = [
        ...admins.map((caller, i) => {
          const target = admins[(i + 1) % admins.length];
          const body = [{ is_admin: false }, { is_active: false }, { organisation_id: null }][i % 3];
          return { caller, target, body };
        }),
        ...admins.map((caller) => ({ caller, target: caller, body: { is_admin: false } })),
      ];
      const answers = await Promise.all(requests.map((r) => put(r.caller.token, r.target.id, r.body)));
      // 401: the caller was deactivated by an earlier request; 403: demoted; 404: removed from the organisation.
      for (const a of answers) expect([200, 401, 403, 404, 409], JSON.stringify(a.body)).toContain(a.status);
      const left = await org.activeAdmins();
      expect(left, `round ${round}`).toBeGreaterThanOrEqual(1);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      // Every admin that lost its standing lost it through exactly one accepted request; no one else changed it.
      const targetsChanged = new Set(requests.filter((_, i) => answers[i].status === 200).map((r) => r.target.id));
      expect(admins.length - left).toBe(targetsChanged.size);
    }
  });
});
