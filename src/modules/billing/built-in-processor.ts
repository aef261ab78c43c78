/**
 * The built-in payment processor: what the embedded default (no STRIPE_SECRET_KEY, outside prod) uses, so billing
 * works end to end with no network and no account anywhere. It takes no payment. Its state is in our database:
 * checkout sessions (builtin_checkout_sessions) and the subscriptions themselves. Completing a checkout emits the
 * same kind of event a Stripe webhook delivers, applied by the same code (service.ts applyProcessorEvent).
 * config.ts refuses it in prod.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../lib/config.ts';
import type { PrismaClient } from '../../generated/prisma/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { PLANS, isOneOf } from '../../lib/vocabulary.ts';
import {
  InvalidWebhookError,
  type CheckoutRequest,
  type CheckoutSession,
  type PaymentProcessor,
  type ProcessorEvent,
  type ProcessorSubscriptionRef,
  type ProcessorSubscriptionState,
} from './payment-processor.ts';
import { PLAN_TERMS } from '../../lib/plans.ts';

/** How long a built-in checkout URL stays usable. */
const BUILTIN_CHECKOUT_TTL_MS = 24 * 3600 * 1000;
/** Open checkout sessions kept per organisation; creating one more drops the oldest. */
const BUILTIN_OPEN_SESSIONS_PER_ORGANISATION = 10;
/** A built-in subscription renews monthly. */
const PERIOD_DAYS = 30;

/** The path on this service where a built-in checkout session is completed (GET shows a page, POST completes). */
export function builtinCheckoutPath(id: string): string {
  return `/api/v1/billing/checkout-sessions/${id}`;
}

const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

export class BuiltinProcessor implements PaymentProcessor {
  readonly name = 'builtin' as const;

  constructor(
    private readonly config: Config,
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
  ) {}

  async reactivate(subscription: ProcessorSubscriptionRef): Promise<ProcessorSubscriptionState> {
    return {
      status: subscription.status,
      cancel_at_period_end: false,
      current_period_end: subscription.current_period_end,
      trial_end: subscription.trial_end,
    };
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSession> {
    const now = this.clock.now();
    const id = token('bcs');
    await this.prisma.$transaction(async (tx) => {
      // Bounded per organisation: expired and completed sessions go, and the oldest open ones beyond the cap.
      await tx.builtinCheckoutSession.deleteMany({
        where: {
          organisation_id: request.organisationId,
          OR: [{ expires_at: { lte: now } }, { completed_at: { not: null } }],
        },
      });
      const open = await tx.builtinCheckoutSession.findMany({
        where: { organisation_id: request.organisationId },
        orderBy: { created_at: 'desc' },
        select: { id: true },
        skip: BUILTIN_OPEN_SESSIONS_PER_ORGANISATION - 1,
      });
      if (open.length) await tx.builtinCheckoutSession.deleteMany({ where: { id: { in: open.map((s) => s.id) } } });
      await tx.builtinCheckoutSession.create({
        data: {
          id,
          organisation_id: request.organisationId,
          plan: request.plan,
          seats: request.seats,
          created_at: now,
          expires_at: new Date(now.getTime() + BUILTIN_CHECKOUT_TTL_MS),
        },
      });
    });
    return { id, url: `${this.config.publicBaseUrl}${builtinCheckoutPath(id)}` };
  }

  parseWebhook(): ProcessorEvent {
    throw new InvalidWebhookError('The built-in payment processor delivers its events in-process.');
  }
}

/** The event a completed built-in checkout emits: a new active subscription, as Stripe's subscription.created says it. */
export function builtinSubscriptionCreated(
  session: { organisation_id: number; plan: string; seats: number },
  now: Date,
): ProcessorEvent {
  const plan = isOneOf(PLANS, session.plan) ? session.plan : 'pro';
  return {
    kind: 'subscription',
    id: token('evt_builtin'),
    type: 'customer.subscription.created',
    created: now,
    subscription: {
      processor_id: token('sub_builtin'),
      customer_id: `cus_builtin_${session.organisation_id}`,
      organisation_id: session.organisation_id,
      plan: PLAN_TERMS[plan] ? plan : 'pro',
      seats: session.seats,
      status: 'active',
      cancel_at_period_end: false,
      current_period_end: new Date(now.getTime() + PERIOD_DAYS * 24 * 3600 * 1000),
      trial_end: null,
      card: null,
    },
  };
}
