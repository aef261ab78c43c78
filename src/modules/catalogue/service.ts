/** The catalogue as a request reads it. No GraphQL here. */
import { FieldErrors } from '../../lib/errors.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import type { CatalogueSnapshot } from './snapshot.ts';

/**
 * The catalogue for this request, as of the version read with the caller: read once per request, whichever fields
 * ask for it. (A request that writes the catalogue and then prices must drop `ctx.cache`'s entry; none does yet.)
 */
export function snapshotFor(ctx: Pick<ServiceContext, 'services' | 'cache' | 'auth'>): Promise<CatalogueSnapshot> {
  let pending = ctx.cache.get('catalogue') as Promise<CatalogueSnapshot> | undefined;
  if (!pending) {
    pending = ctx.services.catalogue.get(ctx.auth.kind === 'caller' ? ctx.auth.catalogueVersion : undefined);
    ctx.cache.set('catalogue', pending);
  }
  return pending;
}

/**
 * A deal names its asset by id; one the catalogue does not hold, or holds as deleted (itself or a category above it),
 * is a 400 on `asset_value`, before anything is metered: search no longer offers it, and pricing would drop it.
 */
export function requireKnownAsset(snapshot: CatalogueSnapshot, assetId: number): void {
  const errors = new FieldErrors();
  if (!snapshot.liveAssetIds.has(assetId)) errors.add('asset_value', 'Unknown asset.');
  errors.throwIfAny();
}
