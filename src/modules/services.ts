import type { Config } from '../config.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import { systemClock, type Clock } from '../lib/clock.ts';
import { timedEngine } from '../lib/metrics.ts';
import type { PaymentProcessor } from './billing/payment-processor.ts';
import { createPaymentProcessor } from './billing/processors.ts';
import { CatalogueCache } from './catalogue/snapshot.ts';
import { evaluateApprovals } from './matrix/criteria.ts';
import { priceDeal, priceMarket } from './pricing/engine.ts';

/**
 * Process-wide services that keep state between requests. The engines are here (not imported by the services
 * directly) so a test can make one half of the Matrix Calculator fail and prove the degraded answer.
 */
export interface Services {
  catalogue: Pick<CatalogueCache, 'get'>;
  /** The rate engine is `priceDeal` and, for the Matrix Calculator's join, `priceMarket` (the same brackets, no rows). */
  engines: {
    priceDeal: typeof priceDeal;
    priceMarket: typeof priceMarket;
    evaluateApprovals: typeof evaluateApprovals;
  };
  /** Billing's payment processor: Stripe or the built-in one, chosen by the configuration (docs/billing.md). */
  paymentProcessor: PaymentProcessor;
}

export function createServices(prisma: PrismaClient, config: Config, clock: Clock = systemClock): Services {
  return {
    catalogue: new CatalogueCache(prisma),
    // Timed into engine_duration_seconds (GET /metrics): what the engines cost, apart from the request around them.
    engines: {
      priceDeal: timedEngine('pricing', priceDeal),
      priceMarket: timedEngine('pricing', priceMarket),
      evaluateApprovals: timedEngine('approvals', evaluateApprovals),
    },
    paymentProcessor: createPaymentProcessor(config, prisma, clock),
  };
}
