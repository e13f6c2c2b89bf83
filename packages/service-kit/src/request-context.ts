import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatTraceparent, parseTraceparent, startSpan, type TraceContext, type TraceSpan } from './trace-context';

interface RequestStore {
  requestId: string;
  /** This process's span of the request: the caller's trace (a valid `traceparent`) or a new one. */
  trace: TraceContext;
}

const storage = new AsyncLocalStorage<RequestStore>();

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id from the caller when it is a sane token, else a new one. */
export function requestIdFor(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && REQUEST_ID_PATTERN.test(given)) return given;
  return randomUUID();
}

/**
 * This process's span of an incoming request: a child of the caller's `traceparent` when it is valid, else the root
 * of a new trace (an invalid header is dropped, never passed on).
 */
export function startRequestSpan(req: IncomingMessage): TraceSpan {
  return startSpan(req.method ?? 'HTTP', 'server', parseTraceparent(req.headers.traceparent));
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** The trace id of the request being handled, for log lines. */
export function currentTraceId(): string | undefined {
  return storage.getStore()?.trace.traceId;
}

/** The `traceparent` naming the request being handled as the parent: what work it causes later (an outbox event) carries. */
export function currentTraceparent(): string | undefined {
  const trace = storage.getStore()?.trace;
  return trace ? formatTraceparent(trace) : undefined;
}

/** The request id and trace id of the request being handled, for the logger (one store lookup per line). */
export function currentLogContext(): { request_id?: string; trace_id?: string } {
  const store = storage.getStore();
  return store ? { request_id: store.requestId, trace_id: store.trace.traceId } : {};
}

const MATCHED_ROUTE = Symbol('matched route');

/**
 * Remembers the full pattern of the route that matches this request (`/api/v1/rides/:id`) at the moment Express
 * matches it. Read later, `req.baseUrl` no longer holds the router's mount path once an error has left the router,
 * so an error's log line and metric would name `/:id` only. Called by `requestContext`, before any router runs.
 */
export function rememberMatchedRoute(req: IncomingMessage): void {
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') (req as IncomingMessage & { [MATCHED_ROUTE]?: string })[MATCHED_ROUTE] = `${(req as IncomingMessage & { baseUrl?: string }).baseUrl ?? ''}${path}`;
    },
  });
}

/** The full pattern of the route that matched this request, once one did. */
export function matchedRouteOf(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { [MATCHED_ROUTE]?: string })[MATCHED_ROUTE];
}

const REQUEST_TRACE = Symbol('request trace');

/** The trace id `requestContext` gave this request (also without the async store). */
export function traceIdOfRequest(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { [REQUEST_TRACE]?: TraceContext })[REQUEST_TRACE]?.traceId;
}

export interface RequestContextOptions {
  /**
   * Keep the request id and trace in an AsyncLocalStorage for everything the request causes (log lines, outbox events).
   * Default true. On Node 20 the first `run` of an AsyncLocalStorage makes every later promise and async resource of
   * the process pay a propagation hook, so a process whose hot path never reads the store (the gateway) turns it off.
   */
  asyncStore?: boolean;
}

/**
 * Express middleware: sets X-Request-Id on the response, starts the request's span (see `startRequestSpan`) and keeps
 * both for the logger and for work the request causes.
 */
export function requestContext({ asyncStore = true }: RequestContextOptions = {}) {
  return (req: IncomingMessage & { id?: string }, res: ServerResponse, next: () => void) => {
    const requestId = requestIdFor(req);
    req.id = requestId;
    req.headers['x-request-id'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    rememberMatchedRoute(req);
    const span = startRequestSpan(req);
    (req as IncomingMessage & { [REQUEST_TRACE]?: TraceContext })[REQUEST_TRACE] = span.context;
    if (span.recording) res.once('close', () => span.end({ statusCode: res.headersSent ? res.statusCode : null, route: matchedRouteOf(req) }));
    if (asyncStore) storage.run({ requestId, trace: span.context }, next);
    else next();
  };
}
