/**
 * Who may edit the shared asset tree (spec Authentication 10: "Asset edits need permission to edit equipment";
 * docs/asset-tree.md, "Who may edit the tree"). The tree is one for every tenant, so `change_equipment` is the
 * operator's grant: no organisation admin holds it by being one, none can hand it out through a group, and MCP has
 * no tool that edits the tree. The demo's financier.admin holds it through the operator's "Equipment editors" group.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  equipmentEditors,
  grantEquipmentEditing,
  revokeEquipmentEditing,
} from '../../src/modules/auth/equipment-editors.ts';
import { DEMO_DEAL } from '../../testkit/demo.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit, type SeedKit } from '../../testkit/seed.ts';

let t: TestApp;
let kit: SeedKit;
/** Organisation admins who were never given the right, and the demo's financier admin, who was. */
let callers: { name: string; token: string }[];
let editor: string;
beforeAll(async () => {
  t = await startTestApp();
  kit = seedKit(t.database.prisma);
  const lender = await kit.financier();
  const lenderAdmin = await lender.user({ is_admin: true });
  callers = [
    { name: 'a Free broker admin', token: (await t.login('free.broker@demo.test')).access },
    { name: 'a Pro broker admin', token: (await t.login('broker.admin@demo.test')).access },
    { name: 'a financier admin without the grant', token: (await t.login(lenderAdmin.email)).access },
  ];
  editor = (await t.login('financier.admin@demo.test')).access;
});
afterAll(async () => {
  await t?.close();
});

const row = (id: number) => t.database.prisma.asset.findUniqueOrThrow({ where: { id } });
const patch = (id: number, body: unknown, token: string) => t.rest('PATCH', `/api/v1/assets/${id}`, { token, body });
const EDITS = `mutation($id: Int!) {
  c: createAsset(input: { name: "Planted" }) { __typename }
  u: updateAsset(id: $id, input: { name: "Renamed" }) { __typename }
  d: deleteAsset(id: $id) { __typename }
  r: restoreAsset(id: $id) { __typename } }`;
const FORBIDDEN = { __typename: 'ForbiddenError' };

describe('Organisation admins do not hold permission to edit equipment: 403, nothing written', () => {
  it('PATCH /assets/{id} (rename, delete) answers 403 to every organisation admin without the grant', async () => {
    const leaf = await kit.asset({ name: 'Shared leaf' });
    for (const { name, token } of callers) {
      for (const body of [{ name: 'Renamed' }, { name: 'Shared leaf', is_deleted: true }]) {
        const res = await patch(leaf.id, body, token);
        expect(res.status, name).toBe(403);
        expect(res.body).toEqual({ error: expect.any(String) });
      }
    }
    expect(await row(leaf.id)).toMatchObject({ name: 'Shared leaf', is_deleted: false });
  });

  it('createAsset, updateAsset, deleteAsset and restoreAsset answer ForbiddenError to each of them', async () => {
    const leaf = await kit.asset({ name: 'Guarded leaf' });
    const count = await t.database.prisma.asset.count();
    for (const { name, token } of callers) {
      const res = await t.graphql(token).request(EDITS, { id: leaf.id });
      expect(res, name).toEqual({ c: FORBIDDEN, u: FORBIDDEN, d: FORBIDDEN, r: FORBIDDEN });
    }
    expect(await t.database.prisma.asset.count()).toBe(count);
    expect(await row(leaf.id)).toMatchObject({ name: 'Guarded leaf', is_deleted: false });
  });

  it("a Free broker's deleteAsset(11) leaves asset 11 priced for every broker", async () => {
    const [free] = callers;
    const res = await t.graphql(free.token).request<any>('mutation { deleteAsset(id: 11) { __typename } }');
    expect(res.deleteAsset).toEqual(FORBIDDEN);
    const priced = await t.rest('POST', '/api/v1/calculator', { token: callers[1].token, body: DEMO_DEAL });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
  });

  it("the demo financier admin, given the right by the operator's group, edits over REST and GraphQL", async () => {
    const leaf = await kit.asset({ name: 'Editable' });
    expect((await patch(leaf.id, { name: 'Edited over REST' }, editor)).status).toBe(200);
    const res = await t.graphql(editor).request<any>(EDITS, { id: leaf.id });
    expect(res).toEqual({
      c: { __typename: 'Asset' },
      u: { __typename: 'Asset' },
      d: { __typename: 'Asset' },
      r: { __typename: 'Asset' },
    });
  });
});

describe('An organisation admin cannot hand the right out through groups', () => {
  const INVITE = `mutation($email: String!, $groups: [String!]) {
    inviteUser(email: $email, groupNames: $groups) { __typename ... on Error { message } } }`;

  it('inviting into a group that grants change_equipment answers ForbiddenError; nothing is stored', async () => {
    for (const { name, token } of callers) {
      const email = `helper.${callers.findIndex((c) => c.token === token)}@example.test`;
      const res = await t.graphql(token).request<any>(INVITE, { email, groups: ['Equipment editors'] });
      expect(res.inviteUser.__typename, name).toBe('ForbiddenError');
      expect(res.inviteUser.message).toMatch(/operator/);
      expect(await t.database.prisma.invitation.count({ where: { email } })).toBe(0);
    }
  });

  it('a group that comes to grant it after the invitation is left out on acceptance', async () => {
    await kit.group({ name: 'Later widened', permissions: ['change_approval'] });
    const invited = await t.graphql(callers[1].token).request<any>(
      `mutation { inviteUser(email: "late.joiner@example.test", groupNames: ["Later widened"]) {
        __typename ... on CreatedInvitation { secret } } }`,
    );
    expect(invited.inviteUser.__typename).toBe('CreatedInvitation');
    await kit.group({ name: 'Later widened', permissions: ['change_approval', 'change_equipment'] });
    const accepted = await t.graphql().request<any>(
      `mutation($token: String!) { acceptInvitation(token: $token, password: "a-long-password-1") {
        __typename ... on User { groups { name } } } }`,
      { token: invited.inviteUser.secret },
    );
    expect(accepted.acceptInvitation).toEqual({ __typename: 'User', groups: [] });
    const token = (await t.login('late.joiner@example.test', 'a-long-password-1')).access;
    const leaf = await kit.asset();
    expect((await patch(leaf.id, { name: 'Not by a late joiner' }, token)).status).toBe(403);
  });
});

describe('The operator grants and withdraws the right (npm run equipment-editors)', () => {
  it('grant lets a broker admin edit; revoke takes it away again', async () => {
    const leaf = await kit.asset({ name: 'Operator managed' });
    await grantEquipmentEditing(t.database.prisma, '  FREE.broker@demo.test ');
    expect(await equipmentEditors(t.database.prisma)).toContain('free.broker@demo.test');
    const granted = (await t.login('free.broker@demo.test')).access;
    expect((await patch(leaf.id, { name: 'Edited by a granted broker' }, granted)).status).toBe(200);

    const revoked = await revokeEquipmentEditing(t.database.prisma, 'free.broker@demo.test');
    expect(revoked.groups).toEqual(['Equipment editors']);
    expect(await equipmentEditors(t.database.prisma)).not.toContain('free.broker@demo.test');
    expect((await patch(leaf.id, { name: 'Edited again' }, granted)).status).toBe(403);
    expect((await row(leaf.id)).name).toBe('Edited by a granted broker');
  });

  it('an unknown email is refused', async () => {
    await expect(grantEquipmentEditing(t.database.prisma, 'nobody@example.test')).rejects.toThrow(/No user/);
  });
});

describe('MCP: no tool edits the asset tree, whoever holds the token', () => {
  it("a Free broker admin's read_write MCP token lists no asset edit, and calling one is an error", async () => {
    const minted = await t.rest('POST', '/api/v1/api-tokens', {
      token: callers[0].token,
      body: { name: 'assistant', scope: 'read_write', origin: 'mcp' },
    });
    expect(minted.status).toBe(201);
    const client = new Client({ name: 'Rights test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).filter((name) => /asset/.test(name))).toEqual(['search_assets']);
      const call = await client.callTool({ name: 'delete_asset', arguments: { id: 11 } }).then(
        (r) => r.isError === true,
        () => true,
      );
      expect(call).toBe(true);
      // The MCP token is refused at the REST endpoint too (only POST /mcp accepts it).
      expect((await patch(11, { name: 'Via MCP token' }, minted.body.token)).status).toBe(403);
      expect((await row(11)).is_deleted).toBe(false);
    } finally {
      await client.close();
    }
  });
});
