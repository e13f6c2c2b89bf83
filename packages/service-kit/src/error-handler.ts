import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError } from './errors';
import type { Logger } from './logger';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Maps every thrown value to the contract's JSON error body; only unexpected errors are logged at error level. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const { status, body } = describe(error);
    if (body.code === 'database_busy') logger.warn('database pool busy: answered 503');
    else if (status >= 500) logger.error({ err: error }, 'unhandled error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (body.code === 'database_busy') res.setHeader('Retry-After', '1');
    res.status(status).json(body);
  };
}

function describe(error: unknown): { status: number; body: Record<string, unknown> } {
  if (error instanceof ApiError) return { status: error.status, body: error.toBody() };
  const parserError = error as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return { status: 400, body: { error: 'Request body is not valid JSON', code: 'invalid_json' } };
    case 'entity.too.large':
      return { status: 413, body: { error: 'Request body is too large', code: 'payload_too_large' } };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, body: { error: 'Unsupported body encoding', code: 'unsupported_media_type' } };
    case 'request.aborted':
      return { status: 400, body: { error: 'Request aborted', code: 'request_aborted' } };
  }
  // The pool had no free connection within acquireConnectionTimeout (a burst far above the pool size, or queries
  // stuck behind a lock): a clean, retryable 503 instead of a 500.
  if (parserError?.name === 'KnexTimeoutError') return { status: 503, body: { error: 'Database is busy, retry shortly', code: 'database_busy' } };
  if (parserError instanceof URIError) return { status: 400, body: { error: 'Malformed URL', code: 'bad_request' } };
  const status = typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500 ? parserError.status : 500;
  if (status < 500) return { status, body: { error: parserError.message || 'Bad request', code: 'bad_request' } };
  return { status: 500, body: { error: 'Internal server error', code: 'internal_error' } };
}

/** The last route: anything unmatched is a JSON 404. */
export function notFoundHandler(): RequestHandler {
  return (_req, res) => {
    res.status(404).json({ error: 'Route not found', code: 'route_not_found' });
  };
}
