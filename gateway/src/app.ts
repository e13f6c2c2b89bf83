import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { addressBucket, adminTokenSettings, clientAddress, createMetrics, DEFAULT_ADMIN_TOKEN_MAX_TTL_S, DEFAULT_JWT_ISSUER, DEV_JWT_SECRET, errorHandler, knownRoutesOf, methodNotAllowedHandler, notFoundHandler, requestContext, requestIdFor, requestLogger, requestLogLine, runChecks, startRequestSpan, type Logger, type Metrics, type Redis, type TraceSpan } from '@platform/service-kit';
import type { GatewayConfig } from './config';
import { docsRoutes, RENDERER_PATH } from './docs';
import { DEFAULT_CERTIFICATE_OPENAPI_FILE, DEFAULT_MOBILITY_OPENAPI_FILE, gatewayDescriptionSource } from './openapi';
import { checkDashboardToken, signedJwtCheck, type DashboardClaims } from './dashboard-auth';
import { dashboardBodyCap, dashboardBodySize, streamDashboardBody, uploadRefusal } from './dashboard-body';
import { DashboardSessions } from './dashboard-sessions';
import { dashboardStatic, DEFAULT_DASHBOARD_DIR } from './dashboard-static';
import { InFlightCounter } from './in-flight';
import { answerJson } from './json-answer';
import { ProxiedRequest, type ProxiedRequestReport } from './proxied-request';
import { createUpstreamProxy, type ProxyCall } from './proxy';
import { connectionRateLimitSubject, rateLimit, type RateLimitedRequest } from './rate-limit';
import { hasBody, readBody } from './request-body';
import { requestLineWriter } from './request-log-writer';
import { UploadBudget } from './upload-budget';
import { upstreamList } from './upstream-list';
import { isDashboardPage, pathOf, rewrittenUrl, routeFor, type Upstream } from './routes';

type OptionalSettings =
  | 'REDIS_PREFIX'
  | 'RATE_LIMIT_PER_MINUTE'
  | 'TRUST_PROXY_HOPS'
  | 'TLS_CERT_FILE'
  | 'CERTIFICATE_OPENAPI_FILE'
  | 'MOBILITY_OPENAPI_FILE'
  | 'UPSTREAM_MAX_SOCKETS'
  | 'UPSTREAM_MAX_STREAM_SOCKETS'
  | 'MAX_BODY_BYTES'
  | 'DASHBOARD_MAX_BODY_BYTES'
  | 'DASHBOARD_TEMPLATE_MAX_BODY_BYTES'
  | 'DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT'
  | 'DASHBOARD_UPLOAD_BYTES_PER_PROCESS'
  | 'DASHBOARD_SESSION_CACHE_MS'
  | 'DASHBOARD_BODY_IDLE_MS'
  | 'BODY_TIMEOUT_MS'
  | 'MAX_IN_FLIGHT_PER_CLIENT'
  | 'JWT_SECRET'
  | 'JWT_ISSUER'
  | 'ADMIN_TOKEN_MAX_TTL_S'
  | 'DASHBOARD_DIR';

export interface GatewayDeps {
  config: Pick<GatewayConfig, 'CERTIFICATE_URL' | 'MOBILITY_URL' | 'UPSTREAM_TIMEOUT_MS'> & Partial<Pick<GatewayConfig, OptionalSettings>>;
  logger: Logger;
  /** The shared rate limiter's store; without it requests are not rate limited (tests of other parts, benchmarks). */
  redis?: Redis;
  /** The logger's stream buffers its writes (`bufferedStdout`): request lines are handed over once per event-loop turn. */
  batchLogLines?: boolean;
}

export interface Gateway {
  /** The public port: proxied routes, `/healthz`, `/openapi.json`, `/docs`; anything else a JSON 404. */
  public: RequestListener;
  /** The internal port (`METRICS_PORT`): `/metrics`, `/readyz`, `/healthz`. */
  internal: RequestListener;
  /** Ends the event streams in progress, so a draining gateway does not wait for jobs to finish. */
  closeStreams(): void;
  /** Closes the session cache's Redis subscription (after the servers closed). */
  close(): void;
}

const HSTS = 'max-age=31536000; includeSubDomains';

/** The gateway's own public pages and the methods they answer (another method: 405 with `Allow`). */
const OWN_PAGES = { '/healthz': { get: {} }, '/openapi.json': { get: {} }, '/docs': { get: {} }, [RENDERER_PATH]: { get: {} } };

/** The gateway's public request listener (see `createGateway`). */
export function createApp(deps: GatewayDeps): RequestListener {
  return createGateway(deps).public;
}

/**
 * The gateway. Proxied routes run on bare node:http (no Express on the hot path); Express serves only the gateway's
 * own pages. No body parser runs: partner bodies (100 kB at most) are read whole as raw bytes and forwarded byte for
 * byte; the dashboard's admin bodies are streamed to the service once the token was accepted, within the route's
 * cap and the in-flight upload caps.
 */
export function createGateway({ config, logger, redis, batchLogLines = false }: GatewayDeps): Gateway {
  const metrics = createMetrics('gateway');
  const upstreamUrls: Record<Upstream, string[]> = { certificate: upstreamList(config.CERTIFICATE_URL), mobility: upstreamList(config.MOBILITY_URL) };
  const upstreamOptions = {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    maxSockets: config.UPSTREAM_MAX_SOCKETS ?? 256,
    maxStreamSockets: config.UPSTREAM_MAX_STREAM_SOCKETS ?? 2048,
  };
  const proxies = {
    certificate: createUpstreamProxy('certificate', upstreamUrls.certificate, upstreamOptions, logger),
    mobility: createUpstreamProxy('mobility', upstreamUrls.mobility, upstreamOptions, logger),
  };
  const limiter = redis
    ? rateLimit({ redis, prefix: config.REDIS_PREFIX ?? 'platform', perMinute: config.RATE_LIMIT_PER_MINUTE ?? 600, logger })
    : undefined;
  const inFlight = new InFlightCounter(config.MAX_IN_FLIGHT_PER_CLIENT ?? 256);
  const bodyLimits = { maxBytes: config.MAX_BODY_BYTES ?? 100 * 1024, timeoutMs: config.BODY_TIMEOUT_MS ?? 10000 };
  // A signed-in dashboard user uploads CSV batches and templates with images: larger bodies on those routes only, streamed.
  const dashboardCaps = {
    batchBytes: config.DASHBOARD_MAX_BODY_BYTES ?? 5 * 1024 * 1024,
    templateBytes: config.DASHBOARD_TEMPLATE_MAX_BODY_BYTES ?? 3 * 1024 * 1024,
    defaultBytes: bodyLimits.maxBytes,
  };
  const dashboardBodyIdleMs = config.DASHBOARD_BODY_IDLE_MS ?? 5000;
  const uploads = new UploadBudget(config.DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT ?? 16 * 1024 * 1024, config.DASHBOARD_UPLOAD_BYTES_PER_PROCESS ?? 64 * 1024 * 1024);
  const trustHops = config.TRUST_PROXY_HOPS ?? 0;
  const hsts = Boolean(config.TLS_CERT_FILE);
  const writeRequestLine = requestLineWriter(logger, { batch: batchLogLines });
  const ownPages = ownPagesApp(config, logger, metrics, hsts);
  const dashboardPages = dashboardStatic(config.DASHBOARD_DIR ?? DEFAULT_DASHBOARD_DIR);
  const adminTokens = adminTokenSettings({
    JWT_SECRET: config.JWT_SECRET ?? DEV_JWT_SECRET,
    JWT_ISSUER: config.JWT_ISSUER ?? DEFAULT_JWT_ISSUER,
    ADMIN_TOKEN_MAX_TTL_S: config.ADMIN_TOKEN_MAX_TTL_S ?? DEFAULT_ADMIN_TOKEN_MAX_TTL_S,
  });
  const isSignedJwt = signedJwtCheck(adminTokens);
  const sessions = new DashboardSessions({
    certificateUrls: upstreamUrls.certificate,
    cacheMs: config.DASHBOARD_SESSION_CACHE_MS ?? 10000,
    timeoutMs: Math.min(config.UPSTREAM_TIMEOUT_MS, 5000),
    redis,
    prefix: config.REDIS_PREFIX ?? 'platform',
    logger,
  });

  const proxyRequest = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = pathOf(req.url ?? '/');
    if (isDashboardPage(pathname)) return serveDashboardPage(req, res, pathname);
    const route = routeFor(pathname);
    if (!route) return ownPages(req, res);
    const upstreamPath = rewrittenUrl(route, req.url ?? '/');
    if (upstreamPath === null) return ownPages(req, res); // a dot segment in a rewritten path: the JSON 404
    const arrivedAt = Date.now();
    const requestId = requestIdFor(req);
    const span = startRequestSpan(req); // the caller's trace when its traceparent is valid, else a new one
    res.setHeader('X-Request-Id', requestId);
    if (hsts) res.setHeader('Strict-Transport-Security', HSTS);
    const bucket = bucketOf(req, trustHops);
    let admin: DashboardClaims | undefined;
    if (route.adminToken) {
      const check = checkDashboardToken(req, adminTokens);
      if (check.ok) admin = check.claims;
      else {
        const refusal = check.refusal;
        logWhenDone(logger, req, res, requestId, span, route.path, undefined);
        const refuse = () => answerJson(res, 401, refusal, { 'WWW-Authenticate': refusal.code === 'missing_token' ? 'Bearer' : 'Bearer error="invalid_token"' });
        // A refused token spends its address's budget, like a key the service refuses: 429 once it is spent.
        if (limiter) limiter.check({ subject: { kind: 'ip', id: bucket }, addressBucket: bucket, pathname }, res, refuse);
        else refuse();
        return;
      }
    }
    const subject = connectionRateLimitSubject(req, pathname, bucket, isSignedJwt);
    const limited: RateLimitedRequest = { subject, addressBucket: bucket, pathname };
    const done = new ProxiedRequest(req, res, requestId, span, route.path, subject.kind === 'key' ? subject.id.slice(0, 12) : undefined, reportProxied);
    if (!done.enter(inFlight, bucket)) {
      answerJson(res, 429, { error: 'Too many requests in flight from this address', code: 'too_many_in_flight' }, { 'Retry-After': '1' });
      return;
    }
    const send = (body: ProxyCall['body']) =>
      proxies[route.upstream](req, res, {
        body,
        arrivedAt,
        requestId,
        span,
        path: upstreamPath,
        onStatus: limiter && subject.kind === 'key' ? (status) => status === 401 && limiter.noteRefusedKey(limited) : undefined,
        onEventStream: done.leaveInFlight,
      });
    const forward = () => {
      if (admin) {
        const claims = admin;
        const go = () => forwardDashboard(req, res, claims, dashboardBodyCap(route.upstream, req.method, upstreamPath, dashboardCaps), arrivedAt, send);
        // A token naming a sign-in is proxied only while that sign-in is live (signed out or removed: 401 at once).
        if (!claims.sid) return go();
        sessions.check({ ...claims, sid: claims.sid }, String(req.headers.authorization)).then((verdict) => {
          if (res.destroyed) return;
          if (verdict === 'live') return go();
          if (verdict === 'unavailable') return answerJson(res, 503, { error: 'The dashboard session could not be checked; retry shortly', code: 'session_check_unavailable' }, { 'Retry-After': '1' });
          if (limiter) limiter.noteRefusedKey(limited); // a refused credential: charged to the address
          answerJson(res, 401, { error: 'This sign-in has ended; sign in again', code: 'session_ended' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
        }, noop);
        return;
      }
      // Most partner requests (GET) have no body: sent at once, with no promise in between.
      if (!hasBody(req)) return void (res.destroyed || send(undefined));
      readBody(req, bodyLimits, arrivedAt).then((outcome) => {
        if (!outcome.ok) return answerJson(res, outcome.status, { error: outcome.error, code: outcome.code }, { Connection: 'close' });
        if (res.destroyed) return;
        send(outcome.body);
      }, noop);
    };
    if (limiter) limiter.check(limited, res, forward);
    else forward();
  };

  /** A proxied request's metrics (an answer that finished, as Express's middleware counts) and its log line. */
  const reportProxied: ProxiedRequestReport = (request, seconds, line) => {
    if (request.res.writableFinished) metrics.observe(request.req.method ?? 'GET', request.route, request.res.statusCode, seconds);
    writeRequestLine(line, 'request');
  };

  /**
   * A dashboard admin request: its body streamed to the service (refused 413 over the route's cap) and charged to the
   * uploads in flight as it arrives (429 / 503 with Retry-After when its account or the shared total refuse it).
   */
  const forwardDashboard = (req: IncomingMessage, res: ServerResponse, admin: DashboardClaims, maxBytes: number, arrivedAt: number, send: (body: ProxyCall['body']) => void) => {
    const outcome = dashboardBodySize(req, maxBytes);
    if (!outcome.ok) return answerJson(res, outcome.refusal.status, { error: outcome.refusal.message, code: outcome.refusal.code }, { Connection: 'close' });
    if (!outcome.size) return send(undefined);
    const admission = uploads.admit(admin.sub, outcome.size.length);
    if (!admission.ok) {
      const refusal = uploadRefusal(admission.scope);
      return answerJson(res, refusal.status, { error: refusal.message, code: refusal.code }, { 'Retry-After': String(refusal.retryAfterSeconds), Connection: 'close' });
    }
    res.once('close', admission.upload.release);
    send(streamDashboardBody(req, outcome.size, { maxBytes, timeoutMs: bodyLimits.timeoutMs, idleMs: dashboardBodyIdleMs }, arrivedAt, admission.upload));
  };

  /** The dashboard's static files, logged like proxied requests (route `/dashboard`). */
  const serveDashboardPage = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const requestId = requestIdFor(req);
    const span = startRequestSpan(req);
    res.setHeader('X-Request-Id', requestId);
    if (hsts) res.setHeader('Strict-Transport-Security', HSTS);
    logWhenDone(logger, req, res, requestId, span, '/dashboard', undefined);
    dashboardPages(req, res, pathname);
  };

  const internal = express();
  internal.disable('x-powered-by');
  internal.set('etag', false);
  internal.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  internal.get('/readyz', async (_req, res) => {
    // An upstream is up when every one of its replicas is ready.
    const checks = Object.fromEntries(Object.entries(upstreamUrls).map(([name, urls]) => [name, () => Promise.all(urls.map(upstreamReady))]));
    const results = await runChecks(redis ? { ...checks, redis: () => redis.ping() } : checks, 2000);
    // Redis only holds rate-limit counters and the gateway fails open without it, so it is reported but does not make the gateway unready.
    const down = Object.entries(results).filter(([name, state]) => state !== 'up' && name !== 'redis').map(([name]) => name);
    if (down.length === 0) {
      res.json({ status: 'ready', checks: results });
      return;
    }
    res.status(503).json({ status: 'unavailable', checks: results, error: `Not ready: ${down.join(', ')} down`, code: 'not_ready' });
  });
  internal.get('/metrics', metrics.handler());
  internal.use(notFoundHandler());
  const closeStreams = () => Object.values(proxies).forEach((proxy) => proxy.closeStreams());
  return { public: proxyRequest, internal, closeStreams, close: () => sessions.close() };
}

/** The gateway's own public pages on Express: `/healthz`, the API description and reference, and JSON 404s. */
function ownPagesApp(config: GatewayDeps['config'], logger: Logger, metrics: Metrics, hsts: boolean): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // No AsyncLocalStorage in the gateway: one `run` would make every proxied request pay Node 20's propagation hook on
  // each promise and socket (bench:gateway); these pages' log lines take their ids from the request instead.
  app.use(requestContext({ asyncStore: false }));
  // Read at start-up: a broken description stops the gateway here rather than on the first /docs request; a missing one is a 503 until built.
  const description = gatewayDescriptionSource({
    certificate: config.CERTIFICATE_OPENAPI_FILE ?? DEFAULT_CERTIFICATE_OPENAPI_FILE,
    mobility: config.MOBILITY_OPENAPI_FILE ?? DEFAULT_MOBILITY_OPENAPI_FILE,
  });
  if (hsts) app.use(strictTransportSecurity());
  app.use(requestLogger(logger));
  app.use(metrics.httpMiddleware());
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, strictTransportSecurity: false }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(docsRoutes(description));
  app.use(methodNotAllowedHandler(knownRoutesOf(OWN_PAGES)));
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}

/**
 * One JSON line per proxied request when its answer is finished or the client went away, with the same fields
 * as the services' request log: request id, trace id, method, route (the route table entry, never the raw URL), status
 * (499: the client left before an answer), duration in ms, and a short fingerprint of the API key's hash.
 */
function logWhenDone(logger: Logger, req: IncomingMessage, res: ServerResponse, requestId: string, span: TraceSpan, route: string, fingerprint: string | undefined): void {
  const start = process.hrtime.bigint();
  res.once('close', () => {
    const ids = { request_id: requestId, trace_id: span.context.traceId, method: req.method, route };
    logger.info(requestLogLine(res, start, ids, { api_key_fingerprint: fingerprint }), 'request');
    span.end({ statusCode: res.headersSent ? res.statusCode : null, route });
  });
}

function strictTransportSecurity(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Strict-Transport-Security', HSTS);
    next();
  };
}

function noop(): void {}

const SOCKET_BUCKET = Symbol('address bucket');

/**
 * The client's address bucket (see `addressBucket`). Without trusted proxies it is the socket's peer's, the same for
 * every request a keep-alive connection carries: worked out once per connection.
 */
function bucketOf(req: IncomingMessage, trustHops: number): string {
  if (trustHops > 0) return addressBucket(clientAddress(req, trustHops));
  const socket = req.socket as IncomingMessage['socket'] & { [SOCKET_BUCKET]?: string };
  return (socket[SOCKET_BUCKET] ??= addressBucket(clientAddress(req, 0)));
}

async function upstreamReady(baseUrl: string): Promise<void> {
  const response = await fetch(new URL('/readyz', baseUrl), { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`readyz answered ${response.status}`);
}
