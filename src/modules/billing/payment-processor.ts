/**
 * The payment-processor port: what billing asks of whoever takes the money (docs/billing.md). Two implementations:
 * Stripe (stripe-processor.ts, the official SDK) and the built-in processor the embedded default uses
 * (built-in-processor.ts: no network, its state in our database). `none` (prod without a Stripe key) refuses with 503.
 *
 * Every failure to reach the processor, or an answer we cannot use, is an UpstreamUnavailableError (502): never a 500,
 * never a half-written subscription. Calls are bounded in time (config.paymentProcessorTimeoutMs).
 */
import type { PaymentProcessorChoice } from '../../lib/config.ts';
import type { PlanName, SubscriptionStatus } from '../../lib/vocabulary.ts';

/** The subscription as reactivation sends it to the processor. */
export interface ProcessorSubscriptionRef {
  id: number;
  organisation_id: number;
  processor_id: string | null;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  current_period_end: Date | null;
  trial_end: Date | null;
}

/** The fields of a subscription the processor owns, as it answers them. */
export interface ProcessorSubscriptionState {
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  current_period_end: Date | null;
  trial_end: Date | null;
}

export interface CheckoutRequest {
  organisationId: number;
  plan: PlanName;
  seats: number;
  /** The processor's customer from an earlier subscription, reused so the card and history stay together. */
  customerId: string | null;
  customerEmail: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

export interface Card {
  brand: string;
  last4: string;
}

/** A processor event in our words: what it says about a subscription or a card, or that it says nothing we keep. */
export type ProcessorEvent =
  | {
      kind: 'subscription';
      id: string;
      type: string;
      created: Date;
      subscription: ProcessorSubscriptionState & {
        processor_id: string;
        customer_id: string | null;
        /** From the metadata our checkout put on the subscription; null when absent. */
        organisation_id: number | null;
        plan: PlanName | null;
        seats: number | null;
        card: Card | null;
      };
    }
  | { kind: 'card'; id: string; type: string; created: Date; customer_id: string; card: Card }
  | { kind: 'ignored'; id: string; type: string; created: Date };

/** The signature header is missing or wrong, or the body is not an event: 400, nothing changed. */
export class InvalidWebhookError extends Error {}

export interface PaymentProcessor {
  readonly name: PaymentProcessorChoice;
  /** Clears cancel-at-period-end at the processor; answers the subscription's state after it. */
  reactivate(subscription: ProcessorSubscriptionRef, idempotencyKey: string): Promise<ProcessorSubscriptionState>;
  createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies the signature over the raw body and reads the event; throws (or rejects with) InvalidWebhookError. */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProcessorEvent | Promise<ProcessorEvent>;
}
