/** Environment, validated once at start. Every variable is documented in the README. */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  SERVICE_ENVIRONMENTS,
  SURFACES,
  isOneOf,
  type PlanName,
  PURCHASABLE_PLANS,
  type ServiceEnvironment,
  type Surface,
} from './vocabulary.ts';
import { hostNameProblem } from './host-names.ts';

/** Bounds on every database wait (src/lib/db.ts); a hung or unreachable database answers 503 within them. */
export interface DatabaseTimeouts {
  /** Opening a connection and waiting for a free one in the pool (pg `connectionTimeoutMillis`). */
  databaseConnectTimeoutMs: number;
  /** Server-side `statement_timeout`; the client gives up (`query_timeout`) one second later if the server is silent. */
  databaseStatementTimeoutMs: number;
  /** Server-side `idle_in_transaction_session_timeout`: a transaction left open this long is ended by PostgreSQL. */
  databaseIdleInTransactionTimeoutMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  databaseConnectTimeoutMs: 5000,
  databaseStatementTimeoutMs: 15_000,
  databaseIdleInTransactionTimeoutMs: 30_000,
};

/** JWT_SECRET signs every access token: shorter than this is guessable offline from one token. */
const MIN_JWT_SECRET_BYTES = 32;

/** A refused configuration: main prints the message alone (one line, no stack) and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface Config extends DatabaseTimeouts {
  port: number;
  dataDir: string;
  /** null = embedded PGlite in dataDir (or in memory when dataDir is ':memory:'). */
  databaseUrl: string | null;
  environment: ServiceEnvironment;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshIdleTimeoutSeconds: number;
  refreshHardCapSeconds: number;
  /** Spec: 30 seconds (currently). */
  refreshGraceSeconds: number;
  /** Refreshes per user per minute before 429. */
  refreshRateLimitPerMinute: number;
  /** Zone whose calendar day the daily allowances count in. */
  serviceTimeZone: string;
  /** Surfaces an operator switched off (answer `feature_disabled`). */
  disabledSurfaces: Surface[];
  abnLookupUrl: string | null;
  abnLookupGuid: string | null;
  abnLookupTimeoutMs: number;
  /** GraphiQL, introspection and field suggestions; off in prod. */
  graphqlExplorer: boolean;
  /** Express `trust proxy` (TRUST_PROXY): false, a hop count, or addresses/subnets of the proxies in front. */
  trustProxy: boolean | number | string;
  /** Bound on GET /readyz (database reachable, migrations applied). */
  readinessTimeoutMs: number;
  /** On SIGTERM/SIGINT, in-flight requests get this long to finish before their connections are closed. */
  shutdownTimeoutMs: number;
  /** Writes (mutations) one organisation may run at once; more wait briefly or are refused 429 (src/lib/write-slots.ts). */
  writeConcurrencyPerOrganisation: number;
  /** Largest request body, in bytes, on /graphql and /api/v1 alike (413 beyond). */
  maxBodyBytes: number;
  /** Browser origins allowed to call either surface (CORS); empty = none. */
  corsAllowedOrigins: string[];
  /** One JSON log line per request (LOG_REQUESTS=false turns it off). */
  requestLog: boolean;
  /** METRICS_TOKEN: when set, GET /metrics needs `Authorization: Bearer <it>`; in prod /metrics is off without it. */
  metricsToken: string | null;
  /** Billing (docs/billing.md): which payment processor reactivation, checkout and webhooks use. */
  paymentProcessor: PaymentProcessorChoice;
  stripeSecretKey: string | null;
  /** Where the Stripe SDK sends requests (STRIPE_API_BASE); null = Stripe's own API. */
  stripeApiBase: { host: string; port: number; protocol: 'http' | 'https' } | null;
  stripeWebhookSecret: string | null;
  /** Stripe price id per purchasable plan (STRIPE_PRICES=pro=price_...,max=price_...,team=price_...). */
  stripePrices: Partial<Record<PlanName, string>>;
  /** Bound on one call to the payment processor (connect, send, answer); beyond it the caller gets 502. */
  paymentProcessorTimeoutMs: number;
  /** This service's public address (PUBLIC_BASE_URL): the built-in processor's checkout URLs point here. */
  publicBaseUrl: string;
  /** Where the processor's checkout page sends the buyer back to (CHECKOUT_RETURN_URL). */
  checkoutReturnUrl: string;
  /** Web Push VAPID keys (base64url) and subject (mailto: or https: URL); null = web devices get the recording transport. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /** Hosts a Web Push endpoint may name (the browsers' push services; a suffix matches subdomains). */
  webPushEndpointHosts: string[];
  /** How often the delivery worker looks for queued notifications. */
  notificationPollIntervalMs: number;
  /** How often the re-pricing worker looks for catalogue changes and queued saved scenarios (docs/scenarios.md). */
  scenarioRepriceIntervalMs: number;
  /** Saved scenarios the re-pricing worker re-prices per pass at most. */
  scenarioRepricePerPass: number;
  /** Where this process re-prices saved scenarios (SCENARIO_REPRICE_WORKER; docs/scenarios.md). */
  scenarioRepriceWorker: RepriceWorkerMode;
  /** Bound on one call to a push service. */
  pushTimeoutMs: number;
  /** APNs token authentication; null = iOS devices get the recording transport. */
  apns: { keyId: string; teamId: string; privateKey: string; topic: string; origin: string } | null;
  /** FCM HTTP v1 service account; null = Android devices get the recording transport. */
  fcm: { projectId: string; clientEmail: string; privateKey: string; tokenUrl: string; apiOrigin: string } | null;
}

/** APNS_KEY_FILE (.p8), APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC: all or none; APNS_ORIGIN picks sandbox. */
function apns(env: NodeJS.ProcessEnv): Config['apns'] {
  const names = ['APNS_KEY_FILE', 'APNS_KEY_ID', 'APNS_TEAM_ID', 'APNS_TOPIC'] as const;
  const set = names.filter((n) => env[n]);
  if (set.length === 0) return null;
  if (set.length !== names.length) throw new ConfigError(`${names.join(', ')} are set together or not at all`);
  let privateKey: string;
  try {
    privateKey = readFileSync(env.APNS_KEY_FILE!, 'utf8');
  } catch (e) {
    throw new ConfigError(`APNS_KEY_FILE: cannot read ${env.APNS_KEY_FILE} (${(e as Error).message})`);
  }
  return {
    keyId: env.APNS_KEY_ID!,
    teamId: env.APNS_TEAM_ID!,
    privateKey,
    topic: env.APNS_TOPIC!,
    origin: env.APNS_ORIGIN || 'https://api.push.apple.com',
  };
}

/** FCM_SERVICE_ACCOUNT_FILE: the service account's JSON key (project_id, client_email, private_key). */
function fcm(env: NodeJS.ProcessEnv): Config['fcm'] {
  const file = env.FCM_SERVICE_ACCOUNT_FILE;
  if (!file) return null;
  let account: Record<string, unknown>;
  try {
    account = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`FCM_SERVICE_ACCOUNT_FILE: cannot read ${file} as JSON (${(e as Error).message})`);
  }
  const { project_id, client_email, private_key, token_uri } = account;
  if (typeof project_id !== 'string' || typeof client_email !== 'string' || typeof private_key !== 'string')
    throw new ConfigError('FCM_SERVICE_ACCOUNT_FILE: needs project_id, client_email and private_key');
  return {
    projectId: project_id,
    clientEmail: client_email,
    privateKey: private_key,
    tokenUrl: typeof token_uri === 'string' ? token_uri : 'https://oauth2.googleapis.com/token',
    apiOrigin: env.FCM_API_ORIGIN || 'https://fcm.googleapis.com',
  };
}

/** The browsers' push services (Chrome/Edge via FCM, Firefox, Safari, Windows). */
export const DEFAULT_WEB_PUSH_ENDPOINT_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'web.push.apple.com',
  'notify.windows.com',
];

/** WEB_PUSH_ENDPOINT_HOSTS: host names only; an address or localhost here would let endpoints reach inside. */
function webPushEndpointHosts(raw: string | undefined): string[] {
  if (!raw) return DEFAULT_WEB_PUSH_ENDPOINT_HOSTS;
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const host of hosts) {
    const problem = hostNameProblem(host);
    if (problem) throw new ConfigError(`WEB_PUSH_ENDPOINT_HOSTS: "${host}" is ${problem}`);
  }
  return hosts;
}

/** VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT: all three or none. */
function vapid(env: NodeJS.ProcessEnv): Config['vapid'] {
  const publicKey = env.VAPID_PUBLIC_KEY || '';
  const privateKey = env.VAPID_PRIVATE_KEY || '';
  const subject = env.VAPID_SUBJECT || '';
  if (!publicKey && !privateKey && !subject) return null;
  if (!publicKey || !privateKey || !subject)
    throw new ConfigError('VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT are set together or not at all');
  if (!/^(mailto:|https:\/\/)/.test(subject)) throw new ConfigError('VAPID_SUBJECT must be a mailto: or https: URL');
  if (Buffer.from(publicKey, 'base64url').length !== 65 || Buffer.from(privateKey, 'base64url').length !== 32)
    throw new ConfigError(
      'VAPID keys must be base64url (public: 65 bytes, private: 32 bytes; npx web-push generate-vapid-keys)',
    );
  return { publicKey, privateKey, subject };
}

const PAYMENT_PROCESSORS = ['stripe', 'builtin', 'none'] as const;
export type PaymentProcessorChoice = (typeof PAYMENT_PROCESSORS)[number];

/**
 * PAYMENT_PROCESSOR, or by default Stripe when STRIPE_SECRET_KEY is set, else the built-in processor (no network).
 * prod never runs the built-in processor (it grants plans without payment) nor a Stripe test key: without a live key
 * prod has no processor (`none`: reactivation and checkout answer 503).
 */
function billingConfig(env: NodeJS.ProcessEnv, environment: ServiceEnvironment, port: number) {
  const stripeSecretKey = env.STRIPE_SECRET_KEY?.trim() || null;
  const choice =
    env.PAYMENT_PROCESSOR?.trim() || (stripeSecretKey ? 'stripe' : environment === 'prod' ? 'none' : 'builtin');
  if (!isOneOf(PAYMENT_PROCESSORS, choice))
    throw new ConfigError(`PAYMENT_PROCESSOR must be one of ${PAYMENT_PROCESSORS.join(', ')}`);
  if (choice === 'stripe' && !stripeSecretKey)
    throw new ConfigError('PAYMENT_PROCESSOR=stripe needs STRIPE_SECRET_KEY');
  if (stripeSecretKey && !/^(sk|rk)_(test|live)_\w+$/.test(stripeSecretKey))
    throw new ConfigError(
      'STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_live_..., rk_live_..., sk_test_...)',
    );
  if (environment === 'prod') {
    if (choice === 'builtin')
      throw new ConfigError('PAYMENT_PROCESSOR=builtin is refused in prod: it takes no payment');
    if (stripeSecretKey && !/^(sk|rk)_live_/.test(stripeSecretKey))
      throw new ConfigError('STRIPE_SECRET_KEY: prod takes a live key only (sk_live_... or rk_live_...)');
  }
  let stripeApiBase: Config['stripeApiBase'] = null;
  if (env.STRIPE_API_BASE) {
    let url: URL;
    try {
      url = new URL(env.STRIPE_API_BASE);
    } catch {
      throw new ConfigError('STRIPE_API_BASE must be a URL such as https://api.stripe.com');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ConfigError('STRIPE_API_BASE must be an http:// or https:// URL');
    if (environment === 'prod' && url.protocol !== 'https:')
      throw new ConfigError('STRIPE_API_BASE must be https in prod');
    stripeApiBase = {
      host: url.hostname,
      port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    };
  }
  const stripePrices: Partial<Record<PlanName, string>> = {};
  for (const entry of (env.STRIPE_PRICES || '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [plan, price] = entry.split('=').map((x) => x.trim());
    if (!isOneOf(PURCHASABLE_PLANS, plan) || !price)
      throw new ConfigError(
        `STRIPE_PRICES: "${entry}" must be plan=price_id with plan one of ${PURCHASABLE_PLANS.join(', ')}`,
      );
    stripePrices[plan] = price;
  }
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    paymentProcessor: choice,
    stripeSecretKey,
    stripeApiBase,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || null,
    stripePrices,
    paymentProcessorTimeoutMs: int(env, 'PAYMENT_PROCESSOR_TIMEOUT_MS', 10_000),
    publicBaseUrl,
    checkoutReturnUrl: env.CHECKOUT_RETURN_URL || publicBaseUrl,
  };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/** TRUST_PROXY: unset or `false` = off (req.ip is the socket's peer); `1`, `2`… = hops; else Express's list form. */
function trustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'false') return false;
  if (raw.trim() === 'true') return true;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  return raw.trim();
}

/** The embedded default keeps a generated JWT secret beside its data, so restarts keep sessions. */
function persistedSecret(dataDir: string): string {
  if (dataDir === ':memory:') return randomBytes(32).toString('hex');
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  try {
    // 'wx': two processes starting on an empty directory keep the first one's secret, not one each.
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * Words of the placeholders example files and tutorials ship (`change-me-in-production`, `your-secret-here`):
 * compared with the secret lowercased and without separators. A generated secret (hex, base64) holds none of them.
 */
const PLACEHOLDER_SECRET_WORDS = [
  'changeme',
  'changethis',
  'replaceme',
  'placeholder',
  'yoursecret',
  'secrethere',
  'notasecret',
  'notsecret',
  'example',
  'insecure',
  'dummy',
];

/**
 * A configured JWT_SECRET (not the generated one) must be long enough to resist offline guessing, and not a published
 * placeholder (anyone who read the same example file could sign tokens).
 */
function checkJwtSecret(secret: string): void {
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_JWT_SECRET_BYTES) {
    throw new ConfigError(
      `JWT_SECRET must be at least ${MIN_JWT_SECRET_BYTES} bytes, got ${bytes} (generate one with: openssl rand -hex 32)`,
    );
  }
  const letters = secret.toLowerCase().replace(/[^a-z0-9]/g, '');
  const word = PLACEHOLDER_SECRET_WORDS.find((w) => letters.includes(w));
  if (word)
    throw new ConfigError(
      `JWT_SECRET is a placeholder (it contains "${word}"): set a random one (generate it with: openssl rand -hex 32)`,
    );
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const environment = env.SERVICE_ENVIRONMENT || 'local';
  if (!isOneOf(SERVICE_ENVIRONMENTS, environment)) {
    throw new ConfigError(`SERVICE_ENVIRONMENT must be one of ${SERVICE_ENVIRONMENTS.join(', ')}`);
  }
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  if (env.JWT_SECRET) checkJwtSecret(env.JWT_SECRET);
  const dataDir = overrides.dataDir ?? path.resolve(env.DATA_DIR || './data');
  const disabledSurfaces: Surface[] = [];
  for (const s of (env.DISABLED_SURFACES || '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (!isOneOf(SURFACES, s)) throw new ConfigError(`DISABLED_SURFACES: unknown surface "${s}"`);
    disabledSurfaces.push(s);
  }
  const timeZone = env.SERVICE_TIME_ZONE || 'Australia/Sydney';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new ConfigError(`SERVICE_TIME_ZONE: unknown time zone "${timeZone}"`);
  }
  const port = int(env, 'PORT', 4000, 0);
  const config: Config = {
    port,
    dataDir,
    databaseUrl,
    environment,
    jwtSecret: env.JWT_SECRET || overrides.jwtSecret || persistedSecret(dataDir),
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 15 * 60),
    refreshIdleTimeoutSeconds: int(env, 'REFRESH_IDLE_TIMEOUT_SECONDS', 14 * 24 * 3600),
    refreshHardCapSeconds: int(env, 'REFRESH_HARD_CAP_SECONDS', 30 * 24 * 3600),
    refreshGraceSeconds: 30,
    refreshRateLimitPerMinute: int(env, 'REFRESH_RATE_LIMIT_PER_MINUTE', 60),
    serviceTimeZone: timeZone,
    disabledSurfaces,
    abnLookupUrl: env.ABN_LOOKUP_URL || null,
    abnLookupGuid: env.ABN_LOOKUP_GUID || null,
    abnLookupTimeoutMs: int(env, 'ABN_LOOKUP_TIMEOUT_MS', 5000),
    graphqlExplorer: environment !== 'prod',
    trustProxy: trustProxy(env.TRUST_PROXY),
    databaseConnectTimeoutMs: int(
      env,
      'DATABASE_CONNECT_TIMEOUT_MS',
      DEFAULT_DATABASE_TIMEOUTS.databaseConnectTimeoutMs,
    ),
    databaseStatementTimeoutMs: int(
      env,
      'DATABASE_STATEMENT_TIMEOUT_MS',
      DEFAULT_DATABASE_TIMEOUTS.databaseStatementTimeoutMs,
    ),
    databaseIdleInTransactionTimeoutMs: int(
      env,
      'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
      DEFAULT_DATABASE_TIMEOUTS.databaseIdleInTransactionTimeoutMs,
    ),
    readinessTimeoutMs: int(env, 'READINESS_TIMEOUT_MS', 2000),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    writeConcurrencyPerOrganisation: int(env, 'WRITE_CONCURRENCY_PER_ORGANISATION', 4),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 256 * 1024),
    corsAllowedOrigins: parseAllowedOrigins(env.CORS_ALLOWED_ORIGINS),
    requestLog: env.LOG_REQUESTS !== 'false',
    metricsToken: env.METRICS_TOKEN || null,
    ...billingConfig(env, environment, port),
    vapid: vapid(env),
    webPushEndpointHosts: webPushEndpointHosts(env.WEB_PUSH_ENDPOINT_HOSTS),
    notificationPollIntervalMs: int(env, 'NOTIFICATION_POLL_INTERVAL_MS', 2000),
    scenarioRepriceIntervalMs: int(env, 'SCENARIO_REPRICE_INTERVAL_MS', 2000),
    scenarioRepricePerPass: int(env, 'SCENARIO_REPRICE_PER_PASS', 200),
    scenarioRepriceWorker: repriceWorkerMode(env.SCENARIO_REPRICE_WORKER, databaseUrl),
    pushTimeoutMs: int(env, 'PUSH_TIMEOUT_MS', 10_000),
    apns: apns(env),
    fcm: fcm(env),
  };
  return { ...config, ...overrides };
}

/**
 * Where saved scenarios are re-priced: `thread` (a worker thread with its own database pool at a lower CPU priority,
 * so no engine run waits between a request and its answer), `inline` (on the request thread, yielding between two
 * runs), `off` (not in this process: another process on the same database does it).
 */
export const REPRICE_WORKER_MODES = ['thread', 'inline', 'off'] as const;
export type RepriceWorkerMode = (typeof REPRICE_WORKER_MODES)[number];

/** SCENARIO_REPRICE_WORKER: default `thread` on PostgreSQL; PGlite is one connection on this thread, so `inline`. */
function repriceWorkerMode(raw: string | undefined, databaseUrl: string | null): RepriceWorkerMode {
  const mode = raw || (databaseUrl ? 'thread' : 'inline');
  if (!isOneOf(REPRICE_WORKER_MODES, mode))
    throw new ConfigError(`SCENARIO_REPRICE_WORKER must be one of ${REPRICE_WORKER_MODES.join(', ')}`);
  if (mode === 'thread' && !databaseUrl)
    throw new ConfigError(
      'SCENARIO_REPRICE_WORKER=thread needs DATABASE_URL: the embedded database (PGlite) is one connection on the server thread',
    );
  return mode;
}

/** CORS_ALLOWED_ORIGINS: comma-separated origins, each scheme://host[:port] exactly as browsers send it. */
function parseAllowedOrigins(raw: string | undefined): string[] {
  const origins = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(`CORS_ALLOWED_ORIGINS: "${origin}" is not an origin`);
    }
    if (parsed.origin !== origin)
      throw new Error(`CORS_ALLOWED_ORIGINS: "${origin}" must be written as its origin, "${parsed.origin}"`);
  }
  return origins;
}
