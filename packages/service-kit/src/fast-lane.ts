import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { etagOf, matchesIfNoneMatch } from './etag';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import { requestIdFor, startRequestSpan } from './request-context';
import { helmetHeaders } from './security-headers';
import { requestLogLine, type RequestLogLocals } from './request-log';

/** A successful answer a fast lane writes itself, with what its Express route would log and count. */
export interface FastLaneAnswer {
  status: number;
  /** The route pattern, as the Express route logs and labels it (`/api/v1/verify/:code`). */
  route: string;
  /** The API key that authenticated the request, for the log line. */
  apiKeyId: string;
  etag?: string;
  /** The JSON text; none for a 304. */
  body?: string;
}

/**
 * A lane's answer to a GET of a single object, as `sendJsonWithEtag` answers it through Express: the JSON with its ETag,
 * or a 304 without a body when `If-None-Match` names that ETag.
 */
export function answerWithEtag(req: IncomingMessage, log: { route: string; apiKeyId: string }, value: unknown): FastLaneAnswer {
  const body = JSON.stringify(value);
  const etag = etagOf(body);
  if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) return { status: 304, ...log, etag };
  return { status: 200, ...log, etag, body };
}

const HANDED_OVER_ERROR = Symbol('handed-over error');

/**
 * A fast lane whose work failed (a pool timeout, a lost connection, a validation the service threw) leaves the request
 * to Express with the error instead of letting the route run the same work again: `createJsonApp` passes it straight
 * to the app's error handler, which answers exactly as it would have for the route (the route pattern goes along for
 * the log line and metrics, with the API key once it was accepted). So a busy database is one acquire timeout and one 503, as without the lane.
 */
function handOverError(req: IncomingMessage, res: ServerResponse, error: unknown, log: { route: string; apiKeyId?: string }): void {
  (req as IncomingMessage & { [HANDED_OVER_ERROR]?: unknown })[HANDED_OVER_ERROR] = error;
  const locals: RequestLogLocals = { route: log.route };
  if (log.apiKeyId) locals.apiKeyId = log.apiKeyId;
  (res as ServerResponse & { locals?: RequestLogLocals }).locals = locals;
}

/** Express middleware (in `createJsonApp`): a request a fast lane handed over with an error goes to the error handler. */
export function handedOverErrors() {
  return (req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void) => {
    const error = (req as IncomingMessage & { [HANDED_OVER_ERROR]?: unknown })[HANDED_OVER_ERROR];
    if (error === undefined) return next();
    next(error);
  };
}

type FastLaneWriter = (req: IncomingMessage, res: ServerResponse, answer: FastLaneAnswer, start: bigint) => void;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a fast lane's answer with everything the Express front (`createJsonApp`) adds, in its order: the request id
 * (given or new) in `X-Request-Id`, the trace span, one JSON request log line, helmet's headers and the request metric;
 * then the body as `res.json` sends it, so a partner, a log reader and a dashboard cannot tell the two paths apart.
 */
function fastLaneWriter({ logger, metrics }: { logger: Logger; metrics: Metrics }): FastLaneWriter {
  // helmet's headers as a flat [name, value, ...] list, worked out once; writeHead takes the whole list in one call.
  const security = Object.entries(helmetHeaders({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false })).flat();
  return (req, res, answer, start) => {
    const requestId = requestIdFor(req);
    req.headers['x-request-id'] = requestId;
    const span = startRequestSpan(req);
    if (span.recording) res.once('close', () => span.end({ statusCode: res.headersSent ? res.statusCode : null, route: answer.route }));
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      if (!logger.isLevelEnabled('info')) return; // the line is not built when it would not be written
      const ids = { request_id: requestId, trace_id: span.context.traceId, method: req.method, route: answer.route };
      logger.info(requestLogLine(res, start, ids, { api_key_id: answer.apiKeyId }), 'request');
    };
    res.once('finish', () => {
      log();
      metrics.observe(req.method!, answer.route, res.statusCode, Number(process.hrtime.bigint() - start) / 1e9);
    });
    res.once('close', log);
    // The Express front's order: X-Request-Id, helmet's headers, then the route's ETag and the body's type and length.
    const headers: string[] = ['X-Request-Id', requestId, ...security];
    if (answer.etag) headers.push('ETag', answer.etag);
    if (answer.body === undefined) {
      res.writeHead(answer.status, headers);
      res.end();
      return;
    }
    headers.push('Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(answer.body)));
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };
}

/** What one fast lane knows: which requests it may take, and how it answers them. */
export interface FastLaneSpec<Target> {
  /** What the request asks for when the lane may answer it; undefined leaves it to the app untouched. */
  eligible(req: IncomingMessage): Target | undefined;
  /** The Express route pattern of the target, for the log line of a handed-over error. */
  route(target: Target): string;
  /**
   * The answer, or undefined to leave the request to the app (only before anything that must not run twice); a
   * rejection goes to the app's error handler. `accepted` learns the key once it is accepted, for that error's log line.
   */
  answer(req: IncomingMessage, target: Target, accepted: { apiKeyId?: string }): Promise<FastLaneAnswer | undefined>;
}

/**
 * A `RequestListener` in front of `app` that answers a hot route's success without Express (`fastLaneWriter`), leaves
 * every other request to `app` before anything is written, and hands a failed step to the app's error handler
 * (`handOverError`) instead of letting the route run it again.
 */
export function fastLane<Target>(deps: { logger: Logger; metrics: Metrics }, spec: FastLaneSpec<Target>, app: RequestListener): RequestListener {
  const send = fastLaneWriter(deps);
  return (req, res) => {
    const start = process.hrtime.bigint();
    const target = spec.eligible(req);
    if (target === undefined) return app(req, res);
    const accepted: { apiKeyId?: string } = {};
    spec.answer(req, target, accepted).then(
      (result) => (result ? send(req, res, result, start) : app(req, res)),
      (error: unknown) => {
        handOverError(req, res, error, { route: spec.route(target), ...accepted });
        app(req, res);
      },
    );
  };
}
