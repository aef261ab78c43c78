/**
 * The Pothos schema builder. Plugin order matters: errors first, so failures thrown by scope-auth become typed
 * results too; scope-auth before prisma and dataloader, so nothing loads before the caller is checked.
 */
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Context } from './context.ts';
import { ForbiddenError, UnauthenticatedError } from '../lib/errors.ts';
import { say } from '../lib/wording.ts';
import { accessFailure, hasPermission, type Access } from '../modules/auth/policy.ts';
import type { PermissionCodename } from '../modules/auth/permissions.ts';
import type { OrganisationType } from '../lib/vocabulary.ts';

export interface AuthScopes {
  /** Any signed-in caller, `read` API tokens included. */
  signedIn: boolean;
  /** A session, or a `read_write` API token. */
  write: boolean;
  /** A session only. */
  session: boolean;
  /** An administrator of the caller's organisation. */
  admin: boolean;
  /** A permission codename, held through a group (admins hold all). */
  permission: PermissionCodename;
  /** The caller's organisation is of this type. */
  organisationType: OrganisationType;
}

const ACCESS_OF_SCOPE: Record<string, Access> = { signedIn: 'any', write: 'write', session: 'session' };

/** The credential levels named by a scope-auth failure (any nesting of any/all). */
function failedAccess(failure: AuthFailure): Access[] {
  if (failure.kind === AuthScopeFailureType.AuthScope)
    return ACCESS_OF_SCOPE[failure.scope] ? [ACCESS_OF_SCOPE[failure.scope]] : [];
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes)
    return failure.failures.flatMap(failedAccess);
  return [];
}

/** Connection page sizes: `first`/`last` default to DEFAULT_PAGE_SIZE and never exceed MAX_PAGE_SIZE. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: AuthScopes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    Decimal: { Input: number; Output: number | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  defaultFieldNullability: false,
  plugins: [ErrorsPlugin, ScopeAuthPlugin, RelayPlugin, PrismaPlugin, DataloaderPlugin],
  // Lists that grow are cursor connections. Ids stay the spec's integers (no global ids, no node/nodes fields), and
  // every connection is capped: a caller asking for more than MAX_PAGE_SIZE gets that many.
  relay: { clientMutationId: 'omit', cursorType: 'String', nodeQueryOptions: false, nodesQueryOptions: false },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    defaultConnectionSize: DEFAULT_PAGE_SIZE,
    maxConnectionSize: MAX_PAGE_SIZE,
  },
  errors: { defaultTypes: [UnauthenticatedError, ForbiddenError] },
  scopeAuth: {
    // Credentials come first: an anonymous caller is 401 whatever the field asks for; otherwise 403.
    // scope-auth's own message names the resolver ("Not authorized to resolve Mutation.updateUser"): never sent.
    // The refusal is the policy's sentence for the scope that failed, worded for X-Service-Client.
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (ctx.auth.kind !== 'caller') return new UnauthenticatedError();
      for (const access of failedAccess(result.failure)) {
        const refusal = accessFailure(ctx.auth, access, ctx.client);
        if (refusal) return refusal;
      }
      return new ForbiddenError(say('forbidden', ctx.client));
    },
    authScopes: (ctx) => ({
      signedIn: ctx.caller !== null && accessFailure(ctx.auth, 'any') === null,
      write: accessFailure(ctx.auth, 'write') === null,
      session: accessFailure(ctx.auth, 'session') === null,
      admin: ctx.caller?.isAdmin === true,
      permission: (codename) => ctx.caller !== null && hasPermission(ctx.caller, codename),
      organisationType: (type) => ctx.caller?.organisation?.type === type,
    }),
  },
});

builder.queryType({});
builder.mutationType({});

/** The `t` of an object type's `fields: (t) => ...`, for helpers that declare the same fields on several types. */
export type ObjectFieldBuilder<Parent> = PothosSchemaTypes.ObjectFieldBuilder<
  typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never,
  Parent
>;
