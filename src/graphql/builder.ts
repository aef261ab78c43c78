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
import { accessFailure, hasPermission, type Access } from '../lib/policy.ts';
import type { PermissionCodename } from '../lib/permissions.ts';
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
  /** A permission codename, held through a group (admins hold all but the operator's: lib/permissions.ts). */
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

/**
 * The refusal for a scope-auth failure. Credentials come first: an anonymous caller is 401 whatever the field asks
 * for; otherwise 403, in the policy's sentence for the credential level that failed, worded for X-Service-Client
 * (scope-auth's own message names the resolver and is never sent). The REST bridge's early check
 * (src/graphql/static-access.ts) answers with this same function.
 */
export function scopeRefusal(ctx: Context, failure: AuthFailure): UnauthenticatedError | ForbiddenError {
  if (ctx.auth.kind !== 'caller') return new UnauthenticatedError();
  for (const access of failedAccess(failure)) {
    const refusal = accessFailure(ctx.auth, access, ctx.client);
    if (refusal) return refusal;
  }
  return new ForbiddenError(say('forbidden', ctx.client));
}

/** What each auth scope is for this request's caller (scope-auth's `authScopes`; the early check reads it too). */
export function scopeValues(ctx: Context) {
  return {
    signedIn: ctx.caller !== null && accessFailure(ctx.auth, 'any') === null,
    write: accessFailure(ctx.auth, 'write') === null,
    session: accessFailure(ctx.auth, 'session') === null,
    admin: ctx.caller?.isAdmin === true,
    permission: (codename: PermissionCodename) => ctx.caller !== null && hasPermission(ctx.caller, codename),
    organisationType: (type: OrganisationType) => ctx.caller?.organisation?.type === type,
  };
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
  // The generated connection, edge and page types and the paging arguments are described once, here.
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    defaultConnectionTypeOptions: { description: 'One page of a list: its edges, then where the page sits' },
    defaultEdgeTypeOptions: { description: 'One item of a page, with the cursor that points at it' },
    pageInfoTypeOptions: { description: 'Where a page sits in its list: pass a cursor back as after or before' },
    edgesFieldOptions: { description: 'The items of this page, in list order' },
    pageInfoFieldOptions: { description: 'Where this page sits, and the cursors to move from it' },
    nodeFieldOptions: { description: 'The item' },
    cursorFieldOptions: { description: 'Opaque; pass it as after (or before) to page from this item' },
    hasNextPageFieldOptions: { description: 'More items follow this page' },
    hasPreviousPageFieldOptions: { description: 'More items precede this page' },
    startCursorFieldOptions: { description: "The first item's cursor; null on an empty page" },
    endCursorFieldOptions: { description: "The last item's cursor; null on an empty page" },
    firstArgOptions: {
      description: `Items from the start (or after the cursor): default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}`,
    },
    afterArgOptions: { description: "Start after this item's cursor" },
    lastArgOptions: { description: `Items from the end (or before the cursor), at most ${MAX_PAGE_SIZE}` },
    beforeArgOptions: { description: "End before this item's cursor" },
  },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    defaultConnectionSize: DEFAULT_PAGE_SIZE,
    maxConnectionSize: MAX_PAGE_SIZE,
  },
  errors: {
    defaultTypes: [UnauthenticatedError, ForbiddenError],
    // Every field that can fail answers one of these unions; a list or scalar value is wrapped in a Success type.
    defaultUnionOptions: {
      description: "A field's answer: its value, or one of the typed errors listed (each implements Error)",
    },
    defaultResultOptions: {
      description: 'The value of a successful answer, in data (a union can hold only object types)',
    },
  },
  scopeAuth: {
    // scope-auth's own message names the resolver ("Not authorized to resolve Mutation.updateUser"): never sent.
    unauthorizedError: (_parent, ctx, _info, result) => scopeRefusal(ctx, result.failure),
    authScopes: scopeValues,
  },
});

builder.queryType({
  description: 'Reads and computations. Every field needs a signed-in caller unless it says otherwise',
});
builder.mutationType({
  description: 'Changes. Most need a session or a read_write API token; each field says who may call it',
});

/** The `t` of an object type's `fields: (t) => ...`, for helpers that declare the same fields on several types. */
export type ObjectFieldBuilder<Parent> = PothosSchemaTypes.ObjectFieldBuilder<
  typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never,
  Parent
>;
