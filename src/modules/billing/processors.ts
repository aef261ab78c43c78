/** Chooses the payment processor from the configuration (docs/billing.md). */
import type { Config } from '../../lib/config.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { NotConfiguredError } from '../../lib/errors.ts';
import { BuiltinProcessor } from './built-in-processor.ts';
import {
  InvalidWebhookError,
  type CheckoutSession,
  type PaymentProcessor,
  type ProcessorEvent,
  type ProcessorSubscriptionState,
} from './payment-processor.ts';

/** prod without a live Stripe key: billing changes are refused as not configured (503), never faked. */
class NoProcessor implements PaymentProcessor {
  readonly name = 'none' as const;
  private refuse(): never {
    throw new NotConfiguredError('Billing is not available: no payment processor is configured.');
  }
  async reactivate(): Promise<ProcessorSubscriptionState> {
    this.refuse();
  }
  async createCheckoutSession(): Promise<CheckoutSession> {
    this.refuse();
  }
  parseWebhook(): ProcessorEvent {
    throw new InvalidWebhookError('No payment processor is configured.');
  }
}

/**
 * Stripe, its SDK loaded on the first billing call: the SDK takes about half a second to load, which every process
 * (and every test file) would otherwise pay at start whether or not it ever bills.
 */
function lazyStripe(config: Config): PaymentProcessor {
  let loaded: Promise<PaymentProcessor> | undefined;
  const stripe = () => {
    loaded ??= import('./stripe-processor.ts').then((m) => new m.StripeProcessor(config));
    return loaded;
  };
  return {
    name: 'stripe',
    reactivate: async (subscription, idempotencyKey) => (await stripe()).reactivate(subscription, idempotencyKey),
    createCheckoutSession: async (request) => (await stripe()).createCheckoutSession(request),
    parseWebhook: async (rawBody, signatureHeader) => (await stripe()).parseWebhook(rawBody, signatureHeader),
  };
}

export function createPaymentProcessor(config: Config, prisma: PrismaClient, clock: Clock): PaymentProcessor {
  switch (config.paymentProcessor) {
    case 'stripe':
      return lazyStripe(config);
    case 'builtin':
      return new BuiltinProcessor(config, prisma, clock);
    case 'none':
      return new NoProcessor();
  }
}
