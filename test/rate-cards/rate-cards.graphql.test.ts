/**
 * The rate card over GraphQL (the surface the app and the assistant use): brackets and mappings as versioned
 * changes, the card and its connections, version history (list, pin, label, retention), following and the
 * `rate_card` notification, and how a version records where a change came from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/lib/caller.ts';
import { newApiTokenSecret, sha256 } from '../../src/modules/auth/tokens.ts';
import { RATE_CARD_VERSION_RETENTION, changeRateCard } from '../../src/modules/rate-cards/index.ts';
import { startTestApp, type TestApp } from '../../testkit/app.ts';
import { seedKit } from '../../testkit/seed.ts';

let t: TestApp;
let admin: string; // financier.admin@demo.test, financier 1
let viewer: string;
let broker: string;
let adminId: number;
let brokerUserId: number;

beforeAll(async () => {
  t = await startTestApp();
  const kit = seedKit(t.database.prisma);
  await kit.user({
    email: 'viewer@fin1.test',
    organisation: 1,
    groups: [{ name: 'rc-viewers', permissions: ['view_rate_card_version'] }],
  });
  admin = (await t.login('financier.admin@demo.test')).access;
  viewer = (await t.login('viewer@fin1.test')).access;
  broker = (await t.login('broker.admin@demo.test')).access;
  adminId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'financier.admin@demo.test' } })).id;
  brokerUserId = (await t.database.prisma.user.findUniqueOrThrow({ where: { email: 'broker.admin@demo.test' } })).id;
});
afterAll(async () => {
  await t?.close();
});

const gql = async (token: string, query: string, variables?: Record<string, unknown>): Promise<any> =>
  t.graphql(token).request(query, variables);
const CHANGE = `__typename ... on RateCardChange { card_version deleted_id restore_point { id resource reason origin } asset_mapping_restore_point { id resource }
  product { id product_name } rate_bracket { id name product_id base_min base_max } asset_mapping { id asset asset_id product_id rate_bracket_id } }
  ... on Error { message } ... on ValidationError { errors { field messages } } ... on RateCardVersionConflictError { current_version }`;

describe('Rate brackets: created, changed and deleted as versioned changes of the rate card', () => {
  it('create, update (bounds checked against the stored record), delete; each bumps the card version', async () => {
    const card: any = await gql(admin, '{ rateCard { __typename ... on RateCard { version products { id } } } }');
    const start = card.rateCard.version;
    const productId = card.rateCard.products[0].id;
    const created = await gql(
      admin,
      `mutation($p: Int!) { createRateBracket(input: {name: "Tier A", product_id: $p, base_min: 7.5, base_max: 9.5, max_term: 60}) { ${CHANGE} } }`,
      { p: productId },
    );
    expect(created.createRateBracket).toMatchObject({ __typename: 'RateCardChange', card_version: start + 1 });
    const id = created.createRateBracket.rate_bracket.id;
    const bad = await gql(
      admin,
      `mutation($id: Int!) { updateRateBracket(id: $id, input: {base_min: 12}) { ${CHANGE} } }`,
      { id },
    );
    expect(bad.updateRateBracket.__typename).toBe('ValidationError');
    expect(bad.updateRateBracket.errors.map((e: any) => e.field)).toEqual(['base_min']);
    const changed = await gql(
      admin,
      `mutation($id: Int!, $v: Int) { updateRateBracket(id: $id, input: {base_min: 8}, expectedVersion: $v) { ${CHANGE} } }`,
      { id, v: start + 1 },
    );
    expect(changed.updateRateBracket.rate_bracket.base_min).toBe(8);
    const deleted = await gql(admin, `mutation($id: Int!) { deleteRateBracket(id: $id) { ${CHANGE} } }`, { id });
    expect(deleted.deleteRateBracket).toMatchObject({ deleted_id: id, card_version: start + 3 });
  });

  it('a bracket of another organisation’s product is refused on product_id; missing fields are named', async () => {
    const foreign = await t.database.prisma.product.findFirstOrThrow({ where: { organisation_id: 2 } });
    const res = await gql(
      admin,
      `mutation($p: Int!) { createRateBracket(input: {name: "X", product_id: $p, base_min: 1, base_max: 2}) { ${CHANGE} } }`,
      { p: foreign.id },
    );
    expect(res.createRateBracket.__typename).toBe('ValidationError');
    expect(res.createRateBracket.errors[0].field).toBe('product_id');
  });

  it('a broker (no card) is refused with ForbiddenError', async () => {
    const res = await gql(broker, `mutation { createProduct(input: {product_name: "Mine"}) { ${CHANGE} } }`);
    expect(res.createProduct.__typename).toBe('ForbiddenError');
  });
});

describe('Asset mappings: their own series; deleting a mapped product records both series', () => {
  it('maps, refuses a duplicate and an unknown asset, and a product deletion takes its mappings (two restore points)', async () => {
    const p = await gql(admin, `mutation { createProduct(input: {product_name: "Mapped"}) { ${CHANGE} } }`);
    const productId = p.createProduct.product.id;
    const b = await gql(
      admin,
      `mutation($p: Int!) { createRateBracket(input: {name: "M1", product_id: $p, base_min: 5, base_max: 6}) { ${CHANGE} } }`,
      { p: productId },
    );
    const bracketId = b.createRateBracket.rate_bracket.id;
    const mapped = await gql(
      admin,
      `mutation($p: Int!, $b: Int) { createAssetMapping(input: {asset_id: 11, product_id: $p, rate_bracket_id: $b}) { ${CHANGE} } }`,
      { p: productId, b: bracketId },
    );
    expect(mapped.createAssetMapping.restore_point.resource).toBe('asset_mapping');
    expect(mapped.createAssetMapping.asset_mapping).toMatchObject({
      asset_id: 11,
      product_id: productId,
      rate_bracket_id: bracketId,
    });
    const twin = await gql(
      admin,
      `mutation($p: Int!, $b: Int) { createAssetMapping(input: {asset_id: 11, product_id: $p, rate_bracket_id: $b}) { ${CHANGE} } }`,
      { p: productId, b: bracketId },
    );
    expect(twin.createAssetMapping.__typename).toBe('ValidationError');
    const unknown = await gql(
      admin,
      `mutation($p: Int!) { createAssetMapping(input: {asset_id: 99999, product_id: $p}) { ${CHANGE} } }`,
      { p: productId },
    );
    expect(unknown.createAssetMapping.errors.map((e: any) => e.field)).toEqual(['asset_id']);

    const deleted = await gql(admin, `mutation($p: Int!) { deleteProduct(id: $p) { ${CHANGE} } }`, { p: productId });
    expect(deleted.deleteProduct.restore_point.resource).toBe('rate_card');
    expect(deleted.deleteProduct.asset_mapping_restore_point.resource).toBe('asset_mapping');
    expect(await t.database.prisma.assetRateBracket.count({ where: { product_id: productId } })).toBe(0);
    expect(await t.database.prisma.rateBracket.count({ where: { product_id: productId } })).toBe(0);
  });

  it('deleteAssetMapping: another organisation’s mapping is NotFoundError', async () => {
    const foreign = await t.database.prisma.assetRateBracket.findFirstOrThrow({ where: { organisation_id: 2 } });
    const res = await gql(admin, `mutation($id: Int!) { deleteAssetMapping(id: $id) { ${CHANGE} } }`, {
      id: foreign.id,
    });
    expect(res.deleteAssetMapping.__typename).toBe('NotFoundError');
  });
});

describe('Reading the card: brokers read every financier’s, a financier only its own', () => {
  it('rateCard, products and rateBrackets connections', async () => {
    const mine: any = await gql(
      admin,
      '{ rateCard { __typename ... on RateCard { organisation_id version products { id } rate_brackets { id } } } }',
    );
    expect(mine.rateCard.organisation_id).toBe(1);
    const theirs: any = await gql(admin, '{ rateCard(organisationId: 2) { __typename } }');
    expect(theirs.rateCard.__typename).toBe('NotFoundError');
    const asBroker: any = await gql(
      broker,
      '{ rateCard(organisationId: 2) { __typename ... on RateCard { products { id } } } }',
    );
    expect(asBroker.rateCard.__typename).toBe('RateCard');
    const brokerOwn: any = await gql(broker, '{ rateCard { __typename } }');
    expect(brokerOwn.rateCard.__typename).toBe('NotFoundError'); // a broker keeps no card
    const page: any = await gql(
      broker,
      '{ products(organisationId: 2, first: 1) { __typename ... on QueryProductsConnection { edges { node { id organisation_id } } pageInfo { hasNextPage endCursor } } } }',
    );
    expect(page.products.edges).toHaveLength(1);
    expect(page.products.edges[0].node.organisation_id).toBe(2);
    const brackets: any = await gql(
      admin,
      '{ rateBrackets(first: 100) { __typename ... on QueryRateBracketsConnection { edges { node { organisation_id } } } } }',
    );
    expect(brackets.rateBrackets.edges.every((e: any) => e.node.organisation_id === 1)).toBe(true);
  });
});

describe('Version history: listed newest first, pinned and labelled; another organisation is NotFound', () => {
  it('lists the caller’s versions with view_rate_card_version only', async () => {
    const list: any = await gql(
      viewer,
      '{ rateCardVersions(resource: rate_card, first: 3) { __typename ... on QueryRateCardVersionsConnection { edges { node { id resource organisation_id } } } } }',
    );
    const ids = list.rateCardVersions.edges.map((e: any) => e.node.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(list.rateCardVersions.edges.every((e: any) => e.node.resource === 'rate_card')).toBe(true);
    // (A selection of __typename alone is answered without running the resolver: select a field.)
    const other: any = await gql(
      viewer,
      '{ rateCardVersions(organisationId: 2) { __typename ... on QueryRateCardVersionsConnection { edges { node { id } } } } }',
    );
    expect(other.rateCardVersions.__typename).toBe('NotFoundError');
    const brokerUser: any = await t
      .graphql((await t.login('broker.user@demo.test')).access)
      .request('{ rateCardVersions { __typename ... on QueryRateCardVersionsConnection { edges { node { id } } } } }');
    expect(brokerUser.rateCardVersions.__typename).toBe('ForbiddenError');
  });

  it('pin and label (restore permission); a viewer is refused; a long label is a ValidationError', async () => {
    const version = await t.database.prisma.rateCardVersion.findFirstOrThrow({ where: { organisation_id: 1 } });
    const pinned: any = await gql(
      admin,
      `mutation { pinRateCardVersion(id: ${version.id}, pinned: true) { __typename ... on RateCardVersion { pinned } } }`,
    );
    expect(pinned.pinRateCardVersion.pinned).toBe(true);
    const labelled: any = await gql(
      admin,
      `mutation { labelRateCardVersion(id: ${version.id}, label: " Before the March review ") { __typename ... on RateCardVersion { label } } }`,
    );
    expect(labelled.labelRateCardVersion.label).toBe('Before the March review');
    const long: any = await gql(
      admin,
      `mutation { labelRateCardVersion(id: ${version.id}, label: "${'x'.repeat(201)}") { __typename } }`,
    );
    expect(long.labelRateCardVersion.__typename).toBe('ValidationError');
    const refused: any = await gql(
      viewer,
      `mutation { pinRateCardVersion(id: ${version.id}, pinned: false) { __typename } }`,
    );
    expect(refused.pinRateCardVersion.__typename).toBe('ForbiddenError');
    const foreign = await t.database.prisma.rateCardVersion.create({
      data: { organisation_id: 2, resource: 'rate_card', payload: { products: [], rate_brackets: [] } },
    });
    const other: any = await gql(
      admin,
      `mutation { pinRateCardVersion(id: ${foreign.id}, pinned: true) { __typename } }`,
    );
    expect(other.pinRateCardVersion.__typename).toBe('NotFoundError');
  });
});

/** A caller as the service sees one (the assistant and import call the service in-process). */
function callerOf(overrides: Partial<Caller> = {}): Caller {
  return {
    userId: adminId,
    email: 'financier.admin@demo.test',
    isAdmin: true,
    organisation: {
      id: 1,
      name: 'Harbour Equipment Finance',
      type: 'f',
      plan: 'enterprise',
      is_bid_broker: false,
      terms: {} as never,
    },
    permissions: new Set(),
    via: 'session',
    scope: null,
    origin: null,
    sessionId: 'x',
    apiTokenId: null,
    ...overrides,
  };
}

describe(`Retention: the newest ${RATE_CARD_VERSION_RETENTION} unpinned restore points per organisation and series; pinned ones stay`, () => {
  it('prunes the oldest unpinned, keeps every pinned one', async () => {
    const prisma = t.database.prisma;
    const pinned = await prisma.rateCardVersion.findMany({
      where: { organisation_id: 1, resource: 'rate_card', pinned: true },
    });
    expect(pinned.length).toBeGreaterThan(0);
    for (let i = 0; i < RATE_CARD_VERSION_RETENTION + 3; i++)
      await changeRateCard({ prisma }, callerOf(), { resource: 'rate_card', reason: `bulk ${i}` }, async () => null);
    const kept = await prisma.rateCardVersion.findMany({
      where: { organisation_id: 1, resource: 'rate_card' },
      orderBy: { id: 'desc' },
    });
    expect(kept.filter((v) => !v.pinned)).toHaveLength(RATE_CARD_VERSION_RETENTION);
    expect(kept.filter((v) => v.pinned).map((v) => v.id)).toEqual(pinned.map((v) => v.id));
    expect(kept[0].reason).toBe(`bulk ${RATE_CARD_VERSION_RETENTION + 2}`);
    // Another series and another organisation are untouched.
    expect(
      await prisma.rateCardVersion.count({ where: { organisation_id: 1, resource: 'asset_mapping' } }),
    ).toBeGreaterThan(0);
  });
});

describe('Origin: a version records how the change arrived (app, API token, AI assistant with its connection)', () => {
  it('an mcp-origin token is recorded as the assistant, with its connection {id, client_name}', async () => {
    const prisma = t.database.prisma;
    const secret = newApiTokenSecret();
    const token = await prisma.apiToken.create({
      data: {
        user_id: adminId,
        name: 'assistant',
        token_id: secret.tokenId,
        secret_hash: sha256(secret.secret),
        last_four: secret.token.slice(-4),
        scope: 'read_write',
        environment: t.config.environment,
        origin: 'mcp',
        expires_at: new Date(Date.now() + 86_400_000),
      },
    });
    const connection = await prisma.mcpConnection.create({
      data: { user_id: adminId, client_name: 'Claude Desktop', token_id: token.id },
    });
    const caller = callerOf({
      via: 'api_token',
      scope: 'read_write',
      origin: 'mcp',
      apiTokenId: token.id,
      sessionId: null,
    });
    const { version } = await changeRateCard(
      { prisma },
      caller,
      { resource: 'rate_card', reason: 'assistant edit' },
      async () => 1,
    );
    expect(version).toMatchObject({ origin: 'assistant', connection_id: connection.id });
    const listed: any = await gql(
      admin,
      `{ rateCardVersions(first: 1) { __typename ... on QueryRateCardVersionsConnection { edges { node { id origin connection { id client_name } } } } } }`,
    );
    expect(listed.rateCardVersions.edges[0].node).toEqual({
      id: version.id,
      origin: 'assistant',
      connection: { id: connection.id, client_name: 'Claude Desktop' },
    });
  });
});

describe('Following a rate card: its followers (not the actor) are queued a rate_card notification with the change', () => {
  it('follow, change, notification queued in the same transaction; unfollow stops it', async () => {
    const prisma = t.database.prisma;
    const followed: any = await gql(
      broker,
      'mutation { followRateCard(organisationId: 1) { __typename ... on RateCardFollowing { organisation_id following } } }',
    );
    expect(followed.followRateCard).toEqual({ __typename: 'RateCardFollowing', organisation_id: 1, following: true });
    await gql(admin, 'mutation { followRateCard(organisationId: 1) { __typename } }'); // the actor follows its own card
    const before = await prisma.notification.count();
    const change = await gql(admin, `mutation { createProduct(input: {product_name: "Announced"}) { ${CHANGE} } }`);
    const queued = await prisma.notification.findMany({ where: { id: { gt: 0 } }, orderBy: { id: 'desc' }, take: 5 });
    expect(await prisma.notification.count()).toBe(before + 1);
    expect(queued[0]).toMatchObject({ user_id: brokerUserId, category: 'rate_card' });
    expect(queued[0].body).toContain('Announced');
    expect(queued[0].data).toMatchObject({
      organisation_id: 1,
      rate_card_version_id: change.createProduct.restore_point.id,
    });
    // A refused change queues nothing.
    await gql(admin, 'mutation { createProduct(input: {product_name: "Refused"}, expectedVersion: 0) { __typename } }');
    expect(await prisma.notification.count()).toBe(before + 1);
    await gql(broker, 'mutation { unfollowRateCard(organisationId: 1) { __typename } }');
    await gql(admin, `mutation { createProduct(input: {product_name: "Quiet"}) { ${CHANGE} } }`);
    expect(await prisma.notification.count()).toBe(before + 1);
    const hidden: any = await gql(admin, 'mutation { followRateCard(organisationId: 2) { __typename } }');
    expect(hidden.followRateCard.__typename).toBe('NotFoundError'); // a financier sees only its own card
  });
});
