/**
 * The seed kit: builders for the rows tests (and later the benchmark) put in a real database, over a PrismaClient.
 * Every builder has defaults that constrain and charge nothing, takes the spec's field names as overrides, and returns
 * the created record with builders for what hangs off it:
 *
 *   const kit = seedKit(t.database.prisma);
 *   const fin = await kit.financier({ name: 'Join Rule Finance' });
 *   const product = await fin.product({ monthly_fee: 10 });
 *   const bracket = await product.bracket({ base_min: 6, assets: [11] });   // mapped to asset 11
 *   await fin.approval({ doc_level: 'full_doc', brackets: [bracket] });
 *   const broker = await kit.broker({ plan: 'pro', plan_overrides: { calculator_allowance: 2 } });
 *   const user = await broker.user({ email: 'capped@test.example' });      // password DEMO_PASSWORD
 *
 * Rows that belong together (a bracket and its asset mappings, an approval and its bracket links, a user and its
 * groups) are written in one transaction, so a failing builder leaves nothing half-made behind.
 * Names not given are numbered per kit (`Test product 3`), so two calls never collide on a unique column.
 */
import type {
  Approval,
  Asset,
  AssetRateBracket,
  Group,
  Organisation,
  Permission,
  Prisma,
  PrismaClient,
  Product,
  RateBracket,
  User,
} from '../src/generated/prisma/client.ts';
import type { PlanOverrides } from '../src/lib/plans.ts';
import { DEMO_PASSWORD } from './demo.ts';
import { testPasswordHash } from './passwords.ts';

/** A row, or its id. */
export type Ref = number | { id: number };
const idOf = (ref: Ref): number => (typeof ref === 'number' ? ref : ref.id);

type OrganisationFields = Omit<Prisma.OrganisationUncheckedCreateInput, 'id' | 'type' | 'plan_overrides'> & {
  plan_overrides?: PlanOverrides;
};
export type ProductInput = Partial<Omit<Prisma.ProductUncheckedCreateInput, 'id' | 'organisation_id'>>;
export type BracketInput = Partial<
  Omit<Prisma.RateBracketUncheckedCreateInput, 'id' | 'organisation_id' | 'product_id'>
> & {
  /** Assets (categories or leaves) this bracket is mapped to, in the same transaction. */
  assets?: Ref[];
};
export type ApprovalInput = Partial<Omit<Prisma.ApprovalUncheckedCreateInput, 'id' | 'organisation_id'>> & {
  /** Rate brackets the approval is linked to (the Matrix Calculator's join), in the same transaction. */
  brackets?: Ref[];
};
export type AssetInput = Partial<Omit<Prisma.AssetUncheckedCreateInput, 'id' | 'parent_id'>> & { parent?: Ref | null };
export interface GroupInput {
  name: string;
  permissions?: string[];
}
export interface UserInput {
  email?: string;
  /** Plain text, hashed as sign-in hashes it; default DEMO_PASSWORD. */
  password?: string;
  first_name?: string;
  last_name?: string;
  is_admin?: boolean;
  is_active?: boolean;
  is_email_verified?: boolean;
  /** The user's organisation; absent or null: a user of no organisation. */
  organisation?: Ref | null;
  /** Groups by name (made, with their permissions, when they do not exist yet). */
  groups?: (string | GroupInput)[];
}

export type UserSeed = User & { password: string; groups: (Group & { permissions: Permission[] })[] };
export type BracketSeed = RateBracket & {
  /** Maps this one bracket to more assets. */
  mapTo(...assets: Ref[]): Promise<AssetRateBracket[]>;
};
export type ProductSeed = Product & {
  bracket(input?: BracketInput): Promise<BracketSeed>;
  /** Maps the whole product (every bracket, rate_bracket_id null) to assets. */
  mapTo(...assets: Ref[]): Promise<AssetRateBracket[]>;
};
type ApprovalSeed = Approval & { rate_bracket_ids: number[] };
export type FinancierSeed = Organisation & {
  product(input?: ProductInput): Promise<ProductSeed>;
  approval(input?: ApprovalInput): Promise<ApprovalSeed>;
  user(input?: Omit<UserInput, 'organisation'>): Promise<UserSeed>;
};
export type BrokerSeed = Organisation & {
  user(input?: Omit<UserInput, 'organisation'>): Promise<UserSeed>;
};
export type AssetSeed = Asset & { child(input?: Omit<AssetInput, 'parent'>): Promise<AssetSeed> };

export type SeedKit = ReturnType<typeof seedKit>;

export function seedKit(prisma: PrismaClient) {
  let seq = 0;
  const next = () => ++seq;

  async function map(
    organisation_id: number,
    product_id: number,
    rate_bracket_id: number | null,
    assets: Ref[],
    db: Prisma.TransactionClient | PrismaClient = prisma,
  ) {
    if (assets.length === 0) return [];
    return db.assetRateBracket.createManyAndReturn({
      data: assets.map((a) => ({ asset_id: idOf(a), organisation_id, product_id, rate_bracket_id })),
    });
  }

  function bracketSeed(bracket: RateBracket): BracketSeed {
    return { ...bracket, mapTo: (...assets) => map(bracket.organisation_id, bracket.product_id, bracket.id, assets) };
  }

  function productSeed(product: Product): ProductSeed {
    const organisation_id = product.organisation_id;
    if (organisation_id === null) throw new Error(`product ${product.id} has no organisation`);
    return {
      ...product,
      async bracket({ assets = [], ...input } = {}) {
        const n = next();
        const base_min = input.base_min ?? 8;
        const bracket = await prisma.$transaction(async (tx) => {
          const created = await tx.rateBracket.create({
            data: {
              name: `Bracket ${n} at ${base_min}`,
              base_max: base_min + 2,
              ...input,
              base_min,
              organisation_id,
              product_id: product.id,
            },
          });
          await map(organisation_id, product.id, created.id, assets, tx);
          return created;
        });
        return bracketSeed(bracket);
      },
      mapTo: (...assets) => map(organisation_id, product.id, null, assets),
    };
  }

  async function user({
    password = DEMO_PASSWORD,
    organisation = null,
    groups = [],
    ...input
  }: UserInput = {}): Promise<UserSeed> {
    const n = next();
    const created = await prisma.user.create({
      data: {
        email: `user.${n}@kit.test`,
        is_active: true,
        is_email_verified: true,
        ...input,
        password_hash: await testPasswordHash(password),
        organisation_id: organisation === null ? null : idOf(organisation),
        groups: { connectOrCreate: groups.map((g) => groupUpsert(typeof g === 'string' ? { name: g } : g)) },
      },
      include: { groups: { include: { permissions: true } } },
    });
    return { ...created, password };
  }

  const groupUpsert = ({ name, permissions = [] }: GroupInput) => ({
    where: { name },
    create: {
      name,
      permissions: { connectOrCreate: permissions.map((codename) => ({ where: { codename }, create: { codename } })) },
    },
  });

  function financierSeed(organisation: Organisation): FinancierSeed {
    return {
      ...organisation,
      async product(input = {}) {
        const n = next();
        return productSeed(
          await prisma.product.create({
            data: {
              product_name: `Test product ${n}`,
              compounding_frequency: 'm',
              ...input,
              organisation_id: organisation.id,
            },
          }),
        );
      },
      async approval({ brackets = [], ...input } = {}) {
        const n = next();
        const rate_bracket_ids = brackets.map(idOf);
        const approval = await prisma.$transaction(async (tx) => {
          const created = await tx.approval.create({
            data: { name: `Approval ${n}`, doc_level: 'low_doc', ...input, organisation_id: organisation.id },
          });
          if (rate_bracket_ids.length) {
            await tx.approvalRateBracket.createMany({
              data: rate_bracket_ids.map((rate_bracket_id) => ({ approval_id: created.id, rate_bracket_id })),
            });
          }
          return created;
        });
        return { ...approval, rate_bracket_ids };
      },
      user: (input = {}) => user({ ...input, organisation: organisation.id }),
    };
  }

  function assetSeed(asset: Asset): AssetSeed {
    return { ...asset, child: (input = {}) => kit.asset({ ...input, parent: asset.id }) };
  }

  const organisation = (type: 'f' | 'b', { plan_overrides, ...input }: OrganisationFields) =>
    prisma.organisation.create({
      data: { ...input, type, ...(plan_overrides ? { plan_overrides: plan_overrides as Prisma.InputJsonObject } : {}) },
    });

  const kit = {
    prisma,

    /** A financier organisation (type f), on Enterprise unless told. */
    async financier(input: Partial<OrganisationFields> = {}): Promise<FinancierSeed> {
      const n = next();
      return financierSeed(await organisation('f', { name: `Test Finance ${n}`, plan: 'enterprise', ...input }));
    },

    /** An existing financier organisation (the demo's, say), to add products, brackets and approvals to. */
    async financierOf(ref: Ref): Promise<FinancierSeed> {
      return financierSeed(await prisma.organisation.findUniqueOrThrow({ where: { id: idOf(ref), type: 'f' } }));
    },

    /** A broker organisation (type b): the schema's defaults (Free, not a BID broker) unless told. */
    async broker(input: Partial<OrganisationFields> = {}): Promise<BrokerSeed> {
      const n = next();
      const created = await organisation('b', { name: `Test Brokers ${n}`, ...input });
      return { ...created, user: (u = {}) => user({ ...u, organisation: created.id }) };
    },

    /** Replaces an organisation's plan_overrides (grants beyond its plan; {} = the plan's terms). */
    async planOverrides(ref: Ref, plan_overrides: PlanOverrides): Promise<Organisation> {
      return prisma.organisation.update({
        where: { id: idOf(ref) },
        data: { plan_overrides: plan_overrides as Prisma.InputJsonObject },
      });
    },

    /** A user: active, email verified, password DEMO_PASSWORD, of no organisation, unless told. */
    user,

    /** A group with permissions (codenames), made or completed. */
    async group(input: GroupInput): Promise<Group & { permissions: Permission[] }> {
      const { where, create } = groupUpsert(input);
      return prisma.group.upsert({
        where,
        create,
        update: { permissions: create.permissions },
        include: { permissions: true },
      });
    },

    /** An asset: a leaf (is_asset true) at the top of the tree unless told; `child()` adds below it. */
    async asset({ parent = null, ...input }: AssetInput = {}): Promise<AssetSeed> {
      const n = next();
      return assetSeed(
        await prisma.asset.create({
          data: { name: `Test asset ${n}`, ...input, parent_id: parent === null ? null : idOf(parent) },
        }),
      );
    },

    /**
     * Adds `copies` copies of every financier's catalogue (products, brackets, asset mappings, approvals and their
     * bracket links) under new financier organisations named `<name> (copy k)`, in one transaction. The rows are copied
     * inside the database (INSERT ... SELECT through old-to-new id maps), so a catalogue 24 times the demo's costs a
     * few statements and no rows through the client.
     */
    async copyCatalogue(copies: number): Promise<void> {
      // Every column but the id and the timestamps (their defaults), with the named foreign keys mapped.
      const columnsOf = async (table: string) =>
        (
          await prisma.$queryRawUnsafe<{ column_name: string }[]>(
            `SELECT column_name FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
            table,
          )
        )
          .map((c) => c.column_name)
          .filter((c) => !['id', 'created_at', 'updated_at'].includes(c));
      const [products, rate_brackets, asset_rate_brackets, approvals] = await Promise.all(
        ['products', 'rate_brackets', 'asset_rate_brackets', 'approvals'].map(columnsOf),
      );
      const columns = { products, rate_brackets, asset_rate_brackets, approvals };
      const copyRows = (table: string, names: string[], mapped: Record<string, string>, from: string) =>
        `INSERT INTO ${table} (${names.join(', ')}) SELECT ${names.map((c) => mapped[c] ?? `t.${c}`).join(', ')} ${from}`;
      // New ids drawn in the old ids' order, before the rows that take them are written.
      const idMap = (name: string, table: string, sources: string) =>
        `CREATE TEMP TABLE ${name} ON COMMIT DROP AS SELECT s.id AS old_id,
           nextval(pg_get_serial_sequence('${table}', 'id'))::int AS new_id FROM (${sources} ORDER BY id) s`;
      await prisma.$transaction(async (tx) => {
        const run = (sql: string) => tx.$executeRawUnsafe(sql);
        /**
         * A financier-owned table's rows, each under a new id (drawn into `map`) and its organisation's copy; `also`
         * maps further keys through the maps `joins` brings in.
         */
        const copyOwned = async (
          table: 'products' | 'rate_brackets' | 'approvals',
          map: string,
          also: Record<string, string> = {},
          joins = '',
        ) => {
          await run(
            idMap(map, table, `SELECT id FROM ${table} WHERE organisation_id IN (SELECT id FROM source_financiers)`),
          );
          await run(
            copyRows(
              table,
              ['id', ...columns[table]],
              { id: 'k.new_id', organisation_id: 'o.new_id', ...also },
              `FROM ${table} t JOIN ${map} k ON k.old_id = t.id JOIN organisation_map o ON o.old_id = t.organisation_id ${joins}`,
            ),
          );
        };
        await run(
          `CREATE TEMP TABLE source_financiers ON COMMIT DROP AS SELECT id FROM organisations WHERE type = 'f'`,
        );
        for (let copy = 1; copy <= copies; copy++) {
          for (const m of ['organisation_map', 'product_map', 'bracket_map', 'approval_map']) {
            await run(`DROP TABLE IF EXISTS ${m}`);
          }
          await run(idMap('organisation_map', 'organisations', 'SELECT id FROM source_financiers'));
          await run(
            `INSERT INTO organisations (id, name, type, plan) SELECT m.new_id, o.name || ' (copy ${copy})', o.type, o.plan
             FROM organisations o JOIN organisation_map m ON m.old_id = o.id`,
          );
          await copyOwned('products', 'product_map');
          await copyOwned(
            'rate_brackets',
            'bracket_map',
            { product_id: 'p.new_id' },
            'JOIN product_map p ON p.old_id = t.product_id',
          );
          await run(
            copyRows(
              'asset_rate_brackets',
              columns.asset_rate_brackets,
              { organisation_id: 'o.new_id', product_id: 'p.new_id', rate_bracket_id: 'b.new_id' },
              `FROM asset_rate_brackets t JOIN organisation_map o ON o.old_id = t.organisation_id
               LEFT JOIN product_map p ON p.old_id = t.product_id LEFT JOIN bracket_map b ON b.old_id = t.rate_bracket_id
               ORDER BY t.id`,
            ),
          );
          await copyOwned('approvals', 'approval_map');
          await run(
            `INSERT INTO approval_rate_brackets (approval_id, rate_bracket_id) SELECT a.new_id, b.new_id
             FROM approval_rate_brackets t JOIN approval_map a ON a.old_id = t.approval_id
             JOIN bracket_map b ON b.old_id = t.rate_bracket_id`,
          );
        }
      });
    },
  };
  return kit;
}
