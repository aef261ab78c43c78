import type { Config } from './lib/config.ts';
import type { PrismaClient } from './generated/prisma/client.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { timedEngine } from './lib/metrics.ts';
import type { AppDeps, Services } from './lib/service-context.ts';
import { WriteSlots } from './lib/write-slots.ts';
import { authenticate } from './modules/auth/index.ts';
import { createPaymentProcessor } from './modules/billing/index.ts';
import { CatalogueCache, type CatalogueIndexBuilders } from './modules/catalogue/index.ts';
import { buildAssetAncestry, buildCriteriaTable, evaluateApprovals } from './modules/matrix/index.ts';
import { buildPricingIndex, priceDeal, priceMarket } from './modules/pricing/index.ts';

/** The engines' indexes each catalogue snapshot carries, built by their engines' modules. */
export const catalogueIndexBuilders: CatalogueIndexBuilders = {
  criteria: (records) => buildCriteriaTable(records.approvals),
  pricingIndex: ({ assets, products, brackets, relations }) =>
    buildPricingIndex({ assets, products, brackets, relations }),
  ancestry: (records) => buildAssetAncestry(records.assets),
};

/** What every request and worker of a process reads (src/lib/service-context.ts), over one database. */
export function createDeps(prisma: PrismaClient, config: Config, clock: Clock = systemClock): AppDeps {
  return {
    prisma,
    config,
    clock,
    services: createServices(prisma, config, clock),
    writeSlots: new WriteSlots(config.writeConcurrencyPerOrganisation),
  };
}

/** The process-wide services (src/lib/service-context.ts), each from the module that provides it. */
function createServices(prisma: PrismaClient, config: Config, clock: Clock): Services {
  return {
    authenticate,
    catalogue: new CatalogueCache(prisma, catalogueIndexBuilders),
    // Timed into engine_duration_seconds (GET /metrics): what the engines cost, apart from the request around them.
    engines: {
      priceDeal: timedEngine('pricing', priceDeal),
      priceMarket: timedEngine('pricing', priceMarket),
      evaluateApprovals: timedEngine('approvals', evaluateApprovals),
    },
    paymentProcessor: createPaymentProcessor(config, prisma, clock),
  };
}
