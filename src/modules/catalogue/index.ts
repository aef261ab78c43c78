/** The catalogue module's public entry: what other modules may use of it. */
export { snapshotFor } from './service.ts';
export type { CatalogueSnapshot } from './snapshot.ts';
