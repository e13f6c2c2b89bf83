import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from './logger';
import { currentTraceId, matchedRouteOf, traceIdOfRequest } from './request-context';

/** What a route may add to its request's log line, through `res.locals`. Never a token, PIN, secret or header. */
export interface RequestLogLocals {
  /** The id (`key_…`) of the API key that authenticated the request, once known. */
  apiKeyId?: string;
  /** The route to log and label metrics with when no Express route matched (the gateway's route table entry, a fast lane's handed-over route). */
  route?: string;
}

/** What identifies a request in its log line. */
export interface RequestLineIds {
  request_id: string | undefined;
  trace_id: string | undefined;
  method: string | undefined;
  /** The route pattern, never the raw URL. */
  route: string;
}

/**
 * The request log line every process writes (services, fast lanes, gateway): the ids, the status (499 when the client
 * went away before an answer), the duration in ms since `start`, the caller's extra fields (only defined ones), and
 * `aborted` when the answer was not finished.
 */
export function requestLogLine(res: ServerResponse, start: bigint, ids: RequestLineIds, extra: Record<string, string | undefined> = {}): Record<string, unknown> {
  const line: Record<string, unknown> = {
    ...ids,
    status: res.headersSent ? res.statusCode : 499,
    duration_ms: Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10,
  };
  for (const [name, value] of Object.entries(extra)) if (value) line[name] = value;
  if (!res.writableFinished) line.aborted = true;
  return line;
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
      const ids = { request_id: (req as Request & { id?: string }).id, trace_id: traceId, method: req.method, route: routeOf(req, res) };
      logger.info(requestLogLine(res, start, ids, { api_key_id: (res.locals as RequestLogLocals).apiKeyId }), 'request');
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
