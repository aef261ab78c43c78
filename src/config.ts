/** Environment, validated once at start. Every variable is documented in the README. */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllowedOrigins } from './http/cors.ts';

export const SERVICE_ENVIRONMENTS = ['local', 'qa', 'stage', 'prod'] as const;
export type ServiceEnvironment = (typeof SERVICE_ENVIRONMENTS)[number];
export const SURFACES = ['calculator', 'consumer_calculator', 'matrix', 'matrix_calculator'] as const;
export type Surface = (typeof SURFACES)[number];

export interface Config {
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
  /** Largest request body, in bytes, on /graphql and /api/v1 alike (413 beyond). */
  maxBodyBytes: number;
  /** Browser origins allowed to call either surface (CORS); empty = none. */
  corsAllowedOrigins: string[];
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

/** The embedded default keeps a generated JWT secret beside its data, so restarts keep sessions. */
function persistedSecret(dataDir: string): string {
  if (dataDir === ':memory:') return randomBytes(32).toString('hex');
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const environment = (env.SERVICE_ENVIRONMENT || 'local') as ServiceEnvironment;
  if (!SERVICE_ENVIRONMENTS.includes(environment)) {
    throw new Error(`SERVICE_ENVIRONMENT must be one of ${SERVICE_ENVIRONMENTS.join(', ')}`);
  }
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('DATABASE_URL must be a postgres:// URL');
  const dataDir = overrides.dataDir ?? path.resolve(env.DATA_DIR || './data');
  const disabledSurfaces = (env.DISABLED_SURFACES || '').split(',').map((s) => s.trim()).filter(Boolean) as Surface[];
  for (const s of disabledSurfaces) if (!SURFACES.includes(s)) throw new Error(`DISABLED_SURFACES: unknown surface "${s}"`);
  const timeZone = env.SERVICE_TIME_ZONE || 'Australia/Sydney';
  new Intl.DateTimeFormat('en', { timeZone }); // throws on an unknown zone
  const config: Config = {
    port: int(env, 'PORT', 4000, 0),
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
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 256 * 1024),
    corsAllowedOrigins: parseAllowedOrigins(env.CORS_ALLOWED_ORIGINS),
  };
  return { ...config, ...overrides };
}
