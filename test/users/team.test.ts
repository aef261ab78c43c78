/**
 * Team management (docs/team.md): organisationUsers, deactivateUser, reactivateUser, setAdmin, the last seat under
 * concurrency (invitations and reactivations racing: exactly one wins), and `account` notifications for seat and
 * API-token changes. Administrators only, their own organisation only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type SeedKit } from '../../testkit/seed.ts';

let t: TestApp;
let kit: SeedKit;
beforeAll(async () => {
  t = await startTestApp();
  kit = seedKit(t.database.prisma);
});
afterAll(async () => {
  await t?.close();
});

let serial = 0;
async function team(limit: number | null = 3) {
  const org = await kit.broker({ plan: 'pro', plan_overrides: { limit } });
  const admin = await org.user({ is_admin: true, email: `team-admin-${++serial}@kit.test` });
  const token = (await t.login(admin.email)).access;
  const gql = <T = any>(query: string, variables?: Record<string, unknown>) =>
    t.graphql(token).request<T>(query, variables);
  return { org, admin, token, gql };
}

const USERS = `query($first: Int, $after: String) { organisationUsers(first: $first, after: $after) {
  __typename
  ... on QueryOrganisationUsersConnection { pageInfo { hasNextPage endCursor } edges { node { id email is_active is_admin groups { name permissions { codename } } } } }
  ... on Error { code } } }`;
const EDIT = (field: string, extra = '') => `mutation($id: Int!${extra ? `, $isAdmin: Boolean!` : ''}) {
  ${field}(id: $id${extra}) { __typename ... on User { id is_active is_admin } ... on SeatLimitReachedError { seats { used limit } } ... on Error { code message } } }`;
const DEACTIVATE = EDIT('deactivateUser');
const REACTIVATE = EDIT('reactivateUser');
const SET_ADMIN = EDIT('setAdmin', ', isAdmin: $isAdmin');
const INVITE = `mutation($email: String!) { inviteUser(email: $email) { __typename ... on Error { code } } }`;

describe("organisationUsers: the organisation's users with their groups, a capped cursor connection", () => {
  it('pages through every user of the organisation (deactivated included) with groups and permissions', async () => {
    const { gql, org, admin } = await team(null);
    const others = [];
    for (let i = 0; i < 4; i += 1)
      others.push(
        await org.user({ is_active: i !== 0, groups: [{ name: 'Team pricing', permissions: ['change_rate_card'] }] }),
      );
    const first = await gql(USERS, { first: 3 });
    expect(first.organisationUsers.pageInfo.hasNextPage).toBe(true);
    const rest = await gql(USERS, { first: 3, after: first.organisationUsers.pageInfo.endCursor });
    const nodes = [...first.organisationUsers.edges, ...rest.organisationUsers.edges].map((e: any) => e.node);
    expect(nodes.map((n: any) => n.id)).toEqual([admin.id, ...others.map((o) => o.id)]);
    expect(nodes[1]).toMatchObject({
      is_active: false,
      groups: [{ name: 'Team pricing', permissions: [{ codename: 'change_rate_card' }] }],
    });
  });

  it("never shows another organisation's users", async () => {
    const a = await team(null);
    const b = await team(null);
    await b.org.user();
    const seen = (await a.gql(USERS, {})).organisationUsers.edges.map((e: any) => e.node.id);
    expect(seen).toEqual([a.admin.id]);
  });

  it('administrators only: a member gets ForbiddenError, anonymous UnauthenticatedError', async () => {
    const { org } = await team(null);
    const member = await org.user();
    const token = (await t.login(member.email)).access;
    expect((await t.graphql(token).request<any>(USERS, {})).organisationUsers.code).toBe('forbidden');
    expect((await t.graphql(null).request<any>(USERS, {})).organisationUsers.code).toBe('unauthenticated');
  });
});

describe('deactivateUser: frees the seat; the user can no longer sign in', () => {
  it('deactivates a member; seats.used drops; their access token stops working', async () => {
    const { gql, org } = await team();
    const member = await org.user();
    const memberToken = (await t.login(member.email)).access;
    const out = await gql(DEACTIVATE, { id: member.id });
    expect(out.deactivateUser).toMatchObject({ __typename: 'User', id: member.id, is_active: false });
    expect((await gql('{ seats { ... on Seats { used } } }')).seats.used).toBe(1);
    expect((await t.rest('GET', '/api/v1/api-tokens', { token: memberToken })).status).toBe(401);
  });

  it("another organisation's user answers NotFoundError exactly like a missing one; deactivating yourself is refused", async () => {
    const a = await team();
    const b = await team();
    const stranger = await b.org.user();
    const foreign = await a.gql(DEACTIVATE, { id: stranger.id });
    const missing = await a.gql(DEACTIVATE, { id: 99_999_999 });
    expect(foreign).toEqual(missing);
    expect(foreign.deactivateUser.__typename).toBe('NotFoundError');
    expect((await a.gql(DEACTIVATE, { id: a.admin.id })).deactivateUser.__typename).toBe('ForbiddenError');
  });
});

describe('reactivateUser: takes a seat; at the limit SeatLimitReachedError (REST: 409 seat_limit_reached)', () => {
  it('reactivates below the limit and refuses at it, counting pending invites', async () => {
    const { gql, org } = await team(3);
    const sleeper = await org.user({ is_active: false });
    const other = await org.user({ is_active: false });
    expect((await gql(REACTIVATE, { id: sleeper.id })).reactivateUser.is_active).toBe(true);
    expect((await gql(INVITE, { email: `fill-${serial}@team.test` })).inviteUser.__typename).toBe('CreatedInvitation');
    const refused = await gql(REACTIVATE, { id: other.id });
    expect(refused.reactivateUser).toMatchObject({ __typename: 'SeatLimitReachedError', seats: { used: 3, limit: 3 } });
    expect((await t.database.prisma.user.findUniqueOrThrow({ where: { id: other.id } })).is_active).toBe(false);
  });
});

describe('setAdmin: never leaves the organisation without an active administrator', () => {
  it('grants and takes away; the last active admin cannot demote themselves (LastAdminError)', async () => {
    const { gql, org, admin } = await team(null);
    const member = await org.user();
    expect((await gql(SET_ADMIN, { id: member.id, isAdmin: true })).setAdmin.is_admin).toBe(true);
    expect((await gql(SET_ADMIN, { id: member.id, isAdmin: false })).setAdmin.is_admin).toBe(false);
    const last = await gql(SET_ADMIN, { id: admin.id, isAdmin: false });
    expect(last.setAdmin).toMatchObject({ __typename: 'LastAdminError', code: 'last_admin' });
    expect((await t.database.prisma.user.findUniqueOrThrow({ where: { id: admin.id } })).is_admin).toBe(true);
  });

  it("an admin's read API token cannot change the team (ForbiddenError); nothing changes", async () => {
    const { org, token } = await team(null);
    const member = await org.user();
    const read = (await t.rest('POST', '/api/v1/api-tokens', { token, body: { name: 'r', scope: 'read' } })).body.token;
    for (const [query, field] of [
      [SET_ADMIN, 'setAdmin'],
      [DEACTIVATE, 'deactivateUser'],
    ] as const) {
      const out = await t.graphql(read).request<any>(query, { id: member.id, isAdmin: true });
      expect(out[field].__typename, field).toBe('ForbiddenError');
    }
    expect(await t.database.prisma.user.findUniqueOrThrow({ where: { id: member.id } })).toMatchObject({
      is_admin: false,
      is_active: true,
    });
  });

  it('a member (not an admin) cannot use the team mutations (ForbiddenError)', async () => {
    const { org } = await team(null);
    const member = await org.user();
    const token = (await t.login(member.email)).access;
    const out = await t.graphql(token).request<any>(SET_ADMIN, { id: member.id, isAdmin: true });
    expect(out.setAdmin.__typename).toBe('ForbiddenError');
  });
});

describe('the last seat under concurrency: exactly one of the racing invitations and reactivations wins', () => {
  it('10 invitations and 10 reactivations race for one free seat: one wins, 19 SeatLimitReachedError', async () => {
    const { gql, org } = await team(2); // the admin holds one seat: one is free
    const sleepers = [];
    for (let i = 0; i < 10; i += 1) sleepers.push(await org.user({ is_active: false }));
    const answers = await Promise.all([
      ...sleepers.map((s) => gql(REACTIVATE, { id: s.id }).then((r) => r.reactivateUser.__typename)),
      ...sleepers.map((_, i) =>
        gql(INVITE, { email: `race-${serial}-${i}@team.test` }).then((r) => r.inviteUser.__typename),
      ),
    ]);
    expect(answers.filter((a) => a === 'SeatLimitReachedError')).toHaveLength(19);
    expect(answers.filter((a) => a === 'User' || a === 'CreatedInvitation')).toHaveLength(1);
    expect((await gql('{ seats { ... on Seats { used limit } } }')).seats).toEqual({ used: 2, limit: 2 });
  });

  it('two processes: 10 invitations through each for one free seat, exactly one wins', async () => {
    const second = await startTestApp({ shareDatabaseWith: t });
    try {
      const { token, org } = await team(2);
      const via = (app: TestApp, i: number) =>
        app
          .graphql(token)
          .request<any>(INVITE, { email: `two-${serial}-${i}@team.test` })
          .then((r) => r.inviteUser.__typename);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => via(i % 2 ? second : t, i)));
      expect(answers.filter((a) => a === 'CreatedInvitation')).toHaveLength(1);
      expect(await t.database.prisma.invitation.count({ where: { organisation_id: org.id } })).toBe(1);
    } finally {
      await second.close();
    }
  });
});

describe('account notifications: seat and token changes queue one row for each admin and the user concerned', () => {
  it('deactivate and reactivate queue for the admins and the user; a name edit queues nothing', async () => {
    const { gql, org, admin, token } = await team(null);
    const member = await org.user();
    const count = (userId: number) =>
      t.database.prisma.notification.count({ where: { user_id: userId, category: 'account' } });
    const [a0, m0] = [await count(admin.id), await count(member.id)];
    await gql(DEACTIVATE, { id: member.id });
    await gql(REACTIVATE, { id: member.id });
    await t.rest('PUT', `/api/v1/users/${member.id}`, { token, body: { first_name: 'Renamed' } });
    expect([await count(admin.id), await count(member.id)]).toEqual([a0 + 2, m0 + 2]);
  });

  it('creating and revoking an API token queue for its owner and their admins; a repeated revoke queues nothing', async () => {
    const { org, admin } = await team(null);
    const member = await org.user();
    const session = (await t.login(member.email)).access;
    const count = (userId: number) =>
      t.database.prisma.notification.count({ where: { user_id: userId, category: 'account' } });
    const [a0, m0] = [await count(admin.id), await count(member.id)];
    const created = await t.rest('POST', '/api/v1/api-tokens', { token: session, body: { name: 'ci', scope: 'read' } });
    expect(created.status).toBe(201);
    await t.rest('DELETE', `/api/v1/api-tokens/${created.body.id}`, { token: session });
    await t.rest('DELETE', `/api/v1/api-tokens/${created.body.id}`, { token: session });
    expect([await count(admin.id), await count(member.id)]).toEqual([a0 + 2, m0 + 2]);
    const rows = await t.database.prisma.notification.findMany({ where: { user_id: member.id, category: 'account' } });
    expect(JSON.stringify(rows)).not.toContain(created.body.token);
  });
});
