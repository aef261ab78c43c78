/**
 * What a service may use from a request: plain values, no GraphQL. The GraphQL context (src/graphql/context.ts)
 * extends this, and both surfaces build it with the same buildContext(), so a service sees the same caller and the
 * same rules whichever surface the request came through.
 */
import type { Config } from '../config.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { WriteSlots } from '../lib/write-slots.ts';
import type { ClientKind } from '../lib/wording.ts';
import type { Authentication } from './auth/caller.ts';
import type { Services } from './services.ts';

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
