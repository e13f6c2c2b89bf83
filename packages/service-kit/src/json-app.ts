import type { IncomingMessage } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import { UnsupportedMediaTypeError } from './media-type';
import { requestContext } from './request-context';
import type { Logger } from './logger';
import { securityHeaders } from './security-headers';
import type { Metrics } from './metrics';
import { requestLogger } from './request-log';
import { handedOverErrors } from './fast-lane';

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
  app.use(handedOverErrors());
  return app;
}

/** JSON parsing with the contract's rules: non-JSON bodies are 415, bad JSON 400, oversize 413. */
export function jsonBodies(limit = '100kb'): RequestHandler[] {
  return [requireJsonWhenBodyPresent(), parseHandedOverBody(), express.json({ limit, strict: true, type: isJsonType })];
}

const HANDED_OVER_BODY = Symbol('handed-over body');

/**
 * A fast lane that read a request's JSON body and then leaves the request to Express hands the bytes over here:
 * `jsonBodies` parses them as body-parser would have (strict JSON, UTF-8, a BOM skipped), since the stream is spent.
 */
export function handOverBody(req: IncomingMessage, bytes: Buffer): void {
  (req as IncomingMessage & { [HANDED_OVER_BODY]?: Buffer })[HANDED_OVER_BODY] = bytes;
}

/** body-parser's strict JSON (an object or an array), or `undefined` for bytes it would refuse with 400. */
export function parseStrictJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function parseHandedOverBody(): RequestHandler {
  return (req, _res, next) => {
    const bytes = (req as IncomingMessage & { [HANDED_OVER_BODY]?: Buffer })[HANDED_OVER_BODY];
    if (bytes === undefined) return next();
    const body = parseStrictJson(bytes);
    if (body === undefined) return next(Object.assign(new SyntaxError('Request body is not valid JSON'), { status: 400, type: 'entity.parse.failed' }));
    req.body = body;
    next();
  };
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
