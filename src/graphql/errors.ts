/**
 * The shared domain errors (src/lib/errors.ts) as GraphQL types: each implements the `Error` interface and is a
 * member of the result union of every field that can raise it. Modules register their own errors the same way.
 */
import {
  DomainError,
  ForbiddenError,
  NotConfiguredError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamUnavailableError,
  ValidationError,
} from '../lib/errors.ts';
import { builder } from './builder.ts';

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
  fields: (t) => ({
    retry_after: t.exposeInt('retryAfterSeconds', { description: 'Seconds to wait before retrying' }),
  }),
});

const FieldErrorRef = builder.objectRef<{ field: string; messages: string[] }>('FieldError').implement({
  fields: (t) => ({ field: t.exposeString('field'), messages: t.exposeStringList('messages') }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  interfaces: [ErrorInterface],
  fields: (t) => ({ errors: t.field({ type: [FieldErrorRef], resolve: (e) => e.fieldErrors }) }),
});
