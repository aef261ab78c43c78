/** The billing module's public entry: entitlements and allowances other modules check, and its payment processor. */
import type { PaymentProcessor } from './payment-processor.ts';

declare module '../../lib/service-context.ts' {
  interface Services {
    /** Stripe or the built-in processor, chosen by the configuration (docs/billing.md). */
    paymentProcessor: PaymentProcessor;
  }
}
