/**
 * Errors are values. A service returns or throws one of these; GraphQL exposes each as a member of the field's
 * result union (plugin-errors), and the REST table maps each to the spec's status and body. No GraphQL imports here.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
}

/** 401: no usable credentials (missing, malformed, expired, revoked, or their user inactive). */
export class UnauthenticatedError extends DomainError {
  readonly code = 'unauthenticated';
  constructor(message = 'Authentication credentials were not provided or are invalid.') {
    super(message);
  }
}

/** 403: signed in, but this caller may not do this (scope, session-only, role, permission, tenancy). */
export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
  constructor(message = 'You do not have permission to perform this action.') {
    super(message);
  }
}

/** 404: no such object for this caller; another tenant's object answers exactly the same. */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
  constructor(message = 'Not found.') {
    super(message);
  }
}

export interface FieldError {
  field: string;
  messages: string[];
}

/** 400: the request is well-formed JSON but its values break a rule. `errors` names the fields. */
export class ValidationError extends DomainError {
  readonly code = 'validation_error';
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
export class RateLimitedError extends DomainError {
  readonly code = 'rate_limited';
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Too many requests. Try again shortly.',
  ) {
    super(message);
  }
}

/** 502: a service we depend on (payment processor, ABN register) could not be reached or answered badly. */
export class UpstreamUnavailableError extends DomainError {
  readonly code = 'upstream_unavailable';
  constructor(message = 'A service we depend on could not be reached. Try again shortly.') {
    super(message);
  }
}

/** 503: a feature this deployment has not been configured for. */
export class NotConfiguredError extends DomainError {
  readonly code = 'not_configured';
  constructor(message: string) {
    super(message);
  }
}

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
