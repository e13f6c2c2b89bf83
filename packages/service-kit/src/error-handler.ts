import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { ApiError, ValidationError, type FieldIssue } from './errors';
import type { Logger } from './logger';
import { partnerMessage } from './partner-messages';
import { PROBLEM_CONTENT_TYPE, problemBody } from './problem-details';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

interface Described {
  status: number;
  code: string;
  message: string;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Bearer-token 401s name the scheme (RFC 6750): `Bearer` when no token was sent, `Bearer error="invalid_token"` when the
 * token sent is unusable. Admin and driver JWTs and API keys all use these codes.
 */
const BEARER_CHALLENGES: Record<string, string> = {
  missing_token: 'Bearer',
  missing_api_key: 'Bearer',
  invalid_token: 'Bearer error="invalid_token"',
  invalid_api_key: 'Bearer error="invalid_token"',
  session_revoked: 'Bearer error="invalid_token"',
};

/** Maps every thrown value to a Problem Details answer (RFC 9457); only unexpected errors are logged at error level. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const described = describe(error);
    if (described.code === 'database_busy') logger.warn('database pool busy: answered 503');
    else if (described.status >= 500) logger.error({ err: error }, 'unhandled error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (described.code === 'database_busy') res.setHeader('Retry-After', '1');
    const challenge = described.status === 401 ? BEARER_CHALLENGES[described.code] : undefined;
    if (challenge) res.setHeader('WWW-Authenticate', challenge);
    for (const [name, value] of Object.entries(described.headers ?? {})) res.setHeader(name, value);
    sendProblem(res, described.status, described.code, described.message, described.extra);
  };
}

/** Answers a Problem Details document: `application/problem+json` with `type`, `title`, `status`, `detail`, `error`, `code`. */
export function sendProblem(res: Response, status: number, code: string, message: string, extra: Record<string, unknown> = {}): void {
  res.status(status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problemBody(status, code, message, extra)));
}

function describe(error: unknown): Described {
  if (error instanceof ValidationError) {
    const details = (error.extra.details as FieldIssue[]).map((issue) => ({ path: issue.path, message: partnerMessage(issue.message) }));
    return { status: error.status, code: error.code, message: error.message, extra: { ...error.extra, details } };
  }
  if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message, extra: error.extra, headers: error.headers };
  const parserError = error as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return { status: 400, code: 'invalid_json', message: 'Request body is not valid JSON' };
    case 'entity.too.large':
      return { status: 413, code: 'payload_too_large', message: 'Request body is too large' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, code: 'unsupported_media_type', message: 'Unsupported body encoding' };
    case 'request.aborted':
      return { status: 400, code: 'request_aborted', message: 'Request aborted' };
  }
  // The pool had no free connection within acquireConnectionTimeout (a burst far above the pool size, or queries
  // stuck behind a lock): a clean, retryable 503 instead of a 500.
  if (parserError?.name === 'KnexTimeoutError') return { status: 503, code: 'database_busy', message: 'Database is busy, retry shortly' };
  if (parserError instanceof URIError) return { status: 400, code: 'bad_request', message: 'Malformed URL' };
  const status = typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500 ? parserError.status : 500;
  if (status < 500) return { status, code: 'bad_request', message: parserError.message || 'Bad request' };
  return { status: 500, code: 'internal_error', message: 'Internal server error' };
}

/** The last route: anything unmatched is a 404 problem. */
export function notFoundHandler(): RequestHandler {
  return (_req, res) => {
    sendProblem(res, 404, 'route_not_found', 'Route not found');
  };
}
