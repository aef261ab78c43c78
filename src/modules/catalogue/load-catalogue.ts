/**
 * Loads a catalogue file (docs/catalogue-format.md) into the database in ONE transaction: with `reset` every app table
 * is emptied first; the file is then re-validated against what the database holds (references may point at existing
 * rows; ids, emails and group names must be new), inserted with its own ids, and every id sequence is moved past the
 * largest id so later inserts do not collide. Any failure rolls everything back, the emptying included.
 */
import type { Prisma, PrismaClient } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { hashPassword } from '../auth/index.ts';
import {
  CATALOGUE_KEYS,
  CatalogueFileError,
  emptyExisting,
  parseCatalogueFile,
  planNameOf,
  planOverridesOf,
  type CatalogueAsset,
  type CatalogueFile,
  type CatalogueKey,
  type ExistingCatalogue,
} from './catalogue-file.ts';
import { ASSET_STATE_UNCHECKED, productAsStored } from './model.ts';

/**
 * Every app table (the schema's @@map names) except `_prisma_migrations` and `catalogue_state`; the implicit
 * many-to-many tables are included. test/catalogue/load-catalogue.test.ts fails when a migration adds a table
 * that is missing here.
 */
export const RESET_TABLES = [
  'organisations',
  'users',
  'invitations',
  'groups',
  'permissions',
  '_UserGroups',
  '_GroupPermissions',
  'sessions',
  'refresh_tokens',
  'api_tokens',
  'rate_counters',
  'sign_in_throttles',
  'daily_usage',
  'subscriptions',
  'assets',
  'products',
  'rate_brackets',
  'asset_rate_brackets',
  'approvals',
  'approval_rate_brackets',
  'rate_card_versions',
  'rate_card_states',
  'rate_card_follows',
  'scenarios',
  'scenario_repricings',
  'catalogue_changes',
  'notification_preferences',
  'devices',
  'issue_reports',
  'mcp_connections',
  'notifications',
  'notification_outbox',
  'processed_webhook_events',
  'builtin_checkout_sessions',
] as const;

/** Tables the file writes explicit ids into: their sequences are moved past max(id) after loading. */
const ID_TABLES = [
  'organisations',
  'users',
  'assets',
  'products',
  'rate_brackets',
  'asset_rate_brackets',
  'approvals',
  'groups',
  'permissions',
  'subscriptions',
] as const;

export type CatalogueCounts = Record<CatalogueKey, number>;

export interface LoadOptions {
  reset: boolean;
}

/** Organisations, groups, ids and owners already in the database (what a file loaded without --reset may refer to). */
export async function readExistingCatalogue(db: Db): Promise<ExistingCatalogue> {
  const [organisations, groups, users, subscriptions, assets, products, brackets, mappings, approvals] =
    await Promise.all([
      db.organisation.findMany({ select: { id: true, type: true } }),
      db.group.findMany({ select: { name: true } }),
      db.user.findMany({ select: { id: true, email: true } }),
      db.subscription.findMany({ select: { organisation_id: true } }),
      db.asset.findMany({ select: { id: true, parent_id: true } }),
      db.product.findMany({ select: { id: true, organisation_id: true } }),
      db.rateBracket.findMany({ select: { id: true, organisation_id: true, product_id: true } }),
      db.assetRateBracket.findMany({ select: { id: true } }),
      db.approval.findMany({ select: { id: true } }),
    ]);
  return {
    organisations: new Map(organisations.map((o) => [o.id, o.type])),
    groups: new Set(groups.map((g) => g.name)),
    users: new Set(users.map((u) => u.id)),
    emails: new Set(users.map((u) => u.email.toLowerCase())),
    subscriptions: new Set(subscriptions.map((s) => s.organisation_id)),
    assets: new Map(assets.map((a) => [a.id, a.parent_id])),
    products: new Map(products.map((p) => [p.id, p.organisation_id])),
    rate_brackets: new Map(
      brackets.map((b) => [b.id, { organisation_id: b.organisation_id, product_id: b.product_id }]),
    ),
    asset_rate_brackets: new Set(mappings.map((m) => m.id)),
    approvals: new Set(approvals.map((a) => a.id)),
  };
}

/** True when the database holds no organisation and no user (the start-up seed's condition). */
export async function isDatabaseEmpty(prisma: Db): Promise<boolean> {
  const [organisations, users] = await Promise.all([prisma.organisation.count(), prisma.user.count()]);
  return organisations === 0 && users === 0;
}

/** Parents before children, so no insert batch refers to an asset a later batch creates. */
function parentsFirst(assets: CatalogueAsset[]): CatalogueAsset[] {
  const byId = new Map(assets.map((a) => [a.id, a]));
  const done = new Set<number>();
  const out: CatalogueAsset[] = [];
  const visit = (a: CatalogueAsset) => {
    if (done.has(a.id)) return;
    done.add(a.id); // the file was validated acyclic; marking first also makes this terminate regardless
    const p = a.parent_id == null ? undefined : byId.get(a.parent_id);
    if (p) visit(p);
    out.push(a);
  };
  assets.forEach(visit);
  return out;
}

const omit = <T extends object, K extends keyof T>(o: T, ...keys: K[]): Omit<T, K> => {
  const copy = { ...o };
  for (const k of keys) delete copy[k];
  return copy;
};
const money = (v: number | string | null | undefined) => (v === undefined || v === null ? v : String(v));

/**
 * Loads `file` (validated again here, against the database inside the transaction) and answers how many items of
 * each key were written. Throws CatalogueFileError (with the path of the first bad field) or the database's error;
 * either way nothing is written.
 */
export async function loadCatalogue(
  prisma: PrismaClient,
  file: CatalogueFile,
  { reset }: LoadOptions,
): Promise<CatalogueCounts> {
  // bcrypt is slow on purpose: hash before the transaction opens, so it holds no lock meanwhile. One salt per user,
  // so users who share a password do not share a hash.
  const hashes: string[] = [];
  for (const u of file.users ?? []) hashes.push(typeof u.password === 'string' ? await hashPassword(u.password) : '');

  return prisma.$transaction(
    async (tx) => {
      if (reset) {
        await tx.$executeRawUnsafe(`TRUNCATE ${RESET_TABLES.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY CASCADE`);
      }
      const checked = parseCatalogueFile(file, reset ? emptyExisting() : await readExistingCatalogue(tx));
      if (!checked.ok) throw new CatalogueFileError(checked.path, checked.message);
      const f = checked.value;

      if (f.organisations.length) {
        await tx.organisation.createMany({
          data: f.organisations.map((o) => ({
            id: o.id,
            name: o.name,
            type: o.type,
            abn: o.abn,
            is_bid_broker: o.is_bid_broker,
            plan: o.plan,
            plan_overrides: planOverridesOf(o) as Prisma.InputJsonObject,
          })),
        });
      }

      // Permissions: one row per codename a group uses (existing rows kept). Groups, then their members.
      const codenames = [...new Set(f.groups.flatMap((g) => g.permissions ?? []))];
      if (codenames.length)
        await tx.permission.createMany({ data: codenames.map((codename) => ({ codename })), skipDuplicates: true });
      if (f.groups.length) await tx.group.createMany({ data: f.groups.map((g) => ({ name: g.name })) });

      if (f.users.length) {
        await tx.user.createMany({
          data: f.users.map((u, i) => ({ ...omit(u, 'password', 'groups'), password_hash: hashes[i] })),
        });
      }
      const members = new Map<string, number[]>();
      for (const u of f.users) for (const g of u.groups ?? []) members.set(g, [...(members.get(g) ?? []), u.id]);
      const groupNames = new Set([...f.groups.map((g) => g.name), ...members.keys()]);
      for (const name of groupNames) {
        const permissions = f.groups.find((g) => g.name === name)?.permissions ?? [];
        const users = members.get(name) ?? [];
        if (!permissions.length && !users.length) continue;
        await tx.group.update({
          where: { name },
          data: {
            permissions: { connect: permissions.map((codename) => ({ codename })) },
            users: { connect: users.map((id) => ({ id })) },
          },
        });
      }

      if (f.subscriptions.length) {
        await tx.subscription.createMany({
          data: f.subscriptions.map((s) => ({
            ...s,
            plan_name: planNameOf(s),
            trial_end: s.trial_end == null ? s.trial_end : new Date(s.trial_end),
            current_period_end: s.current_period_end == null ? s.current_period_end : new Date(s.current_period_end),
          })),
        });
      }

      if (f.assets.length) await tx.asset.createMany({ data: parentsFirst(f.assets) });
      if (f.products.length) await tx.product.createMany({ data: f.products.map(productAsStored) });
      if (f.rate_brackets.length) await tx.rateBracket.createMany({ data: f.rate_brackets });
      if (f.asset_rate_brackets.length) await tx.assetRateBracket.createMany({ data: f.asset_rate_brackets });

      if (f.approvals.length) {
        await tx.approval.createMany({
          data: f.approvals.map((a) => ({
            ...omit(a, 'rate_bracket_ids'),
            asset_state: a.asset_state ?? ASSET_STATE_UNCHECKED,
            min_deposit_percentage: money(a.min_deposit_percentage),
            min_deposit_amount: money(a.min_deposit_amount),
            min_asset_cost: money(a.min_asset_cost),
            max_asset_cost: money(a.max_asset_cost),
          })),
        });
        const links = f.approvals.flatMap((a) =>
          (a.rate_bracket_ids ?? []).map((rate_bracket_id) => ({ approval_id: a.id, rate_bracket_id })),
        );
        if (links.length) await tx.approvalRateBracket.createMany({ data: links });
      }

      for (const table of ID_TABLES) {
        await tx.$queryRawUnsafe(
          `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), coalesce(max(id), 1), max(id) IS NOT NULL) FROM "${table}"`,
        );
      }
      return Object.fromEntries(CATALOGUE_KEYS.map((k) => [k, f[k].length])) as CatalogueCounts;
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}
