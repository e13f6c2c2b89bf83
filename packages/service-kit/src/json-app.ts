import express, { type Express, type RequestHandler } from 'express';
import { UnsupportedMediaTypeError } from './media-type';
import { requestContext } from './request-context';
import type { Logger } from './logger';
import { securityHeaders } from './security-headers';
import type { Metrics } from './metrics';
import { requestLogger } from './request-log';

export interface JsonAppOptions {
  metrics?: Metrics;
  /** When given, every request gets one JSON log line (see `requestLogger`). */
  logger?: Logger;
  /** Largest JSON body accepted; the contract says 100 kB. */
  bodyLimit?: string;
}

/**
 * The common front of every service: request id, request log lines, security headers, request metrics and JSON body parsing.
 * Routers that need the raw bytes (payment webhooks) are mounted by the caller before `jsonBodies()`.
 */
export function createJsonApp(options: JsonAppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestContext());
  if (options.logger) app.use(requestLogger(options.logger));
  app.use(securityHeaders());
  if (options.metrics) app.use(options.metrics.httpMiddleware());
  return app;
}

/** JSON parsing with the contract's rules: non-JSON bodies are 415, bad JSON 400, oversize 413. */
export function jsonBodies(limit = '100kb'): RequestHandler[] {
  return [requireJsonWhenBodyPresent(), express.json({ limit, strict: true, type: isJsonType })];
}

export function hasBody(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}

function isJsonType(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function requireJsonWhenBodyPresent(): RequestHandler {
  return (req, _res, next) => {
    // A route-specific parser mounted earlier (CSV upload, raw webhook bytes) has already taken the body.
    if (req.body === undefined && hasBody(req) && !isJsonType(req)) return next(new UnsupportedMediaTypeError());
    next();
  };
}

export { isJsonType };
