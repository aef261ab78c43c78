/**
 * Billing's HTTP endpoints that are not GraphQL operations (docs/billing.md), mounted by app.ts before any JSON
 * parsing:
 * - POST /api/v1/billing/webhooks/stripe: Stripe's events. The signature is over the raw bytes, so the body is read
 *   raw (with the one body limit) and verified with the SDK before anything reads it. Invalid signature: 400, nothing
 *   changed. Verified events: 200 (replays, stale and unknown events included), so Stripe stops retrying them.
 * - GET/POST /api/v1/billing/checkout-sessions/{id}: the built-in processor's checkout page; POST completes the
 *   purchase. The session id is the secret (like a Stripe Checkout URL); only the built-in processor answers here.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Subscription } from '../generated/prisma/client.ts';
import { DomainError } from '../lib/errors.ts';
import { retryableReply } from '../lib/database-errors.ts';
import { logger } from '../lib/logger.ts';
import type { AppDeps } from '../lib/service-context.ts';
import {
  applyProcessorEvent,
  builtinCheckoutPath,
  completeBuiltinCheckout,
  InvalidWebhookError,
  type ProcessorEvent,
} from '../modules/billing/index.ts';

const BUILTIN_SESSION_ID = /^bcs_[A-Za-z0-9_-]{24}$/;

/** The spec's Subscription fields, in its order. */
function subscriptionBody(s: Subscription) {
  return {
    plan: s.plan,
    plan_name: s.plan_name,
    status: s.status,
    seats: s.seats,
    trial_end: s.trial_end?.toISOString() ?? null,
    current_period_end: s.current_period_end?.toISOString() ?? null,
    cancel_at_period_end: s.cancel_at_period_end,
    card_brand: s.card_brand,
    card_last4: s.card_last4,
  };
}

function failed(res: Response, error: unknown, what: string): void {
  const retry = retryableReply([error]);
  if (retry) {
    const [status, body, headers] = retry;
    res.status(status).set(headers).json(body);
    return;
  }
  logger.error(what, { message: (error as Error)?.message, stack: (error as Error)?.stack });
  res.status(500).json({ error: 'Internal server error.' });
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function billingHttp(deps: AppDeps): express.Router {
  const router = express.Router();
  const processor = deps.services.paymentProcessor;
  const raw = express.raw({ type: () => true, limit: deps.config.maxBodyBytes });

  router.post('/api/v1/billing/webhooks/stripe', raw, async (req: Request, res: Response) => {
    if (processor.name !== 'stripe' || !deps.config.stripeWebhookSecret) {
      res.status(503).json({ error: 'Stripe webhooks are not configured on this service.' });
      return;
    }
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    let event: ProcessorEvent;
    try {
      event = await processor.parseWebhook(body, req.get('stripe-signature'));
    } catch (error) {
      if (error instanceof InvalidWebhookError) {
        res.status(400).json({ error: error.message });
        return;
      }
      return failed(res, error, 'billing.webhook_unreadable');
    }
    try {
      const outcome = await applyProcessorEvent(deps, event);
      res.status(200).json({ received: true, outcome });
    } catch (error) {
      failed(res, error, 'billing.webhook_failed');
    }
  });

  const builtinSession = (req: Request, res: Response): string | null => {
    const id = String(req.params.id);
    if (processor.name !== 'builtin' || !BUILTIN_SESSION_ID.test(id)) {
      res.status(404).json({ error: 'Not found.' });
      return null;
    }
    return id;
  };

  router.get('/api/v1/billing/checkout-sessions/:id', async (req: Request, res: Response) => {
    const id = builtinSession(req, res);
    if (!id) return;
    try {
      const session = await deps.prisma.builtinCheckoutSession.findUnique({ where: { id } });
      if (!session || session.completed_at || session.expires_at <= deps.clock.now()) {
        res.status(404).json({ error: 'Not found.' });
        return;
      }
      res
        .status(200)
        .set({ 'Content-Security-Policy': "default-src 'none'; form-action 'self'", 'Cache-Control': 'no-store' })
        .type('html')
        .send(
          `<!doctype html><meta charset="utf-8"><title>Checkout</title>` +
            `<p>Built-in payment processor (no payment is taken): ${escapeHtml(session.plan)} plan, ` +
            `${session.seats} seat(s).</p>` +
            `<form method="post" action="${escapeHtml(builtinCheckoutPath(id))}"><button>Complete purchase</button></form>`,
        );
    } catch (error) {
      failed(res, error, 'billing.builtin_checkout_failed');
    }
  });

  router.post('/api/v1/billing/checkout-sessions/:id', raw, async (req: Request, res: Response) => {
    const id = builtinSession(req, res);
    if (!id) return;
    try {
      const outcome = await completeBuiltinCheckout(deps, id);
      if (outcome === 'not_found') {
        res.status(404).json({ error: 'Not found.' });
        return;
      }
      // A browser's form post goes back to the app; an API client reads the subscription.
      if (req.accepts(['json', 'html']) === 'html') {
        const back = new URL(deps.config.checkoutReturnUrl);
        back.searchParams.set('checkout', 'success');
        res.redirect(303, back.toString());
        return;
      }
      res.status(200).json({ subscription: subscriptionBody(outcome.subscription) });
    } catch (error) {
      if (error instanceof DomainError) {
        res.status(409).json({ error: error.message });
        return;
      }
      failed(res, error, 'billing.builtin_checkout_failed');
    }
  });

  // The raw body's own failures (too large, unreadable) answer as JSON, like the rest of /api/v1.
  router.use((err: any, _req: Request, res: Response, next: NextFunction) => {
    if (err?.type === 'entity.too.large') res.status(413).json({ error: 'Request body is too large.' });
    else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500)
      res.status(err.status).json({ error: 'The request body could not be read.' });
    else next(err);
  });
  return router;
}
