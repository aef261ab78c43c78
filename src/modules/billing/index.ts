/**
 * The billing module's public entry: entitlements and allowances other modules check, its payment processor, and
 * what the processor's webhook (src/webhooks/billing.ts) applies.
 */
import type { PaymentProcessor } from './payment-processor.ts';

export { builtinCheckoutPath } from './built-in-processor.ts';
export { InvalidWebhookError, type ProcessorEvent } from './payment-processor.ts';
export { applyProcessorEvent, completeBuiltinCheckout } from './service.ts';

export { meterRun, requireSurface, surfaceState } from './entitlements.ts';
export { RUN_ERRORS } from './errors.ts';
export { createPaymentProcessor } from './processors.ts';

declare module '../../lib/service-context.ts' {
  interface Services {
    /** Stripe or the built-in processor, chosen by the configuration (docs/billing.md). */
    paymentProcessor: PaymentProcessor;
  }
}
