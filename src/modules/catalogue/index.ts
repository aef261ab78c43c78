/**
 * The catalogue module's public entry for other modules' services: the request's snapshot and the asset check every
 * deal passes. Its GraphQL registrations are in ./graphql.ts; the engines' records are typed in ./model.ts.
 */
export { requireKnownAsset, snapshotFor } from './service.ts';
export type { CatalogueSnapshot } from './snapshot.ts';

export { MAX_ASSET_DEPTH } from './asset-tree.ts';
export {
  parseCatalogueFile,
  CARD_RECORD_FIELDS,
  cardRecordProblems,
  type CardRecordKind,
  NUMERIC_FIELDS,
  suggest,
} from './catalogue-file.ts';
export { isDatabaseEmpty, loadCatalogue } from './load-catalogue.ts';
export {
  ASSET_STATE_UNCHECKED,
  productAsStored,
  type Approval,
  type AssetNode,
  type AssetRateBracketRelation,
  type Product,
  type RateBracket,
} from './model.ts';
export { CatalogueCache, type CatalogueIndexBuilders } from './snapshot.ts';

declare module '../../lib/service-context.ts' {
  interface Services {
    /** The process's catalogue snapshot, reused while the catalogue version holds. */
    catalogue: Pick<import('./snapshot.ts').CatalogueCache, 'get'>;
  }
}
