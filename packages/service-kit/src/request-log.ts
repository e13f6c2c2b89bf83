import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from './logger';
import { currentTraceId, matchedRouteOf, traceIdOfRequest } from './request-context';

/** What a route may add to its request's log line, through `res.locals`. Never a token, PIN, secret or header. */
export interface RequestLogLocals {
  /** The id (`key_…`) of the API key that authenticated the request, once known. */
  apiKeyId?: string;
  /** The route to log and label metrics with when no Express route matched (the gateway sets its route table entry). */
  route?: string;
  /** Further safe fields for the log line (the gateway adds a short fingerprint of the key's hash). */
  logFields?: Record<string, unknown>;
}

/** Marks the request as made with this API key, for its log line. */
export function noteApiKey(res: Response, apiKeyId: string): void {
  (res.locals as RequestLogLocals).apiKeyId = apiKeyId;
}

/**
 * One JSON line per request when its answer is finished (or the client went away): request id, trace id, method,
 * route, status, duration in ms and the API key id when known. The URL is logged as its route pattern only, so ids and
 * query strings never reach the logs; headers are never logged.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    const traceId = currentTraceId() ?? traceIdOfRequest(req); // read now: the finish event may run outside requestContext's store
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const locals = res.locals as RequestLogLocals;
      const durationMs = Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10;
      const line: Record<string, unknown> = {
        ...locals.logFields,
        request_id: (req as Request & { id?: string }).id,
        trace_id: traceId,
        method: req.method,
        route: routeOf(req, res),
        status: res.headersSent ? res.statusCode : 499, // 499: the client went away before an answer
        duration_ms: durationMs,
      };
      if (locals.apiKeyId) line.api_key_id = locals.apiKeyId;
      if (!res.writableFinished) line.aborted = true;
      logger.info(line, 'request');
    };
    res.once('finish', log);
    res.once('close', log);
    next();
  };
}

/** The route pattern (`/api/v1/rides/:id`), the route set in `res.locals.route`, or `unmatched`. */
export function routeOf(req: Request, res: Response): string {
  const matched = matchedRouteOf(req);
  if (matched !== undefined) return matched;
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath === 'string') return `${req.baseUrl}${routePath}`;
  const given = (res.locals as RequestLogLocals | undefined)?.route;
  return typeof given === 'string' ? given : 'unmatched';
}
