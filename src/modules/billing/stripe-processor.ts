/**
 * The payment processor on Stripe, through the official SDK. Every call is bounded: the SDK's own `timeout`, no
 * automatic retries (a retry would double the wait the caller sees), and a deadline of our own around the whole call,
 * because the SDK's timeout is an idle-socket timeout that a slowly trickling answer could stretch.
 * The secret key never appears in a log line or an error sent to a client.
 */
import Stripe from 'stripe';
import type { Config } from '../../lib/config.ts';
import { NotConfiguredError, NotFoundError, UpstreamUnavailableError } from '../../lib/errors.ts';
import { logger } from '../../lib/logger.ts';
import { PLANS, SUBSCRIPTION_STATUSES, isOneOf, type PlanName } from '../../lib/vocabulary.ts';
import {
  InvalidWebhookError,
  type Card,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentProcessor,
  type ProcessorEvent,
  type ProcessorSubscriptionRef,
  type ProcessorSubscriptionState,
} from './payment-processor.ts';

const PROCESSOR_UNREACHABLE_MESSAGE = 'The payment processor could not be reached. Try again shortly.';

/** Webhook signatures older, or further in the future, than this are refused (Stripe's default tolerance). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The body as the exact text whose bytes arrived. The SDK decodes a Buffer with a default TextDecoder, which drops a
 * leading byte-order mark and turns invalid UTF-8 into U+FFFD, so a copy of a signed body with a BOM in front (or
 * with a broken byte) would verify. Decoded strictly and with the BOM kept, the text's UTF-8 is the received bytes,
 * and the SDK signs exactly those. null: not UTF-8, so not a Stripe event.
 */
function exactText(rawBody: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(rawBody);
  } catch {
    return null;
  }
}

/**
 * The header's timestamp (`t=`), when it has exactly one, in whole seconds. The SDK checks only that a signature is
 * not too old; a timestamp in the future is checked here.
 */
function signedAt(signatureHeader: string): number | null {
  const stamps = signatureHeader
    .split(',')
    .map((part) => part.trim().split('='))
    .filter(([key]) => key === 't');
  if (stamps.length !== 1 || !/^[0-9]{1,12}$/.test(stamps[0][1] ?? '')) return null;
  return Number(stamps[0][1]);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** Stripe ids and event types are short ASCII words: anything else is not stored (it could not be Stripe's). */
const ident = (v: unknown): string | null => (typeof v === 'string' && /^[A-Za-z0-9_.-]{1,255}$/.test(v) ? v : null);
const seconds = (v: unknown): Date | null =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? new Date(v * 1000) : null;

class Deadline extends Error {}

/** Rejects with Deadline when `work` has not settled within `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Deadline()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly config: Config) {
    this.stripe = new Stripe(config.stripeSecretKey!, {
      timeout: config.paymentProcessorTimeoutMs,
      maxNetworkRetries: 0,
      telemetry: false,
      ...(config.stripeApiBase ?? {}),
    });
  }

  /** One bounded call; every way it fails becomes a DomainError (404 for a subscription Stripe no longer has). */
  private async call<T>(operation: string, work: () => Promise<T>): Promise<T> {
    // A small margin over the SDK's timeout, so the SDK reports its own timeout first when it can.
    const deadline = this.config.paymentProcessorTimeoutMs + 250;
    try {
      return await within(deadline, work());
    } catch (error) {
      if (error instanceof Deadline) {
        logger.warn('billing.processor_timeout', { operation, timeout_ms: deadline });
        throw new UpstreamUnavailableError(PROCESSOR_UNREACHABLE_MESSAGE);
      }
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
        throw new NotFoundError('There is no subscription to reactivate.');
      }
      const e = error as { type?: string; statusCode?: number; code?: string; message?: string };
      logger.warn('billing.processor_failed', {
        operation,
        type: e?.type,
        status: e?.statusCode,
        code: e?.code,
        message: e?.message,
      });
      throw new UpstreamUnavailableError(PROCESSOR_UNREACHABLE_MESSAGE);
    }
  }

  async reactivate(
    subscription: ProcessorSubscriptionRef,
    idempotencyKey: string,
  ): Promise<ProcessorSubscriptionState> {
    if (!subscription.processor_id) {
      // Our row names no Stripe subscription (entered by hand or loaded from a file): nothing at Stripe to change.
      logger.error('billing.subscription_not_linked', { subscription_id: subscription.id });
      throw new UpstreamUnavailableError(PROCESSOR_UNREACHABLE_MESSAGE);
    }
    const answer = await this.call('subscriptions.update', () =>
      this.stripe.subscriptions.update(subscription.processor_id!, { cancel_at_period_end: false }, { idempotencyKey }),
    );
    const state = stateOf(answer as unknown as Json);
    if (!state) throw new UpstreamUnavailableError(PROCESSOR_UNREACHABLE_MESSAGE);
    return state;
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const price = this.config.stripePrices[request.plan];
    if (!price) throw new NotConfiguredError(`Checkout is not configured for the ${request.plan} plan.`);
    const metadata = { organisation_id: String(request.organisationId), plan: request.plan };
    const returnUrl = new URL(this.config.checkoutReturnUrl);
    const back = (outcome: string) => {
      const url = new URL(returnUrl);
      url.searchParams.set('checkout', outcome);
      return url.toString();
    };
    const session = await this.call('checkout.sessions.create', () =>
      this.stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price, quantity: request.seats }],
        ...(request.customerId ? { customer: request.customerId } : { customer_email: request.customerEmail }),
        client_reference_id: String(request.organisationId),
        metadata,
        subscription_data: { metadata },
        success_url: back('success'),
        cancel_url: back('canceled'),
      }),
    );
    const id = str((session as unknown as Json).id);
    const url = str((session as unknown as Json).url);
    if (!id || !url) throw new UpstreamUnavailableError(PROCESSOR_UNREACHABLE_MESSAGE);
    return { id, url };
  }

  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProcessorEvent {
    const secret = this.config.stripeWebhookSecret;
    if (!secret) throw new InvalidWebhookError('Webhook signing secret is not configured.');
    if (!signatureHeader) throw new InvalidWebhookError('Missing Stripe-Signature header.');
    const unverified = new InvalidWebhookError('The webhook signature could not be verified.');
    const text = exactText(rawBody);
    const timestamp = signedAt(signatureHeader);
    if (text === null || timestamp === null) throw unverified;
    const now = Date.now();
    let event: Json;
    try {
      event = this.stripe.webhooks.constructEvent(
        text,
        signatureHeader,
        secret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        now,
      ) as unknown as Json;
    } catch {
      throw unverified;
    }
    // The tolerance holds both ways: a signature dated ahead of our clock is refused like a stale one.
    if (timestamp - Math.floor(now / 1000) > SIGNATURE_TOLERANCE_SECONDS) throw unverified;
    return this.eventOf(event);
  }

  /** Reads a verified event; a shape we cannot use is acknowledged as ignored (Stripe would otherwise retry it). */
  private eventOf(event: Json): ProcessorEvent {
    const id = ident(event.id);
    const type = ident(event.type);
    const created = seconds(event.created);
    if (!id || !type || !created) throw new InvalidWebhookError('The body is not a Stripe event.');
    const object = isObject(event.data) && isObject(event.data.object) ? event.data.object : null;
    const ignored: ProcessorEvent = { kind: 'ignored', id, type, created };
    if (!object) return ignored;
    if (type.startsWith('customer.subscription.') && object.object === 'subscription') {
      const state = stateOf(object);
      const processorId = ident(object.id);
      if (!state || !processorId) return ignored;
      const metadata = isObject(object.metadata) ? object.metadata : {};
      const organisationId = Number(metadata.organisation_id);
      const item = firstItem(object);
      const quantity = item?.quantity;
      return {
        kind: 'subscription',
        id,
        type,
        created,
        subscription: {
          ...state,
          processor_id: processorId,
          customer_id: ident(object.customer) ?? (isObject(object.customer) ? ident(object.customer.id) : null),
          organisation_id: Number.isSafeInteger(organisationId) && organisationId > 0 ? organisationId : null,
          plan: this.planOf(metadata.plan, item),
          seats: typeof quantity === 'number' && Number.isSafeInteger(quantity) && quantity >= 0 ? quantity : null,
          card: isObject(object.default_payment_method) ? cardOf(object.default_payment_method) : null,
        },
      };
    }
    if (
      (type === 'payment_method.attached' ||
        type === 'payment_method.updated' ||
        type === 'payment_method.automatically_updated') &&
      object.object === 'payment_method'
    ) {
      const customer = ident(object.customer);
      const card = cardOf(object);
      if (!customer || !card) return ignored;
      return { kind: 'card', id, type, created, customer_id: customer, card };
    }
    return ignored;
  }

  /** The plan our checkout wrote into the metadata, else the plan whose configured price the item bills. */
  private planOf(fromMetadata: unknown, item: Json | null): PlanName | null {
    if (isOneOf(PLANS, fromMetadata)) return fromMetadata;
    const price = item && isObject(item.price) ? str(item.price.id) : null;
    if (!price) return null;
    const found = Object.entries(this.config.stripePrices).find(([, id]) => id === price);
    return found ? (found[0] as PlanName) : null;
  }
}

function firstItem(subscription: Json): Json | null {
  const items = subscription.items;
  if (!isObject(items) || !Array.isArray(items.data) || !isObject(items.data[0])) return null;
  return items.data[0];
}

/** A Stripe subscription object's state; null when it is not one we can read. */
function stateOf(subscription: Json): ProcessorSubscriptionState | null {
  if (!isOneOf(SUBSCRIPTION_STATUSES, subscription.status)) return null;
  if (typeof subscription.cancel_at_period_end !== 'boolean') return null;
  // Since API version 2025-03-31 the period lives on the subscription items; older versions keep it on the subscription.
  const item = firstItem(subscription);
  return {
    status: subscription.status,
    cancel_at_period_end: subscription.cancel_at_period_end,
    current_period_end: seconds(item?.current_period_end) ?? seconds(subscription.current_period_end),
    trial_end: seconds(subscription.trial_end),
  };
}

function cardOf(paymentMethod: Json): Card | null {
  const card = isObject(paymentMethod.card) ? paymentMethod.card : null;
  const brand = card ? str(card.brand) : null;
  const last4 = card ? str(card.last4) : null;
  // Stored as given, within what a card brand and four digits can be: nothing longer reaches our rows.
  if (!brand || !last4 || !/^[A-Za-z0-9_ -]{1,32}$/.test(brand) || !/^\d{4}$/.test(last4)) return null;
  return { brand, last4 };
}
