/**
 * Static cost analysis of one GraphQL operation, computed from the document before anything executes
 * (docs/graphql.md "Cost"). Every field costs 1 per value it can produce; a list multiplies its selection by the
 * most items it can really hold (its argument for a paginated field, the catalogue's largest for a list of tenants'
 * records, a cap enforced on write or the vocabulary otherwise), so
 * `results { schedule(first: 60) { payment } }` costs rows x (1 + 60 x (1 + 1)). Aliases and fragments are walked
 * where they are used: a fragment spread eight times costs eight times, and its aliases count eight times.
 *
 * The walk is linear in the document's size: a fragment's shape is computed once and reused at every spread
 * (nested spreads would otherwise walk 2^n times). It runs after graphql-js validation, so fields exist, arguments
 * have their types and fragments do not cycle.
 */
import {
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  getNamedType,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { MISSING_FIELD_NAMES } from '../modules/matrix/index.ts';
import { PERMISSION_CODENAMES } from '../lib/permissions.ts';
import type { CatalogueSnapshot } from '../modules/catalogue/index.ts';
import { MAX_ASSET_DEPTH } from '../modules/catalogue/index.ts';
import { MAX_REST_APPROVALS } from '../modules/approvals/index.ts';
import { ANZSIC_DIVISION_CODES, DOC_LEVELS, NOTIFICATION_CATEGORIES, TRANSACTION_TYPES } from '../lib/vocabulary.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../graphql/builder.ts';
import { SCHEDULE_PAGE_MAX, schedulePage } from '../graphql/schedule-page.ts';

/** The most a request may cost: 200,000 values, 2-8 MB of JSON (10-40 bytes a value with its key). */
export const MAX_COST = 200_000;
/**
 * Deeper than any real query: the service's own types nest 7 levels at most; GraphiQL's introspection query (outside
 * prod) is 15 deep. Stops recursion-shaped abuse of the meta-schema (`ofType { ofType { ... } }`).
 */
export const MAX_DEPTH = 20;
/** Aliases in the operation, counted at every fragment spread. */
export const MAX_ALIASES = 30;
/**
 * Root fields that run an engine and consume an allowance. Distinct ones may share a request (a dashboard asking
 * `calculate` and `matrix` together), each run and metered once; one of them under two response names (aliases) would
 * run, and meter, twice, and is refused.
 */
const METERED_ROOT_FIELDS = new Set(['calculate', 'matrix', 'matrixCalculator', 'whatWouldItTake']);

/** How many items the catalogue's result lists can hold. */
export interface CatalogueSizes {
  /** Rate brackets: the most rows `calculate` prices, and the most cards `matrixCalculator` prices. */
  brackets: number;
  /** Approvals: the most `matrixCalculator` rows. */
  approvals: number;
  /** Financiers: the most groups in a Matrix answer. */
  financiers: number;
  /** The most approvals one financier has. */
  approvalsPerFinancier: number;
  /** The most rate brackets one approval links. */
  bracketsPerApproval: number;
  /** The most assets one approval lists (`Approval.asset_ids`). */
  assetsPerApproval: number;
  /** The most products one financier's card has (`RateCard.products`). */
  productsPerCard: number;
  /** The most rate brackets one financier's card has (`RateCard.rate_brackets`). */
  bracketsPerCard: number;
  /** The most rate brackets one product has (`Product.rate_brackets`). */
  bracketsPerProduct: number;
  /** The most asset mappings one asset node has, every financier's together (`Asset.asset_rate_brackets`). */
  mappingsPerAsset: number;
  /** The most records (products, brackets, asset mappings) one financier's card has. */
  recordsPerCard: number;
}

/**
 * The catalogue scale the service is planned for (300 financiers, 12,000 brackets, 9,000 approvals). Used when the
 * caller is anonymous (no catalogue is read for a request that cannot run an engine).
 */
export const DECLARED_SIZES: CatalogueSizes = {
  brackets: 12_000,
  approvals: 9_000,
  financiers: 300,
  approvalsPerFinancier: 60,
  bracketsPerApproval: 40,
  assetsPerApproval: 40,
  productsPerCard: 20,
  bracketsPerCard: 200,
  bracketsPerProduct: 100,
  mappingsPerAsset: 300,
  recordsPerCard: 1_000,
};

function countBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, number> {
  const counts = new Map<K, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
/** The largest count (0 for none), without spreading a map that may hold thousands of entries into arguments. */
function most(counts: Map<unknown, number>): number {
  let top = 0;
  for (const n of counts.values()) if (n > top) top = n;
  return top;
}

const measured = new WeakMap<CatalogueSnapshot, CatalogueSizes>();
/** The actual counts of a catalogue snapshot (computed once per snapshot). */
export function sizesOf(snapshot: CatalogueSnapshot): CatalogueSizes {
  let sizes = measured.get(snapshot);
  if (!sizes) {
    const perFinancier = new Map<number, number>();
    let bracketsPerApproval = 0;
    let assetsPerApproval = 0;
    for (const a of snapshot.approvals) {
      perFinancier.set(a.organisation_id, (perFinancier.get(a.organisation_id) ?? 0) + 1);
      bracketsPerApproval = Math.max(bracketsPerApproval, a.rate_bracket_ids.length);
      assetsPerApproval = Math.max(assetsPerApproval, a.asset_ids.length);
    }
    const productsPer = countBy(snapshot.products, (p) => p.organisation_id);
    const bracketsPer = countBy(snapshot.brackets, (b) => b.organisation_id);
    const mappingsPer = countBy(snapshot.relations, (r) => r.organisation_id);
    const records = new Map(productsPer);
    for (const per of [bracketsPer, mappingsPer])
      for (const [id, n] of per) records.set(id, (records.get(id) ?? 0) + n);
    sizes = {
      brackets: snapshot.brackets.length,
      approvals: snapshot.approvals.length,
      financiers: snapshot.organisations.size,
      approvalsPerFinancier: most(perFinancier),
      bracketsPerApproval,
      assetsPerApproval,
      productsPerCard: most(productsPer),
      bracketsPerCard: most(bracketsPer),
      bracketsPerProduct: most(countBy(snapshot.brackets, (b) => b.product_id)),
      mappingsPerAsset: most(countBy(snapshot.relations, (r) => r.asset_id)),
      recordsPerCard: most(records),
    };
    measured.set(snapshot, sizes);
  }
  return sizes;
}

/**
 * What a list is priced at when nothing sizes it: every list field of the schema is sized, by `LIST_SIZES` or by
 * its own `listSize` extension (test/graphql/cost.test.ts walks the schema), so this is a fallback only.
 */
const DEFAULT_LIST_SIZE = 100;

/**
 * The field extension a module sets on a list field whose bound it owns (a cap it enforces on write): the most
 * items, or a function of the catalogue's sizes. Keeps this file free of the modules' constants.
 */
const LIST_SIZE_EXTENSION = 'listSize';
type ListSize = number | ((sizes: CatalogueSizes) => number);

type Args = (name: string) => number | undefined;

/**
 * What bounds a list field, one kind per row of `LIST_SIZES`:
 * - a `CatalogueSizes` key, or `{ catalogue }` computing from those sizes: tenant data (a financier's card, its
 *   brackets and mappings can be long), so an operation selecting it is priced with the actual sizes of the
 *   catalogue it reads (see `catalogueLists`);
 * - a number, or `{ arguments }` reading the field's arguments: bounded by the document, the vocabulary or the schema.
 */
type ListBound =
  | keyof CatalogueSizes
  | { catalogue: (sizes: CatalogueSizes) => number }
  | number
  | { arguments: (arg: Args) => number };

/** Every list field sized here, `Type.field` to its bound. A new list field is one row. */
const LIST_SIZES: Record<string, ListBound> = {
  'CalculatorResult.results': 'brackets',
  'MatrixResult.results': 'financiers',
  'MatrixCalculatorResult.results': 'approvals',
  'MatrixCalculatorResult.financiers': 'financiers',
  'MatrixCalculatorResult.priced': 'brackets',
  'MatrixFinancierGroup.approvals': 'approvalsPerFinancier',
  'MatrixApprovalResult.rate_bracket_ids': 'bracketsPerApproval',
  'WhatWouldItTakeResult.approvals': 'approvals',
  // Every criterion an approval checks, or one pricing blocker per linked bracket.
  'ApprovalStructuring.blockers': { catalogue: (s) => Math.max(MISSING_FIELD_NAMES.length + 4, s.bracketsPerApproval) },
  'StructuringSuggestion.changes': { catalogue: () => 3 }, // one per lever
  'Approval.asset_ids': 'assetsPerApproval',
  'Approval.assets': 'assetsPerApproval',
  'Approval.rate_bracket_ids': 'bracketsPerApproval',
  'Approval.rate_brackets': 'bracketsPerApproval',
  'Product.rate_brackets': 'bracketsPerProduct',
  'RateCard.products': 'productsPerCard',
  'RateCard.rate_brackets': 'bracketsPerCard',
  'Asset.asset_rate_brackets': 'mappingsPerAsset',
  'QueryFinanciersSuccess.data': 'financiers',
  // A diff names each record of either side at most once, and warns at most once per record.
  'RateCardVersionDiff.summary_lines': { catalogue: (s) => 2 * s.recordsPerCard + 1 },
  'RateCardVersionDiff.warnings': { catalogue: (s) => 2 * s.recordsPerCard },

  'CalculatorRow.schedule': { arguments: (arg) => schedulePage(arg('first')) },
  'MatrixApprovalResult.missing_fields': MISSING_FIELD_NAMES.length,
  'MatrixCalculatorRow.missing_fields': MISSING_FIELD_NAMES.length,
  'QueryAssetSearchSuccess.data': 50, // assetSearch(limit) is 1 to 50
  'Asset.ancestors': MAX_ASSET_DEPTH,
  'AssetSearchResult.path': MAX_ASSET_DEPTH, // the names of its ancestors
  'Approval.transaction_types': TRANSACTION_TYPES.length,
  'Approval.industries': ANZSIC_DIVISION_CODES.length,
  'ApprovalOptions.doc_levels': DOC_LEVELS.length,
  'ApprovalOptions.industries': ANZSIC_DIVISION_CODES.length,
  'ApprovalOptions.transaction_types': TRANSACTION_TYPES.length,
  'NotificationPreferences.available_categories': NOTIFICATION_CATEGORIES.length,
  'ApprovalList.approvals': MAX_REST_APPROVALS,
  'ValidationError.errors': 50,
  'FieldError.messages': 10,
  // The permission codenames are a closed list (organisationUsers' groups { permissions } stays within budget).
  'UserGroup.permissions': PERMISSION_CODENAMES.length,
};

interface SizedList {
  /** Sized from the catalogue snapshot: the operation needs the actual sizes. */
  fromCatalogue: boolean;
  size: (sizes: CatalogueSizes, arg: Args) => number;
}

function sizedList(bound: ListBound): SizedList {
  if (typeof bound === 'string') return { fromCatalogue: true, size: (sizes) => sizes[bound] };
  if (typeof bound === 'number') return { fromCatalogue: false, size: () => bound };
  if ('catalogue' in bound) return { fromCatalogue: true, size: (sizes) => bound.catalogue(sizes) };
  return { fromCatalogue: false, size: (_sizes, arg) => bound.arguments(arg) };
}

/** `LIST_SIZES`, each row read once. */
const SIZED_LISTS: ReadonlyMap<string, SizedList> = new Map(
  Object.entries(LIST_SIZES).map(([key, bound]) => [key, sizedList(bound)]),
);

/** Whether `Type.field` is a list sized from the catalogue snapshot. */
function isCatalogueList(typeName: string, fieldName: string): boolean {
  return SIZED_LISTS.get(`${typeName}.${fieldName}`)?.fromCatalogue === true;
}

/** Whether `Type.field` has a size of its own (`LIST_SIZES` or its `listSize` extension). */
export function isSizedList(typeName: string, field: { name: string; extensions?: Record<string, unknown> }): boolean {
  return SIZED_LISTS.has(`${typeName}.${field.name}`) || listSizeOf(field.extensions) !== undefined;
}

function listSizeOf(extensions: Record<string, unknown> | null | undefined): ListSize | undefined {
  const size = extensions?.[LIST_SIZE_EXTENSION];
  return typeof size === 'number' || typeof size === 'function' ? (size as ListSize) : undefined;
}

export interface OperationShape {
  cost: number;
  aliases: number;
  depth: number;
  /** Metered root fields selected (through fragments too), with the response name each is answered under. */
  metered: MeteredSelection[];
  /** Lists sized from the catalogue selected (through fragments too): the operation needs the actual sizes. */
  catalogueLists: number;
  /** Argument values out of their declared range, as messages. */
  problems: string[];
}

interface MeteredSelection {
  field: string;
  /** The alias, or the field's name: selections sharing one are merged by GraphQL and run once. */
  responseKey: string;
}

const EMPTY: OperationShape = { cost: 0, aliases: 0, depth: 0, metered: [], catalogueLists: 0, problems: [] };

function add(into: OperationShape, shape: OperationShape, times = 1, depthOffset = 0): void {
  into.cost += shape.cost * times;
  into.aliases += shape.aliases;
  into.depth = Math.max(into.depth, shape.depth + depthOffset);
  into.metered.push(...shape.metered);
  into.catalogueLists += shape.catalogueLists;
  into.problems.push(...shape.problems);
}

function intValueOf(node: ValueNode | undefined, variables: Record<string, unknown>): number | undefined {
  if (!node) return undefined;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const v = variables[node.name.value];
    return typeof v === 'number' ? v : undefined;
  }
  return undefined;
}

/**
 * The shape of `operation`. `sizes` gives the result lists' lengths; `variables` the raw request variables (only
 * integer pagination arguments are read from them; anything else falls back to the default page).
 */
export function analyseOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  sizes: CatalogueSizes,
  variables: Record<string, unknown> = {},
): OperationShape {
  return analyse(schema, operation, fragments, sizes, variables).shape;
}

/** Shapes of operations that read no variable, by catalogue sizes (`sizesOf` returns one object per snapshot). */
const shapesBySizes = new WeakMap<OperationDefinitionNode, WeakMap<CatalogueSizes, OperationShape>>();
const readsVariables = new WeakSet<OperationDefinitionNode>();

/**
 * `analyseOperation`, remembered: an operation whose sized arguments are all literals has one shape per catalogue
 * size, whatever the variables, so a hot document (Yoga reuses its AST) is walked once per catalogue version.
 * The shape returned may be shared: read it, do not change it.
 */
export function operationShape(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  sizes: CatalogueSizes,
  variables: Record<string, unknown> = {},
): OperationShape {
  if (readsVariables.has(operation)) return analyse(schema, operation, fragments, sizes, variables).shape;
  let bySizes = shapesBySizes.get(operation);
  const cached = bySizes?.get(sizes);
  if (cached) return cached;
  const { shape, variablesRead } = analyse(schema, operation, fragments, sizes, variables);
  if (variablesRead) readsVariables.add(operation);
  else {
    if (!bySizes) shapesBySizes.set(operation, (bySizes = new WeakMap()));
    bySizes.set(sizes, shape);
  }
  return shape;
}

function analyse(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  sizes: CatalogueSizes,
  variables: Record<string, unknown>,
): { shape: OperationShape; variablesRead: boolean } {
  const queryType = schema.getQueryType();
  const fragmentShapes = new Map<string, OperationShape>();
  let variablesRead = false;
  /** A field's integer arguments by name, literal or variable (noting that a variable was read). */
  const argsOf =
    (field: FieldNode): Args =>
    (name) => {
      const node = field.arguments?.find((a) => a.name.value === name)?.value;
      if (node?.kind === Kind.VARIABLE) variablesRead = true;
      return intValueOf(node, variables);
    };

  function listSize(
    parent: GraphQLCompositeType,
    field: FieldNode,
    extensions: Record<string, unknown> | null | undefined,
    page: number | undefined,
  ): number {
    // A connection's edges hold the page its field asked for (first/last), or the cap when that is not known here.
    if (field.name.value === 'edges' && parent.name.endsWith('Connection')) return page ?? MAX_PAGE_SIZE;
    const sized = SIZED_LISTS.get(`${parent.name}.${field.name.value}`);
    if (sized) return sized.size(sizes, argsOf(field));
    const own = listSizeOf(extensions);
    if (own !== undefined) return typeof own === 'number' ? own : own(sizes);
    return DEFAULT_LIST_SIZE;
  }

  function checkArguments(parent: GraphQLCompositeType, field: FieldNode, shape: OperationShape): void {
    if (parent.name !== 'CalculatorRow' || field.name.value !== 'schedule') return;
    const arg = argsOf(field);
    const first = arg('first');
    const offset = arg('offset');
    if (first !== undefined && (first < 0 || first > SCHEDULE_PAGE_MAX)) {
      shape.problems.push(`schedule(first:) must be between 0 and ${SCHEDULE_PAGE_MAX}, got ${first}.`);
    }
    if (offset !== undefined && offset < 0) shape.problems.push(`schedule(offset:) must be 0 or more, got ${offset}.`);
  }

  /** The page a relay connection field (it takes `after`) returns: first/last within the builder's bounds. */
  function connectionPage(def: { args: readonly { name: string }[] }, field: FieldNode): number | undefined {
    if (!def.args.some((a) => a.name === 'after')) return undefined;
    const arg = argsOf(field);
    const asked = [arg('first'), arg('last')].filter((n): n is number => n !== undefined);
    return Math.min(Math.max(asked.length ? Math.max(...asked) : DEFAULT_PAGE_SIZE, 0), MAX_PAGE_SIZE);
  }

  // `page` is the enclosing connection's page, carried through its result union (`... on QueryXSuccess { data }`)
  // down to its `edges`.
  function walk(set: SelectionSetNode, parent: GraphQLCompositeType, page?: number): OperationShape {
    const shape: OperationShape = { cost: 0, aliases: 0, depth: 0, metered: [], catalogueLists: 0, problems: [] };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.alias) shape.aliases += 1;
        const name = selection.name.value;
        if (parent === queryType && METERED_ROOT_FIELDS.has(name))
          shape.metered.push({ field: name, responseKey: selection.alias?.value ?? name });
        if (name === '__typename') {
          shape.cost += 1;
          shape.depth = Math.max(shape.depth, 1);
          continue;
        }
        const def =
          name === '__schema'
            ? SchemaMetaFieldDef
            : name === '__type'
              ? TypeMetaFieldDef
              : isObjectType(parent) || isInterfaceType(parent)
                ? parent.getFields()[name]
                : undefined;
        if (!def) continue; // validation has reported it
        checkArguments(parent, selection, shape);
        const type: GraphQLOutputType = isNonNullType(def.type) ? def.type.ofType : def.type;
        // The meta-schema (introspection, off in prod) is bounded by the schema itself: its lists count once, so only
        // its depth and aliases are limited.
        const list = isListType(type) && !parent.name.startsWith('__');
        const items = list ? listSize(parent, selection, def.extensions, page) : 1;
        if (list && (isCatalogueList(parent.name, name) || typeof listSizeOf(def.extensions) === 'function'))
          shape.catalogueLists += 1;
        const named = getNamedType(def.type);
        const childPage = connectionPage(def, selection) ?? (name === 'data' ? page : undefined);
        const child =
          selection.selectionSet && isCompositeType(named) ? walk(selection.selectionSet, named, childPage) : EMPTY;
        shape.cost += items * (1 + child.cost);
        add(shape, { ...child, cost: 0 }, 1, 1);
        shape.depth = Math.max(shape.depth, 1 + child.depth);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (condition && isCompositeType(condition)) add(shape, walk(selection.selectionSet, condition, page));
      } else {
        const name = selection.name.value;
        let fragmentShape = fragmentShapes.get(name);
        if (!fragmentShape) {
          const fragment = fragments[name];
          const condition = fragment && schema.getType(fragment.typeCondition.name.value);
          fragmentShape = condition && isCompositeType(condition) ? walk(fragment.selectionSet, condition) : EMPTY;
          fragmentShapes.set(name, fragmentShape);
        }
        add(shape, fragmentShape);
      }
    }
    return shape;
  }

  const root =
    operation.operation === 'query'
      ? queryType
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return { shape: { ...EMPTY, metered: [], problems: [] }, variablesRead };
  const shape = walk(operation.selectionSet, root);
  shape.problems = [...new Set(shape.problems)];
  return { shape, variablesRead };
}
