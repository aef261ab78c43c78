/**
 * Which payment processor (docs/billing.md): Stripe when STRIPE_SECRET_KEY is set, else the built-in processor;
 * prod never loads a test key nor the built-in processor.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/lib/config.ts';

const load = (env: Record<string, string>) =>
  loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env } as NodeJS.ProcessEnv, { dataDir: ':memory:' });

describe('The processor is Stripe when STRIPE_SECRET_KEY is set, else the built-in one', () => {
  it('no key: built-in, outside prod', () => {
    expect(load({}).paymentProcessor).toBe('builtin');
  });

  it('a key: Stripe, with the API base and timeout as configured', () => {
    const config = load({
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      PAYMENT_PROCESSOR_TIMEOUT_MS: '2500',
      STRIPE_PRICES: 'pro=price_1,team=price_2',
    });
    expect(config.paymentProcessor).toBe('stripe');
    expect(config.stripeApiBase).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(config.paymentProcessorTimeoutMs).toBe(2500);
    expect(config.stripePrices).toEqual({ pro: 'price_1', team: 'price_2' });
  });

  it('refuses what is not a Stripe key, an unknown processor, a bad price list', () => {
    expect(() => load({ STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(ConfigError);
    expect(() => load({ PAYMENT_PROCESSOR: 'paypal' })).toThrow(ConfigError);
    expect(() => load({ PAYMENT_PROCESSOR: 'stripe' })).toThrow(ConfigError);
    expect(() => load({ STRIPE_PRICES: 'enterprise=price_1' })).toThrow(ConfigError);
    expect(() => load({ STRIPE_API_BASE: 'ftp://example.com' })).toThrow(ConfigError);
  });
});

describe('prod never loads demo or test keys, nor the built-in processor', () => {
  const prod = { SERVICE_ENVIRONMENT: 'prod' };
  it('no key in prod: no processor (billing changes answer 503)', () => {
    expect(load(prod).paymentProcessor).toBe('none');
  });
  it('a test key, the built-in processor, or a plain-http API base in prod: refused at start', () => {
    expect(() => load({ ...prod, STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(/live key/);
    expect(() => load({ ...prod, STRIPE_SECRET_KEY: 'rk_test_abc' })).toThrow(/live key/);
    expect(() => load({ ...prod, PAYMENT_PROCESSOR: 'builtin' })).toThrow(ConfigError);
    expect(() => load({ ...prod, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_API_BASE: 'http://proxy:80' })).toThrow(
      ConfigError,
    );
  });
  it('a live key in prod: Stripe', () => {
    expect(load({ ...prod, STRIPE_SECRET_KEY: 'sk_live_abc' }).paymentProcessor).toBe('stripe');
  });
});
