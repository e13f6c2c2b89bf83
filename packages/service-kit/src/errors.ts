/** One base class: every error a client may see carries its HTTP status and a stable snake_case code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Headers the answer carries with this error (`WWW-Authenticate`, `X-Accepted-Scopes`, `Allow`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...this.extra };
  }
}

export interface FieldIssue {
  path: string;
  message: string;
}

export class BadRequestError extends ApiError {
  constructor(message = 'Bad request', code = 'bad_request') {
    super(400, code, message);
  }
}
export class UnauthorizedError extends ApiError {
  constructor(message: string, code = 'unauthorized', headers: Record<string, string> = {}) {
    super(401, code, message, {}, headers);
  }
}
export class PaymentRequiredError extends ApiError {
  constructor(message: string, code = 'insufficient_credits') {
    super(402, code, message);
  }
}
export class ForbiddenError extends ApiError {
  constructor(message: string, code = 'forbidden', headers: Record<string, string> = {}) {
    super(403, code, message, {}, headers);
  }
}
export class NotFoundError extends ApiError {
  constructor(message = 'Not found', extra: Record<string, unknown> = {}) {
    super(404, 'not_found', message, extra);
  }
}
export class MethodNotAllowedError extends ApiError {
  constructor(method: string, allowed: string[]) {
    super(405, 'method_not_allowed', `${method} is not allowed here; allowed: ${allowed.join(', ')}`, {}, { Allow: allowed.join(', ') });
  }
}
export class ConflictError extends ApiError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}
export class ValidationError extends ApiError {
  constructor(details: FieldIssue[], message = 'Request validation failed') {
    super(422, 'validation_failed', message, { details });
  }
}
export class ServiceUnavailableError extends ApiError {
  constructor(message: string, code = 'service_unavailable') {
    super(503, code, message);
  }
}
