/**
 * The catalogue module's public entry for other modules' services: the request's snapshot and the asset check every
 * deal passes. Its GraphQL registrations are in ./graphql.ts; the engines' records are typed in ./model.ts.
 */
export { requireKnownAsset, snapshotFor } from './service.ts';
export type { CatalogueSnapshot } from './snapshot.ts';

declare module '../../lib/service-context.ts' {
  interface Services {
    /** The process's catalogue snapshot, reused while the catalogue version holds. */
    catalogue: Pick<import('./snapshot.ts').CatalogueCache, 'get'>;
  }
}
