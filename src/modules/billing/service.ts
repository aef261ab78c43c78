/**
 * Billing use cases (docs/billing.md): reactivation, checkout, and keeping our subscription rows current from the
 * payment processor's events. No GraphQL here.
 *
 * Concurrency: reactivation holds the subscription row's lock (SELECT ... FOR UPDATE) across the processor call, so
 * of concurrent reactivations one changes the processor and the others, once it commits, read
 * `cancel_at_period_end` false and answer 409, in any number of processes. The call is bounded in time
 * (paymentProcessorTimeoutMs), so the lock is too; when the processor fails the transaction rolls back and the
 * subscription is unchanged. Processor events are applied under the organisation row's lock, after recording the
 * event id (a replay changes nothing) and comparing the event's `created` with the last one applied (an older event
 * never overwrites newer state).
 */
import type { Subscription } from '../../generated/prisma/client.ts';
import type { Db } from '../../lib/db.ts';
import { FieldErrors, NotFoundError } from '../../lib/errors.ts';
import { logger } from '../../lib/logger.ts';
import { say } from '../../lib/wording.ts';
import { isOneOf, PURCHASABLE_PLANS, type PlanName, type SubscriptionStatus } from '../../lib/vocabulary.ts';
import type { Caller } from '../../lib/caller.ts';
import { lockOrganisation } from '../organisations/index.ts';
import type { ServiceContext } from '../../lib/service-context.ts';
import { builtinSubscriptionCreated } from './built-in-processor.ts';
import { AlreadySubscribedError, CheckoutCompletedError, NotScheduledToCancelError } from './errors.ts';
import type { CheckoutSession, ProcessorEvent } from './payment-processor.ts';
import { PLAN_TERMS } from '../../lib/plans.ts';

/** Statuses of a subscription that is over or never started: reactivation answers 404; checkout is the way back. */
const ENDED: readonly SubscriptionStatus[] = ['canceled', 'incomplete', 'incomplete_expired'];
/** The organisation has its plan while its subscription is in one of these. */
const GRANTS_PLAN: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];
/** ... and falls back to Free in these (`incomplete`, a first payment still pending, changes nothing). */
const REVOKES_PLAN: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired', 'unpaid', 'paused'];

/** Seats one checkout may buy when the plan sets no user limit. */
const MAX_CHECKOUT_SEATS = 1000;

type BillingContext = Pick<ServiceContext, 'prisma' | 'services' | 'config' | 'clock'>;

/** Long enough for our lock wait plus one bounded processor call; the processor's own bound ends it first. */
function transactionTimeoutMs(ctx: Pick<ServiceContext, 'config'>): number {
  return 2 * ctx.config.paymentProcessorTimeoutMs + 10_000;
}

/** POST /billing/reactivate: clears cancel-at-period-end at the processor, then in our row. */
export async function reactivateSubscription(
  ctx: BillingContext & Pick<ServiceContext, 'client'>,
  caller: Caller,
): Promise<Subscription> {
  const organisationId = caller.organisation?.id;
  if (!organisationId) throw new NotFoundError(say('nothing_to_reactivate', ctx.client));
  return ctx.prisma.$transaction(
    async (tx) => {
      const locked = await tx.$queryRawUnsafe<{ id: number }[]>(
        'SELECT id FROM subscriptions WHERE organisation_id = $1 FOR UPDATE',
        organisationId,
      );
      if (!locked.length) throw new NotFoundError(say('nothing_to_reactivate', ctx.client));
      const subscription = await tx.subscription.findUniqueOrThrow({ where: { id: locked[0].id } });
      if (ENDED.includes(subscription.status)) throw new NotFoundError(say('nothing_to_reactivate', ctx.client));
      if (!subscription.cancel_at_period_end) throw new NotScheduledToCancelError();
      // One key per state of the row: a retry of the same reactivation is one change at the processor.
      const idempotencyKey = `reactivate-${subscription.id}-${subscription.updated_at.getTime()}`;
      const state = await ctx.services.paymentProcessor.reactivate(subscription, idempotencyKey);
      const now = ctx.clock.now();
      const watermark = subscription.processor_event_at;
      return tx.subscription.update({
        where: { id: subscription.id },
        data: {
          ...state,
          // Events the processor created before this answer describe the state before it: they must not undo it.
          processor_event_at: watermark && watermark > now ? watermark : now,
        },
      });
    },
    { maxWait: 10_000, timeout: transactionTimeoutMs(ctx) },
  );
}

export interface CheckoutInput {
  plan: string;
  seats?: number | null;
}

/** POST /billing/checkout-session: the way (back) to a subscription. */
export async function createCheckoutSession(
  ctx: BillingContext,
  caller: Caller,
  input: CheckoutInput,
): Promise<CheckoutSession> {
  const errors = new FieldErrors();
  const plan = input.plan;
  if (!isOneOf(PURCHASABLE_PLANS, plan)) errors.add('plan', `Must be one of ${PURCHASABLE_PLANS.join(', ')}.`);
  const seats = input.seats ?? 1;
  const maxSeats = isOneOf(PURCHASABLE_PLANS, plan)
    ? (PLAN_TERMS[plan].limit ?? MAX_CHECKOUT_SEATS)
    : MAX_CHECKOUT_SEATS;
  if (!Number.isInteger(seats) || seats < 1 || seats > maxSeats)
    errors.add('seats', `Must be a whole number from 1 to ${maxSeats}.`);
  errors.throwIfAny();
  const organisationId = caller.organisation!.id;
  const existing = await ctx.prisma.subscription.findUnique({ where: { organisation_id: organisationId } });
  if (existing && !ENDED.includes(existing.status)) throw new AlreadySubscribedError();
  return ctx.services.paymentProcessor.createCheckoutSession({
    organisationId,
    plan: plan as PlanName,
    seats,
    customerId: existing?.processor_customer_id ?? null,
    customerEmail: caller.email,
  });
}

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored';

/** Applies one verified processor event, idempotently (see the top of this file). */
export async function applyProcessorEvent(ctx: Pick<ServiceContext, 'prisma'>, event: ProcessorEvent) {
  const outcome = await ctx.prisma.$transaction((tx) => applyEvent(tx, event));
  logger.info('billing.processor_event', { id: event.id, type: event.type, outcome });
  return outcome;
}

async function applyEvent(tx: Db, event: ProcessorEvent): Promise<EventOutcome> {
  // The event id is recorded first: a concurrent delivery of the same event waits here, then finds it recorded.
  const recorded = await tx.processedWebhookEvent.createMany({
    data: [{ id: event.id, type: event.type.slice(0, 200), event_created: event.created }],
    skipDuplicates: true,
  });
  if (recorded.count === 0) return 'duplicate';
  if (event.kind === 'ignored') return 'ignored';
  if (event.kind === 'card') {
    const locked = await tx.$queryRawUnsafe<{ id: number }[]>(
      'SELECT id FROM subscriptions WHERE processor_customer_id = $1 FOR UPDATE',
      event.customer_id,
    );
    if (!locked.length) return 'ignored';
    const row = await tx.subscription.findUniqueOrThrow({ where: { id: locked[0].id } });
    if (row.card_event_at && event.created < row.card_event_at) return 'stale';
    await tx.subscription.update({
      where: { id: row.id },
      data: { card_brand: event.card.brand, card_last4: event.card.last4, card_event_at: event.created },
    });
    return 'applied';
  }

  const s = event.subscription;
  const known = await tx.subscription.findFirst({
    where: { processor_id: s.processor_id },
    select: { organisation_id: true },
  });
  const organisationId = known?.organisation_id ?? s.organisation_id;
  if (!organisationId) return 'ignored';
  // The organisation's lock serialises every event for it, including the first, which creates the row.
  if (!(await lockOrganisation(tx, organisationId))) return 'ignored';
  const row = await tx.subscription.findUnique({ where: { organisation_id: organisationId } });

  let replacing = false;
  if (row?.processor_id && row.processor_id !== s.processor_id) {
    // Another processor subscription than the one on file: it replaces ours only when ours has ended and it has not
    // (a new subscription through checkout); a late event of an old subscription never resurrects it.
    if (!ENDED.includes(row.status) || ENDED.includes(s.status)) return 'ignored';
    replacing = true;
  } else if (row?.processor_event_at && event.created < row.processor_event_at) {
    return 'stale';
  }
  const plan = s.plan ?? (replacing ? null : row?.plan) ?? null;
  if (!plan) return 'ignored'; // nothing says which plan this is: nothing we can show
  const data = {
    plan,
    plan_name: PLAN_TERMS[plan].plan_name,
    status: s.status,
    cancel_at_period_end: s.cancel_at_period_end,
    current_period_end: s.current_period_end,
    trial_end: s.trial_end,
    processor_id: s.processor_id,
    processor_event_at: event.created,
    ...(s.seats !== null ? { seats: Math.max(s.seats, 1) } : {}),
    ...(s.customer_id ? { processor_customer_id: s.customer_id } : {}),
    ...(s.card
      ? { card_brand: s.card.brand, card_last4: s.card.last4, card_event_at: event.created }
      : replacing
        ? { card_brand: null, card_last4: null, card_event_at: null }
        : {}),
  };
  if (row) await tx.subscription.update({ where: { id: row.id }, data });
  else await tx.subscription.create({ data: { ...data, organisation_id: organisationId } });

  if (GRANTS_PLAN.includes(s.status)) await tx.organisation.update({ where: { id: organisationId }, data: { plan } });
  else if (REVOKES_PLAN.includes(s.status))
    await tx.organisation.update({ where: { id: organisationId }, data: { plan: 'free' } });
  return 'applied';
}

export type BuiltinCheckoutOutcome = { subscription: Subscription } | 'not_found';

/**
 * Completes a built-in checkout (the URL the built-in processor answers): claims the session once, then applies the
 * event the built-in processor emits, in one transaction. No payment is taken (config.ts refuses this in prod).
 */
export async function completeBuiltinCheckout(ctx: Pick<ServiceContext, 'prisma' | 'clock'>, id: string) {
  const now = ctx.clock.now();
  return ctx.prisma.$transaction(async (tx): Promise<BuiltinCheckoutOutcome> => {
    const claimed = await tx.builtinCheckoutSession.updateMany({
      where: { id, completed_at: null, expires_at: { gt: now } },
      data: { completed_at: now },
    });
    const session = await tx.builtinCheckoutSession.findUnique({ where: { id } });
    if (!session || (claimed.count === 0 && !session.completed_at)) return 'not_found';
    if (claimed.count === 0) throw new CheckoutCompletedError();
    // Under the organisation's lock, so two of its sessions completed at once make one subscription, not two.
    if (!(await lockOrganisation(tx, session.organisation_id))) return 'not_found';
    const existing = await tx.subscription.findUnique({ where: { organisation_id: session.organisation_id } });
    if (existing && !ENDED.includes(existing.status)) throw new AlreadySubscribedError();
    const event = builtinSubscriptionCreated(session, now);
    // Thrown, not returned: the claim rolls back with it.
    if ((await applyEvent(tx, event)) !== 'applied') throw new AlreadySubscribedError();
    return {
      subscription: await tx.subscription.findUniqueOrThrow({ where: { organisation_id: session.organisation_id } }),
    };
  });
}
