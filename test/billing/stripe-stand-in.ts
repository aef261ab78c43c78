/**
 * A stand-in for Stripe's API on 127.0.0.1, answering Stripe-shaped JSON for the endpoints billing calls
 * (POST /v1/subscriptions/{id}, POST /v1/checkout/sessions). It counts and records every request, and can be told
 * to never answer, to fail, or to be slow (so concurrent calls overlap).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/lib/config.ts';

type StandInMode = 'ok' | 'hang' | 'error_500';

interface StandInRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export const PERIOD_END_SECONDS = 1_900_000_000; // 2030-03-17T17:46:40Z

export interface StripeStandIn {
  url: string;
  port: number;
  mode: StandInMode;
  /** Delay before each answer in `ok` mode. */
  delayMs: number;
  requests: StandInRequest[];
  /** Stripe config pointing the SDK here. */
  config(extra?: Partial<Config>): Partial<Config>;
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const hanging = new Set<ServerResponse>();
  const standIn: StripeStandIn = {
    url: '',
    port: 0,
    mode: 'ok',
    delayMs: 0,
    requests: [],
    config: (extra = {}) => ({
      paymentProcessor: 'stripe',
      stripeSecretKey: 'sk_test_standin',
      stripeApiBase: { host: '127.0.0.1', port: standIn.port, protocol: 'http' },
      stripeWebhookSecret: 'whsec_standin',
      stripePrices: { pro: 'price_pro', max: 'price_max' },
      paymentProcessorTimeoutMs: 400,
      ...extra,
    }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_standin' });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      standIn.requests.push({ method: req.method ?? '', path, form: new URLSearchParams(raw), headers: req.headers });
      if (standIn.mode === 'hang') {
        hanging.add(res);
        return; // never answers
      }
      if (standIn.mode === 'error_500')
        return json(res, 500, { error: { type: 'api_error', message: 'Something went wrong.' } });
      setTimeout(() => answer(req, res, path, new URLSearchParams(raw)), standIn.delayMs);
    });
  });

  const answer = (req: IncomingMessage, res: ServerResponse, path: string, form: URLSearchParams) => {
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (req.method === 'POST' && subscription) {
      const id = decodeURIComponent(subscription[1]);
      if (id === 'sub_gone')
        return json(res, 404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such subscription: '${id}'`,
          },
        });
      return json(
        res,
        200,
        stripeSubscription(id, { cancel_at_period_end: form.get('cancel_at_period_end') === 'true' }),
      );
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      return json(res, 200, {
        id: 'cs_test_standin',
        object: 'checkout.session',
        mode: 'subscription',
        url: 'https://checkout.stripe.test/c/pay/cs_test_standin',
      });
    }
    json(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  standIn.port = (server.address() as AddressInfo).port;
  standIn.url = `http://127.0.0.1:${standIn.port}`;
  return standIn;
}

/** A Stripe subscription object (API 2025+: the period on the items). */
export function stripeSubscription(id: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    object: 'subscription',
    status: 'active',
    cancel_at_period_end: false,
    customer: 'cus_standin',
    trial_end: null,
    metadata: {},
    default_payment_method: null,
    items: {
      object: 'list',
      data: [
        {
          id: 'si_standin',
          object: 'subscription_item',
          quantity: 3,
          current_period_end: PERIOD_END_SECONDS,
          price: { id: 'price_pro', object: 'price' },
        },
      ],
    },
    ...fields,
  };
}

/** A port nothing listens on: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
