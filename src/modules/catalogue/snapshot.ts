/**
 * The catalogue as the engines read it: every financier's products, rate brackets, asset mappings and approvals,
 * with the engines' indexes built once. Held per process and keyed by `catalogue_state.version`, which triggers bump in the
 * same transaction as any catalogue write; so a warm request reads one integer, and a stale snapshot is impossible.
 * A cold load reads each table once, as one JSON value (a constant number of queries, whatever the catalogue's size).
 */
import type { PrismaClient } from '../../generated/prisma/client.ts';
import { liveAssetIds } from './asset-tree.ts';
import type { Approval, AssetNode, AssetRateBracketRelation, Organisation, Product, RateBracket } from './model.ts';

export interface CatalogueRecords {
  version: bigint;
  organisations: Map<number, Organisation>;
  organisationNames: Map<number, string>;
  assets: AssetNode[];
  assetsById: Map<number, AssetNode>;
  /** Assets a deal may name: not deleted and beneath no deleted category (asset-tree.ts). */
  liveAssetIds: ReadonlySet<number>;
  products: Product[];
  brackets: RateBracket[];
  bracketsById: Map<number, RateBracket>;
  relations: AssetRateBracketRelation[];
  approvals: Approval[];
}

/**
 * The engines' indexes over the records, built once per snapshot. An engine module declares its own here
 * (`declare module` in its index.ts) and its builder is handed to the cache (src/app-services.ts), so the catalogue
 * imports no engine. An index this module does not know by name is `unknown`.
 */
export interface CatalogueIndexes {
  [index: string]: unknown;
}

export type CatalogueSnapshot = CatalogueRecords & CatalogueIndexes;

/** One builder per index, each over the snapshot's records. */
export type CatalogueIndexBuilders = {
  [K in keyof CatalogueIndexes]: (records: CatalogueRecords) => CatalogueIndexes[K];
};

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Each table is read as ONE text value, a JSON array of its rows ordered by id, and parsed with JSON.parse: reading
 * the rows themselves through Prisma pays wire-protocol parsing and Prisma's per-field result mapping for every
 * value, several times this read's cost on a large catalogue; the records are the same. Where Prisma selected
 * columns (organisations, assets, relations, whose rows are used as they come) the same columns are listed in the
 * same order; the other tables are read whole, as findMany read them, and mapped below. Values arrive as JSON: lists
 * may be NULL (Prisma read those as []), floats and decimals go through `num` (JSON has no NaN or Infinity, so
 * PostgreSQL writes them as strings), and a timestamp would be a string.
 */
const jsonRows = (select: string): string =>
  `SELECT coalesce(json_agg(t ORDER BY t.id), '[]')::text AS rows FROM (${select}) t`;
const ORGANISATIONS_SQL = jsonRows('SELECT id, name, type FROM organisations');
const ASSETS_SQL = jsonRows('SELECT id, name, alias, parent_id, is_asset, is_deleted FROM assets');
const PRODUCTS_SQL = jsonRows('SELECT * FROM products');
const BRACKETS_SQL = jsonRows('SELECT * FROM rate_brackets');
const RELATIONS_SQL = jsonRows(
  'SELECT id, asset_id, organisation_id, product_id, rate_bracket_id FROM asset_rate_brackets',
);
const APPROVALS_SQL = jsonRows('SELECT * FROM approvals');
/** [approval_id, rate_bracket_id] pairs. */
const LINKS_SQL = `SELECT coalesce(json_agg(json_build_array(approval_id, rate_bracket_id) ORDER BY approval_id, rate_bracket_id), '[]')::text AS rows
  FROM approval_rate_brackets`;

type Row = Record<string, any>;

export async function loadSnapshot(prisma: PrismaClient, builders: CatalogueIndexBuilders): Promise<CatalogueSnapshot> {
  const table = (sql: string) => prisma.$queryRawUnsafe<{ rows: string }[]>(sql);
  // One repeatable-read transaction: the version and the rows it describes are read from the same moment.
  const [state, ...tables] = await prisma.$transaction(
    [
      prisma.catalogueState.findUniqueOrThrow({ where: { id: 1 } }),
      table(ORGANISATIONS_SQL),
      table(ASSETS_SQL),
      table(PRODUCTS_SQL),
      table(BRACKETS_SQL),
      table(RELATIONS_SQL),
      table(APPROVALS_SQL),
      table(LINKS_SQL),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  const [organisations, assets, products, brackets, relations, approvals, links] = tables.map(
    (rows) => JSON.parse(rows[0].rows) as Row[],
  ) as [
    { id: number; name: string; type: Organisation['type'] }[],
    AssetNode[],
    Row[],
    Row[],
    AssetRateBracketRelation[],
    Row[],
    [number, number][],
  ];
  return snapshotOf(
    state.version,
    { organisations, assets, products, brackets, relations, approvals, links },
    builders,
  );
}

/** The tables as read (rows as JSON values), before the records and indexes are built. */
interface CatalogueTables {
  organisations: { id: number; name: string; type: Organisation['type'] }[];
  assets: AssetNode[];
  products: Row[];
  brackets: Row[];
  relations: AssetRateBracketRelation[];
  approvals: Row[];
  /** [approval_id, rate_bracket_id] pairs, ordered by approval then bracket. */
  links: [number, number][];
}

/** The snapshot of catalogue version `version`: records and every engine index, built once. */
function snapshotOf(version: bigint, tables: CatalogueTables, builders: CatalogueIndexBuilders): CatalogueSnapshot {
  const { organisations, assets, products, brackets, relations, approvals, links } = tables;
  const bracketIdsByApproval = new Map<number, number[]>();
  for (const [approvalId, rateBracketId] of links) {
    const list = bracketIdsByApproval.get(approvalId);
    if (list) list.push(rateBracketId);
    else bracketIdsByApproval.set(approvalId, [rateBracketId]);
  }

  const productRecords: Product[] = products.map((p) => ({
    id: p.id,
    product_name: p.product_name,
    organisation_id: p.organisation_id,
    min_range: p.min_range,
    max_range: p.max_range,
    min_amount: num(p.min_amount),
    max_amount: num(p.max_amount),
    min_abn_age: p.min_abn_age,
    max_abn_age: p.max_abn_age,
    min_asset_age: p.min_asset_age,
    max_asset_age: p.max_asset_age,
    min_gst_age: p.min_gst_age,
    max_gst_age: p.max_gst_age,
    min_asset_age_plus_term: p.min_asset_age_plus_term,
    max_asset_age_plus_term: p.max_asset_age_plus_term,
    min_credit_score: p.min_credit_score,
    max_credit_score: p.max_credit_score,
    monthly_fee: num(p.monthly_fee),
    documentation_fee: num(p.documentation_fee),
    brokerage_cap: num(p.brokerage_cap),
    maximum_brokerage_limit: num(p.maximum_brokerage_limit),
    compounding_frequency: p.compounding_frequency,
    brokerage_loading_treatment: num(p.brokerage_loading_treatment),
    max_origination_fee_limit: num(p.max_origination_fee_limit),
    doc_fee_financed: p.doc_fee_financed,
    private_sale: p.private_sale,
    sale_hire_back: p.sale_hire_back,
    home_owner: p.home_owner,
  }));
  const bracketRecords: RateBracket[] = brackets.map((b) => ({
    id: b.id,
    name: b.name,
    organisation_id: b.organisation_id,
    product_id: b.product_id,
    type: b.type,
    min_term: b.min_term,
    max_term: b.max_term,
    min_amount: num(b.min_amount),
    max_amount: num(b.max_amount),
    min_asset_age: b.min_asset_age,
    max_asset_age: b.max_asset_age,
    base_min: Number(b.base_min),
    base_max: Number(b.base_max),
    max_lvr: num(b.max_lvr),
  }));
  const approvalRecords: Approval[] = approvals.map((a) => ({
    id: a.id,
    name: a.name,
    doc_level: a.doc_level,
    organisation_id: a.organisation_id,
    priority: Number(a.priority),
    min_deposit_percentage: num(a.min_deposit_percentage),
    min_deposit_amount: num(a.min_deposit_amount),
    max_term: a.max_term,
    min_term: a.min_term,
    min_abn_age: a.min_abn_age,
    max_abn_age: a.max_abn_age,
    min_gst_age: a.min_gst_age,
    max_gst_age: a.max_gst_age,
    min_asset_age: a.min_asset_age,
    max_asset_age: a.max_asset_age,
    min_asset_cost: num(a.min_asset_cost),
    max_asset_cost: num(a.max_asset_cost),
    min_borrower_age: a.min_borrower_age,
    max_borrower_age: a.max_borrower_age,
    min_file_age: a.min_file_age,
    max_file_age: a.max_file_age,
    min_credit_score: a.min_credit_score,
    max_credit_score: a.max_credit_score,
    home_owner: a.home_owner,
    private_sale: a.private_sale,
    sale_hire_back: a.sale_hire_back,
    asset_state: a.asset_state,
    transaction_types: a.transaction_types ?? [],
    industries: a.industries ?? [],
    asset_ids: a.asset_ids ?? [],
    rate_bracket_ids: bracketIdsByApproval.get(a.id) ?? [],
  }));
  const organisationRecords = new Map(organisations.map((o) => [o.id, o as Organisation]));
  const records: CatalogueRecords = {
    version,
    organisations: organisationRecords,
    organisationNames: new Map(organisations.map((o) => [o.id, o.name])),
    assets,
    assetsById: new Map(assets.map((a) => [a.id, a])),
    liveAssetIds: liveAssetIds(assets),
    products: productRecords,
    brackets: bracketRecords,
    bracketsById: new Map(bracketRecords.map((b) => [b.id, b])),
    relations,
    approvals: approvalRecords,
  };
  // Every declared index has its builder (CatalogueIndexBuilders), so the entries are the whole CatalogueIndexes.
  const indexes = Object.fromEntries(
    Object.entries(builders).map(([name, build]) => [name, build(records)]),
  ) as CatalogueIndexes;
  return { ...records, ...indexes };
}

/** The per-process snapshot holder. Concurrent cold requests share one load. */
export class CatalogueCache {
  private current: CatalogueSnapshot | null = null;
  private loading: Promise<CatalogueSnapshot> | null = null;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly builders: CatalogueIndexBuilders,
  ) {}

  /**
   * The snapshot for catalogue version `version` or newer. A request passes the version it read with its caller
   * (one statement fewer); without one the version is read here. A load that started before that version was
   * written is not good enough: the request waits for it, then loads again.
   */
  async get(version?: bigint): Promise<CatalogueSnapshot> {
    const wanted =
      version ??
      (await this.prisma.$queryRawUnsafe<{ version: bigint }[]>('SELECT version FROM catalogue_state WHERE id = 1'))[0]
        .version;
    for (;;) {
      if (this.current && this.current.version >= wanted) return this.current;
      this.loading ??= loadSnapshot(this.prisma, this.builders).then(
        (snapshot) => {
          if (!this.current || snapshot.version >= this.current.version) this.current = snapshot;
          this.loading = null;
          return snapshot;
        },
        (error) => {
          this.loading = null;
          throw error;
        },
      );
      const loaded = await this.loading;
      if (loaded.version >= wanted) return loaded;
    }
  }
}
