/**
 * What a service may use from a request: plain values, no GraphQL. The GraphQL context (src/graphql/context.ts)
 * extends this, and every surface builds it with the same buildContext(), so a service sees the same caller and the
 * same rules whichever surface the request came through.
 */
import type { Config } from './config.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Clock } from './clock.ts';
import type { WriteSlots } from './write-slots.ts';
import type { ClientKind } from './wording.ts';
import type { Authentication } from './caller.ts';

/** Reads a request's Authorization header into its caller (the auth module's `authenticate`). */
export type Authenticate = (
  prisma: PrismaClient,
  config: Config,
  now: Date,
  authorization: string | undefined | null,
) => Promise<Authentication>;

/**
 * Process-wide services that keep state between requests, created once by createServices() (src/app-services.ts).
 * The engines are here (not imported by the services directly) so a test can make one half of the Matrix Calculator
 * fail and prove the degraded answer. A module that provides an entry declares it here itself (`declare module` in
 * its index.ts), so this floor names no module.
 */
export interface Services {
  authenticate: Authenticate;
  engines: Engines;
}

/**
 * The engines, each declared by its module (pricing: `priceDeal`, `priceMarket`; matrix: `evaluateApprovals`). An
 * engine this floor does not know by name is `unknown`: a module calls only the ones it declared.
 */
export interface Engines {
  [engine: string]: unknown;
}

/** Process-wide dependencies, created once in createApp(). */
export interface AppDeps {
  prisma: PrismaClient;
  config: Config;
  clock: Clock;
  services: Services;
  /** The bound on writes in flight per organisation (WRITE_CONCURRENCY_PER_ORGANISATION). */
  writeSlots: WriteSlots;
}

export interface ServiceContext extends AppDeps {
  auth: Authentication;
  /** Which wording the client reads (X-Service-Client). */
  client: ClientKind;
  /** Per-request memo for loaders and snapshots. */
  cache: Map<unknown, unknown>;
  /** The client's IP (Express req.ip, which honours TRUST_PROXY); null when unknown. Keys the sign-in throttle. */
  clientAddress: string | null;
}
