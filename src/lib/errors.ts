/**
 * Errors are values. A service returns or throws one of these; GraphQL exposes each as a member of the field's
 * result union (plugin-errors), and the REST table maps each to the spec's status and body. No GraphQL imports here.
 */
import type { ErrorCode } from './vocabulary.ts';

export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;
}

/**
 * The base of a domain error with its `code` and the sentence sent when the thrower gives none:
 * `export class NotFoundError extends errorOf('not_found', 'Not found.') {}`. Errors that carry more fields
 * declare their own constructor and pass the message on.
 */
export function errorOf<const Code extends ErrorCode>(code: Code, defaultMessage = '') {
  return class extends DomainError {
    readonly code: Code = code;
    constructor(message: string = defaultMessage) {
      super(message);
    }
  };
}

/** 401: no usable credentials (missing, malformed, expired, revoked, or their user inactive). */
export class UnauthenticatedError extends errorOf(
  'unauthenticated',
  'Authentication credentials were not provided or are invalid.',
) {}

/** 403: signed in, but this caller may not do this (scope, session-only, role, permission, tenancy). */
export class ForbiddenError extends errorOf('forbidden', 'You do not have permission to perform this action.') {}

/** 404: no such object for this caller; another tenant's object answers exactly the same. */
export class NotFoundError extends errorOf('not_found', 'Not found.') {}

export interface FieldError {
  field: string;
  messages: string[];
}

/** 400: the request is well-formed JSON but its values break a rule. `errors` names the fields. */
export class ValidationError extends errorOf('validation_error') {
  constructor(
    readonly fieldErrors: FieldError[],
    message = 'Invalid request.',
  ) {
    super(message);
  }
  static of(field: string, ...messages: string[]): ValidationError {
    return new ValidationError([{ field, messages }]);
  }
}

/** 429 without a body contract (refresh rate limit): back off and retry. */
export class RateLimitedError extends errorOf('rate_limited') {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests. Try again shortly.',
  ) {
    super(message);
  }
}

/** 502: a service we depend on (payment processor, ABN register) could not be reached or answered badly. */
export class UpstreamUnavailableError extends errorOf(
  'upstream_unavailable',
  'A service we depend on could not be reached. Try again shortly.',
) {}

/** 503: a feature this deployment has not been configured for. */
export class NotConfiguredError extends errorOf('not_configured') {}

/** Collects field errors, then throws one ValidationError naming them all. */
export class FieldErrors {
  private readonly list: FieldError[] = [];
  add(field: string, message: string): void {
    const existing = this.list.find((e) => e.field === field);
    if (existing) existing.messages.push(message);
    else this.list.push({ field, messages: [message] });
  }
  get any(): boolean {
    return this.list.length > 0;
  }
  throwIfAny(): void {
    if (this.list.length) throw new ValidationError(this.list);
  }
}
