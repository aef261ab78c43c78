/**
 * Seeded synthetic catalogues for `npm run bench`: the demo catalogue (prisma/seed/demo-catalogue.json) plus N
 * synthetic financiers, each with 3 products, 40 rate brackets, asset mappings on categories and leaves, and 30
 * approvals with realistic criteria linked to 2-6 of its brackets; plus one broker user whose organisation has
 * unlimited allowances (`calculator_allowance: null, matrix_allowance: null`), so load tests are never refused.
 *
 * Deterministic: the same seed and size give the same catalogue, so runs compare. Everything is validated by the
 * catalogue loader's own validator, so a synthetic catalogue is one a customer could load (see seedBenchCatalogue).
 *
 * Shape, chosen as the worst case the issues describe ("price one deal against all brackets"): every product is
 * mapped product-wide on every top-level category of the demo tree, so a deal on any live leaf reaches all of the
 * financier's 40 brackets (12,000 at 300 financiers); each financier also maps 4 single brackets on leaves (a
 * duplicate path the engine must de-duplicate). Each product's brackets are a term x amount grid, plus a few
 * overlapping specials per financier, so a deal examines every bracket and prices a fraction of them (one grid cell
 * per product it qualifies for, and some specials: the bench prints how many).
 */
import { readFileSync } from 'node:fs';
import type { Database } from '../src/lib/db.ts';
import {
  ANZSIC_DIVISIONS,
  parseCatalogueFile,
  planOverridesOf,
  type AnzsicDivision,
  type CatalogueApproval,
  type CatalogueAssetRateBracket,
  type CatalogueFile,
  type CatalogueProduct,
  type CatalogueRateBracket,
} from '../src/modules/catalogue/catalogue-file.ts';
import { loadCatalogue, readExistingCatalogue } from '../src/modules/catalogue/load-catalogue.ts';
import { ASSET_STATE_UNCHECKED, productAsStored } from '../src/modules/catalogue/model.ts';
import type { DealRequest } from '../src/modules/deal/deal.ts';
import { DEMO_CATALOGUE_PATH } from '../testkit/demo.ts';
import { seededRandom } from '../testkit/random.ts';

/** The bench caller: a Pro broker whose organisation's allowances are unlimited. */
export const BENCH_USER = { email: 'bench.broker@bench.test', password: 'bench-password-1' } as const;
const BENCH_ORGANISATION_ID = 900;
const BENCH_USER_ID = 900;

/** Id bases above every demo id, so synthetic records never collide with the demo's. */
const ORG_BASE = 1_000;
const PRODUCT_BASE = 10_000;
const BRACKET_BASE = 100_000;
const MAPPING_BASE = 100_000;
const APPROVAL_BASE = 100_000;

const PRODUCTS_PER_FINANCIER = 3;
const BRACKETS_PER_FINANCIER = 40;
const APPROVALS_PER_FINANCIER = 30;

function demoCatalogue(): CatalogueFile {
  const parsed = parseCatalogueFile(JSON.parse(readFileSync(DEMO_CATALOGUE_PATH, 'utf8')));
  if (!parsed.ok) throw new Error(`demo catalogue: ${parsed.path}: ${parsed.message}`);
  return parsed.value;
}

interface DemoTree {
  /** Top-level categories (parent null). */
  roots: number[];
  /** Live leaves (is_asset, not deleted): where deals are quoted. */
  leaves: number[];
  /** Every live category (roots and sub-categories). */
  categories: number[];
}

function demoTree(demo: CatalogueFile = demoCatalogue()): DemoTree {
  const roots: number[] = [];
  const leaves: number[] = [];
  const categories: number[] = [];
  for (const a of demo.assets) {
    if (a.is_deleted) continue;
    if (a.parent_id === null || a.parent_id === undefined) roots.push(a.id);
    if (a.is_asset === false) categories.push(a.id);
    else leaves.push(a.id);
  }
  return { roots, leaves, categories };
}

const TERM_BANDS = [
  [12, 36],
  [37, 60],
  [61, 84],
] as const;
const AMOUNT_BANDS = [
  [5_000, 24_999.99],
  [25_000, 74_999.99],
  [75_000, 149_999.99],
  [150_000, 1_000_000],
] as const;
const DIVISIONS = Object.keys(ANZSIC_DIVISIONS) as AnzsicDivision[];
const TRANSACTION_TYPES = ['purchase', 'refinance', 'sale_hire_back', 'capital_raise'] as const;
const LENDER_WORDS = [
  'Harbour',
  'Summit',
  'Granite',
  'Coastal',
  'Meridian',
  'Ironwood',
  'Banksia',
  'Sterling',
  'Outback',
  'Pacific',
  'Redwood',
  'Kestrel',
];
const LENDER_KINDS = ['Equipment Finance', 'Asset Finance', 'Commercial Capital', 'Leasing', 'Credit'];

/**
 * The synthetic part of a bench catalogue: `financiers` lenders (ids from 1001) and the bench broker, referring to
 * the demo asset tree. Load it on top of the demo catalogue (`seedBenchCatalogue`).
 */
function syntheticFinanciers(options: { financiers: number; seed?: number; tree?: DemoTree }): CatalogueFile {
  const random = seededRandom(options.seed ?? 20_261_121);
  const tree = options.tree ?? demoTree();
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const chance = (p: number) => random() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const some = <T>(items: readonly T[], count: number): T[] => {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
    return out;
  };

  const file: CatalogueFile = {
    organisations: [
      {
        id: BENCH_ORGANISATION_ID,
        name: 'Bench Brokers Pty Ltd',
        type: 'b',
        plan: 'pro',
        calculator_allowance: null,
        matrix_allowance: null,
      },
    ],
    groups: [],
    users: [
      {
        id: BENCH_USER_ID,
        email: BENCH_USER.email,
        password: BENCH_USER.password,
        first_name: 'Bench',
        last_name: 'Broker',
        organisation_id: BENCH_ORGANISATION_ID,
        is_admin: true,
        is_active: true,
        is_email_verified: true,
      },
    ],
    subscriptions: [],
    assets: [],
    products: [],
    rate_brackets: [],
    asset_rate_brackets: [],
    approvals: [],
  };

  let productId = PRODUCT_BASE;
  let bracketId = BRACKET_BASE;
  let mappingId = MAPPING_BASE;
  let approvalId = APPROVAL_BASE;
  for (let f = 1; f <= options.financiers; f++) {
    const organisationId = ORG_BASE + f;
    file.organisations.push({
      id: organisationId,
      name: `${pick(LENDER_WORDS)} ${pick(LENDER_KINDS)} ${f}`,
      type: 'f',
      plan: 'enterprise',
    });

    const products: CatalogueProduct[] = [];
    for (let p = 0; p < PRODUCTS_PER_FINANCIER; p++) {
      const loaded = chance(0.25);
      products.push({
        id: ++productId,
        product_name: `${['Equipment Loan', 'Chattel Mortgage', 'Finance Lease'][p]} ${f}`,
        organisation_id: organisationId,
        min_range: 12,
        max_range: pick([60, 72, 84]),
        min_amount: pick([5_000, 10_000, 20_000]),
        max_amount: pick([250_000, 500_000, 1_000_000, null]),
        max_asset_age_plus_term: pick([null, 240, 300]),
        min_credit_score: pick([null, null, 400, 500]),
        monthly_fee: pick([0, 4.95, 9.9]),
        documentation_fee: pick([0, 295, 395, 495]),
        brokerage_cap: pick([4, 5, 6, 8, null]),
        maximum_brokerage_limit: pick([null, 10_000, 25_000]),
        compounding_frequency: pick(['m', 'm', null, 'w'] as const),
        brokerage_loading_treatment: loaded ? pick([0.4, 0.5]) : null,
        max_origination_fee_limit: pick([null, 1_500]),
        doc_fee_financed: pick(['yes', 'both', null] as const),
        home_owner: pick(['both', 'both', 'yes', null] as const),
        private_sale: pick(['both', null] as const),
        sale_hire_back: pick(['both', 'no', null] as const),
      });
    }
    file.products.push(...products);

    // A rate card is a grid: per product, 3 term bands x 4 amount bands (36 brackets), plus 4 "specials" per
    // financier that overlap the grid (newer assets, wider terms). A deal lands in one cell per product and in
    // some of the specials.
    const brackets: CatalogueRateBracket[] = [];
    const gridSize = TERM_BANDS.length * AMOUNT_BANDS.length;
    for (let k = 0; k < BRACKETS_PER_FINANCIER; k++) {
      const special = k >= gridSize * products.length;
      const product = products[special ? k % products.length : Math.floor(k / gridSize)];
      const cell = k % gridSize;
      const [minTerm, maxTerm] = special
        ? pick([
            [12, 60],
            [12, 84],
            [24, 72],
          ] as const)
        : TERM_BANDS[cell % TERM_BANDS.length];
      const [minAmount, maxAmount] = special
        ? pick([
            [null, null],
            [20_000, 500_000],
          ] as const)
        : AMOUNT_BANDS[Math.floor(cell / TERM_BANDS.length)];
      const base = (special ? 5 : 5.5) + Math.round(random() * 800) / 100;
      brackets.push({
        id: ++bracketId,
        name: special
          ? `Special ${k - gridSize * products.length + 1} ${minTerm}-${maxTerm}m`
          : `Tier ${String.fromCharCode(65 + Math.floor(cell / TERM_BANDS.length))} ${minTerm}-${maxTerm}m`,
        organisation_id: organisationId,
        product_id: product.id,
        type: 'commercial',
        min_term: minTerm,
        max_term: maxTerm,
        min_amount: minAmount,
        max_amount: maxAmount,
        max_asset_age: special ? pick([12, 24, 36]) : pick([null, 120, 240]),
        base_min: base,
        base_max: Math.round((base + pick([0.5, 1, 2])) * 100) / 100,
        max_lvr: pick([null, 100, 120, 150]),
      });
    }
    file.rate_brackets.push(...brackets);

    // Every product on every top-level category (all 40 brackets reachable from every live leaf) ...
    const mappings: CatalogueAssetRateBracket[] = [];
    for (const product of products) {
      for (const root of tree.roots) {
        mappings.push({
          id: ++mappingId,
          asset_id: root,
          organisation_id: organisationId,
          product_id: product.id,
          rate_bracket_id: null,
        });
      }
    }
    // ... and a few single brackets on leaves (reached twice: the engine de-duplicates).
    for (const leaf of some(tree.leaves, 4)) {
      const bracket = pick(brackets);
      mappings.push({
        id: ++mappingId,
        asset_id: leaf,
        organisation_id: organisationId,
        product_id: bracket.product_id,
        rate_bracket_id: bracket.id,
      });
    }
    file.asset_rate_brackets.push(...mappings);

    for (let a = 0; a < APPROVALS_PER_FINANCIER; a++) {
      const docLevel = pick(['low_doc', 'low_doc', 'lite_doc', 'full_doc'] as const);
      const maxTerm = pick([null, 60, 72, 84]);
      const approval: CatalogueApproval = {
        id: ++approvalId,
        name: `${docLevel === 'low_doc' ? 'Low Doc' : docLevel === 'lite_doc' ? 'Lite Doc' : 'Full Doc'} ${pick(['ABN 2y', 'ABN 4y', 'asset-backed', 'non-property owner', 'primary asset', 'start-up'])} ${a + 1}`,
        doc_level: docLevel,
        organisation_id: organisationId,
        priority: int(0, 10),
        min_term: chance(0.2) ? 12 : null,
        max_term: maxTerm,
        min_abn_age: pick([null, 12, 24, 36]),
        min_gst_age: pick([null, null, 12, 24]),
        min_asset_cost: chance(0.2) ? pick([10_000, 20_000]) : null,
        max_asset_cost: chance(0.7) ? pick([75_000, 150_000, 250_000, 500_000]) : null,
        max_asset_age: chance(0.3) ? pick([60, 120, 180]) : null,
        min_credit_score: pick([null, 500, 550, 600, 650]),
        min_borrower_age: chance(0.3) ? 18 : null,
        max_borrower_age: chance(0.2) ? pick([70, 75]) : null,
        min_file_age: chance(0.2) ? pick([6, 12]) : null,
        home_owner: chance(0.4) ? chance(0.7) : null,
        private_sale: chance(0.2) ? false : null,
        sale_hire_back: chance(0.1) ? false : null,
        asset_state: chance(0.15) ? pick(['new', 'used'] as const) : null,
        min_deposit_percentage: chance(0.3) ? pick([5, 10, 20]) : null,
        min_deposit_amount: chance(0.1) ? pick([2_000, 5_000]) : null,
        transaction_types: chance(0.4) ? some(TRANSACTION_TYPES, int(1, 3)) : [],
        industries: chance(0.15) ? some(DIVISIONS, int(3, 12)) : [],
        asset_ids: chance(0.5) ? some(tree.roots, int(1, 4)) : [],
        rate_bracket_ids: some(brackets, int(2, 6))
          .map((b) => b.id)
          .sort((x, y) => x - y),
      };
      file.approvals.push(approval);
    }
  }
  return file;
}

export interface SeededCatalogue {
  financiers: number;
  brackets: number;
  approvals: number;
  seconds: number;
}

/** Tables the bulk writer fills, in reference order, and how a file key maps to rows. */
const BULK_TABLES = [
  'organisations',
  'products',
  'rate_brackets',
  'asset_rate_brackets',
  'approvals',
  'approval_rate_brackets',
] as const;

/**
 * Loads the demo catalogue and the bench broker through the real loader, then `financiers` synthetic financiers.
 *
 * The synthetic part is validated by the loader's own validator (`parseCatalogueFile` against what the database
 * holds), then written as ONE `INSERT ... SELECT FROM json_populate_recordset($1)` per table in one transaction.
 * Prisma's `createMany` was the first choice and measured ~33 s for 300 financiers on PGlite (about 1 ms a row);
 * this path takes ~3 s, which keeps the whole bench near two minutes. The catalogue triggers still bump
 * `catalogue_state.version`, exactly as any catalogue write does.
 */
export async function seedBenchCatalogue(
  database: Database,
  options: { financiers: number; seed?: number },
): Promise<SeededCatalogue> {
  const started = performance.now();
  const demo = demoCatalogue();
  const synthetic = syntheticFinanciers({ financiers: options.financiers, seed: options.seed, tree: demoTree(demo) });
  // The bench broker and its user need a password hash and plan overrides: the loader's job.
  const bench: CatalogueFile = {
    ...demo,
    organisations: [...demo.organisations, ...synthetic.organisations.filter((o) => o.type !== 'f')],
    users: [...demo.users, ...synthetic.users],
  };
  await loadCatalogue(database.prisma, bench, { reset: false });

  const financiers: CatalogueFile = {
    ...synthetic,
    organisations: synthetic.organisations.filter((o) => o.type === 'f'),
    users: [],
  };
  const checked = parseCatalogueFile(financiers, await readExistingCatalogue(database.prisma));
  if (!checked.ok) throw new Error(`synthetic catalogue: ${checked.path}: ${checked.message}`);
  const f = checked.value;
  const rows: Record<(typeof BULK_TABLES)[number], object[]> = {
    organisations: f.organisations.map((o) => ({
      id: o.id,
      name: o.name,
      type: o.type,
      plan: o.plan ?? 'free',
      is_bid_broker: false,
      plan_overrides: planOverridesOf(o),
    })),
    // The loader's defaults, as loadCatalogue applies them: a flag or compounding left null, asset_state left null.
    products: f.products.map(productAsStored),
    rate_brackets: f.rate_brackets,
    asset_rate_brackets: f.asset_rate_brackets,
    approvals: f.approvals.map(({ rate_bracket_ids: _links, ...a }) => ({
      ...a,
      asset_state: a.asset_state ?? ASSET_STATE_UNCHECKED,
    })),
    approval_rate_brackets: f.approvals.flatMap((a) =>
      (a.rate_bracket_ids ?? []).map((rate_bracket_id) => ({ approval_id: a.id, rate_bracket_id })),
    ),
  };
  await database.prisma.$transaction(
    async (tx) => {
      for (const table of BULK_TABLES) {
        const list = rows[table];
        if (!list.length) continue;
        const columns = [...new Set(list.flatMap((r) => Object.keys(r)))].map((c) => `"${c}"`).join(', ');
        await tx.$executeRawUnsafe(
          `INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::"${table}", $1::json)`,
          JSON.stringify(list),
        );
      }
      for (const table of BULK_TABLES) {
        if (table === 'approval_rate_brackets') continue;
        await tx.$queryRawUnsafe(
          `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), coalesce(max(id), 1), max(id) IS NOT NULL) FROM "${table}"`,
        );
      }
    },
    { timeout: 120_000, maxWait: 60_000 },
  );

  return {
    financiers: demo.organisations.filter((o) => o.type === 'f').length + options.financiers,
    brackets: demo.rate_brackets.length + f.rate_brackets.length,
    approvals: demo.approvals.length + f.approvals.length,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * `count` seeded deal requests (the REST body, numbers as JSON numbers) on live demo leaves: a broker's usual mix
 * of terms, amounts, deposits, balloons and brokerage, with some criteria answered and some left for `possible`.
 */
export function benchDeals(count: number, seed = 7, tree: DemoTree = demoTree()): DealRequest[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const maybe = <T>(p: number, value: () => T): T | undefined => (random() < p ? value() : undefined);
  const deals: DealRequest[] = [];
  for (let k = 0; k < count; k++) {
    const cost = Math.round(15_000 + random() * random() * 385_000);
    const deal: DealRequest = {
      cost,
      asset_value: pick(tree.leaves),
      cost_gst: true,
      term: pick([24, 36, 48, 60, 60, 72, 84]),
      advance_arrears: pick(['arrears', 'arrears', 'advance'] as const),
      repayment_frequency: pick(['monthly', 'monthly', 'monthly', 'weekly', 'quarterly'] as const),
      deposit: pick([0, 0, Math.round(cost * 0.1)]),
      balloon: pick([0, 0, 10, 20, 30]),
      balloon_percentage: true,
      brokerage: pick([0, 2, 3, 4, 5]),
      brokerage_percentage: true,
      origination_fee: pick([0, 0, 990]),
    };
    const extras: Partial<DealRequest> = {
      abn_age: maybe(0.8, () => pick([6, 18, 30, 48, 120])),
      gst_age: maybe(0.7, () => pick([6, 18, 30, 48])),
      credit_score: maybe(0.7, () => 450 + Math.floor(random() * 400)),
      home_owner: maybe(0.7, () => random() < 0.6),
      asset_age: maybe(0.5, () => pick([0, 12, 36, 84])),
      borrower_age_youngest: maybe(0.4, () => 25 + Math.floor(random() * 40)),
      transaction_type: maybe(0.5, () => pick(TRANSACTION_TYPES)),
      industry: maybe(0.3, () => pick(DIVISIONS)),
      asset_state: maybe(0.3, () => pick(['new', 'used'] as const)),
    };
    for (const [key, value] of Object.entries(extras))
      if (value !== undefined) (deal as unknown as Record<string, unknown>)[key] = value;
    deals.push(deal);
  }
  return deals;
}
