import type { AppDeps } from '../lib/context.ts';
import { CatalogueCache } from './catalogue/snapshot.ts';

/** Process-wide services that keep state between requests. Tests may replace members to inject failures. */
export interface Services {
  catalogue: Pick<CatalogueCache, 'get'>;
}

export function createServices(deps: Omit<AppDeps, 'services'>): Services {
  return { catalogue: new CatalogueCache(deps.prisma) };
}
