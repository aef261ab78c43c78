/**
 * The Pothos schema builder. Plugin order matters: errors first, so failures thrown by scope-auth become typed
 * results too; scope-auth before prisma and dataloader, so nothing loads before the caller is checked.
 */
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import PrismaPlugin from '@pothos/plugin-prisma';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import { GraphQLError, Kind } from 'graphql';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { Context } from './context.ts';
import {
  DomainError, ForbiddenError, NotConfiguredError, NotFoundError, RateLimitedError, UnauthenticatedError,
  UpstreamUnavailableError, ValidationError,
} from './errors.ts';
import { accessFailure, hasPermission } from '../modules/auth/policy.ts';
import type { PermissionCodename } from '../modules/auth/permissions.ts';

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
  organisationType: 'f' | 'b' | 'u';
}

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
  plugins: [ErrorsPlugin, ScopeAuthPlugin, PrismaPlugin, DataloaderPlugin],
  prisma: { client: (ctx) => ctx.prisma, dmmf: getDatamodel(), exposeDescriptions: true },
  errors: { defaultTypes: [UnauthenticatedError, ForbiddenError] },
  scopeAuth: {
    // Credentials come first: an anonymous caller is 401 whatever the field asks for; otherwise 403.
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (ctx.auth.kind !== 'caller') return new UnauthenticatedError();
      return new ForbiddenError(result.message === 'Unauthorized' ? undefined : result.message);
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

builder.scalarType('DateTime', {
  description: 'ISO 8601 timestamp',
  serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 timestamp');
    return date;
  },
});

/** Money and percentages: accepts a JSON number or a numeric string (the spec sends some amounts as strings). */
builder.scalarType('Decimal', {
  description: 'A decimal number, sent as a JSON number or a numeric string',
  serialize: (value) => (typeof value === 'string' ? Number(value) : value),
  parseValue: (value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new GraphQLError('A valid number is required.');
    return n;
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.INT || node.kind === Kind.FLOAT || node.kind === Kind.STRING) {
      const n = Number(node.value);
      if (Number.isFinite(n)) return n;
    }
    throw new GraphQLError('A valid number is required.');
  },
});

builder.scalarType('JSON', { serialize: (v) => v, parseValue: (v) => v });

// ---------- errors as GraphQL types ----------

export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code'),
  }),
});

builder.objectType(UnauthenticatedError, { name: 'UnauthenticatedError', interfaces: [ErrorInterface] });
builder.objectType(ForbiddenError, { name: 'ForbiddenError', interfaces: [ErrorInterface] });
builder.objectType(NotFoundError, { name: 'NotFoundError', interfaces: [ErrorInterface] });
builder.objectType(UpstreamUnavailableError, { name: 'UpstreamUnavailableError', interfaces: [ErrorInterface] });
builder.objectType(NotConfiguredError, { name: 'NotConfiguredError', interfaces: [ErrorInterface] });
builder.objectType(RateLimitedError, {
  name: 'RateLimitedError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ retry_after: t.exposeInt('retryAfterSeconds', { description: 'Seconds to wait before retrying' }) }),
});

const FieldErrorRef = builder.objectRef<{ field: string; messages: string[] }>('FieldError').implement({
  fields: (t) => ({ field: t.exposeString('field'), messages: t.exposeStringList('messages') }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ errors: t.field({ type: [FieldErrorRef], resolve: (e) => e.fieldErrors }) }),
});
