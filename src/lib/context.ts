/**
 * The per-request context. Yoga and the REST bridge both call buildContext(), so a request reaches the same
 * services, with the same caller and the same rules, whichever surface it came through.
 */
import type { Config } from '../config.ts';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Clock } from './clock.ts';
import { authenticate, type Authentication, type Caller } from '../modules/auth/caller.ts';
import { clientKind, type ClientKind } from './wording.ts';
import type { Services } from '../modules/services.ts';

/** Process-wide dependencies, created once in createApp(). */
export interface AppDeps {
  prisma: PrismaClient;
  config: Config;
  clock: Clock;
  services: Services;
}

export interface Context extends AppDeps {
  auth: Authentication;
  /** The caller, or null when unauthenticated (scope-auth refuses before a resolver sees null where it needs one). */
  caller: Caller | null;
  client: ClientKind;
  /** Per-request memo for loaders and snapshots. */
  cache: Map<unknown, unknown>;
  /** The client's IP (Express req.ip, which honours TRUST_PROXY); null when unknown. Keys the sign-in throttle. */
  clientAddress: string | null;
}

export interface RequestLike {
  authorization?: string | null;
  serviceClient?: string | null;
  clientAddress?: string | null;
}

export async function buildContext(deps: AppDeps, request: RequestLike): Promise<Context> {
  const auth = await authenticate(deps.prisma, deps.config, deps.clock.now(), request.authorization);
  return {
    ...deps,
    auth,
    caller: auth.kind === 'caller' ? auth.caller : null,
    client: clientKind(request.serviceClient),
    cache: new Map(),
    clientAddress: request.clientAddress ?? null,
  };
}

/** The signed-in caller; resolvers behind an auth scope may rely on it. */
export function callerOf(ctx: Context): Caller {
  if (!ctx.caller) throw new Error('callerOf() used on a field without an auth scope');
  return ctx.caller;
}
