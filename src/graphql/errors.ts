/**
 * The shared domain errors (src/lib/errors.ts) as GraphQL types: each implements the `Error` interface and is a
 * member of the result union of every field that can raise it. Modules register their own errors the same way.
 */
import {
  type DomainError,
  ForbiddenError,
  NotConfiguredError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UpstreamUnavailableError,
  ValidationError,
} from '../lib/errors.ts';
import { builder } from './builder.ts';
import { ErrorCodeEnum } from './enums.ts';

export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description:
    'What every typed error carries. A field that can fail answers a union of its value and its errors: match on __typename',
  fields: (t) => ({
    message: t.exposeString('message', {
      description: "A sentence to show the user, worded for the caller's X-Service-Client",
    }),
    code: t.expose('code', { type: ErrorCodeEnum, description: 'The error, for programs' }),
  }),
});

builder.objectType(UnauthenticatedError, {
  name: 'UnauthenticatedError',
  description: 'No usable credentials: missing, malformed, expired or revoked, or their user is inactive (REST 401)',
  interfaces: [ErrorInterface],
});
builder.objectType(ForbiddenError, {
  name: 'ForbiddenError',
  description:
    "Signed in, but this caller may not do this: the token's scope, session only, role, permission or organisation (REST 403)",
  interfaces: [ErrorInterface],
});
builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: "No such object for this caller; another organisation's object answers exactly the same (REST 404)",
  interfaces: [ErrorInterface],
});
builder.objectType(UpstreamUnavailableError, {
  name: 'UpstreamUnavailableError',
  description:
    'A service we depend on (payment processor, ABN register) could not be reached or answered badly; nothing changed (REST 502)',
  interfaces: [ErrorInterface],
});
builder.objectType(NotConfiguredError, {
  name: 'NotConfiguredError',
  description: 'This deployment is not set up for the feature (REST 503)',
  interfaces: [ErrorInterface],
});
builder.objectType(RateLimitedError, {
  name: 'RateLimitedError',
  description: 'Too many attempts; retry after the given wait (REST 429 with Retry-After)',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    retry_after: t.exposeInt('retryAfterSeconds', { description: 'Seconds to wait before retrying' }),
  }),
});

const FieldErrorRef = builder.objectRef<{ field: string; messages: string[] }>('FieldError').implement({
  description: 'What is wrong with one input field',
  fields: (t) => ({
    field: t.exposeString('field', {
      description: 'The field, as the request names it; nested fields joined with dots (e.g. web_push_keys.auth)',
    }),
    messages: t.exposeStringList('messages', { description: 'Every problem with it, one sentence each' }),
  }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'Input values break a rule; nothing was written (REST 400 with errors by field)',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    errors: t.field({
      type: [FieldErrorRef],
      description: 'Each field at fault, with its messages',
      resolve: (e) => e.fieldErrors,
    }),
  }),
});
