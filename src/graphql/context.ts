/**
 * The per-request context. Yoga and the REST bridge both call buildContext(), so a request reaches the same
 * services, with the same caller and the same rules, whichever surface it came through.
 */
import { clientKind } from '../lib/wording.ts';
import type { Caller } from '../lib/caller.ts';
import type { AppDeps, ServiceContext } from '../lib/service-context.ts';

export type { AppDeps };

export interface Context extends ServiceContext {
  /** The caller, or null when unauthenticated (scope-auth refuses before a resolver sees null where it needs one). */
  caller: Caller | null;
}

export interface RequestLike {
  authorization?: string | null;
  serviceClient?: string | null;
  /**
   * The client's address, or how to find it. Only sign-in reads it, so the HTTP surfaces pass `() => req.ip`: Express
   * works the address out of X-Forwarded-For and TRUST_PROXY on every read, a cost no other request should pay.
   */
  clientAddress?: string | null | (() => string | null | undefined);
}

export async function buildContext(deps: AppDeps, request: RequestLike): Promise<Context> {
  const auth = await deps.services.authenticate(deps.prisma, deps.config, deps.clock.now(), request.authorization);
  return {
    ...deps,
    auth,
    caller: auth.kind === 'caller' ? auth.caller : null,
    client: clientKind(request.serviceClient),
    cache: new Map(),
    get clientAddress(): string | null {
      const address = request.clientAddress;
      return (typeof address === 'function' ? address() : address) ?? null;
    },
  };
}

/** The signed-in caller; resolvers behind an auth scope may rely on it. */
export function callerOf(ctx: Context): Caller {
  if (!ctx.caller) throw new Error('callerOf() used on a field without an auth scope');
  return ctx.caller;
}
