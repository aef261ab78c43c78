import type { PrismaClient } from '../generated/prisma/client.ts';
import { CatalogueCache } from './catalogue/snapshot.ts';
import { evaluateApprovals } from './matrix/criteria.ts';
import { priceDeal } from './pricing/engine.ts';
import { timedEngine } from '../lib/metrics.ts';

/**
 * Process-wide services that keep state between requests. The engines are here (not imported by the services
 * directly) so a test can make one half of the Matrix Calculator fail and prove the degraded answer.
 */
export interface Services {
  catalogue: Pick<CatalogueCache, 'get'>;
  engines: { priceDeal: typeof priceDeal; evaluateApprovals: typeof evaluateApprovals };
}

export function createServices(prisma: PrismaClient): Services {
  return {
    catalogue: new CatalogueCache(prisma),
    // Timed into engine_duration_seconds (GET /metrics): what the engines cost, apart from the request around them.
    engines: {
      priceDeal: timedEngine('pricing', priceDeal),
      evaluateApprovals: timedEngine('approvals', evaluateApprovals),
    },
  };
}
