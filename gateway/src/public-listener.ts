import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { addressBucket, clientAddress } from '@platform/service-kit/client-address';
import { adminTokenSettings } from '@platform/service-kit/admin-auth';
import { requestIdFor, startRequestSpan } from '@platform/service-kit/request-context';
import { requestLogLine } from '@platform/service-kit/request-log';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import { minuteBudget, type MinuteBudget } from '@platform/service-kit/minute-budget';
import type { Redis } from '@platform/service-kit/redis';
import type { TraceSpan } from '@platform/service-kit/trace-context';
import type { GatewayConfig } from './config';
import { checkDashboardToken, signedJwtCheck, type DashboardClaims } from './dashboard-auth';
import { dashboardBodyCap, dashboardBodySize, streamDashboardBody, uploadRefusal } from './dashboard-body';
import type { DashboardSessions } from './dashboard-sessions';
import { dashboardStatic } from './dashboard-static';
import { InFlightCounter } from './in-flight';
import { answerJson } from './json-answer';
import { HSTS, ownPagesApp } from './own-pages';
import { ProxiedRequest, type ProxiedRequestReport } from './proxied-request';
import type { ProxyCall, UpstreamProxy } from './proxy';
import { connectionRateLimitSubject, rateLimit, type RateLimitedRequest, type RateLimiter } from './rate-limit';
import { hasBody, readBody } from './request-body';
import { requestLineWriter } from './request-log-writer';
import { UploadBudget } from './upload-budget';
import { isDashboardPage, pathOf, rewrittenUrl, routeFor, type Route, type Upstream } from './routes';

/** What the public listener works with: the gateway's settings and the parts createGateway builds once for both ports. */
export interface PublicListenerParts {
  config: GatewayConfig;
  logger: Logger;
  metrics: Metrics;
  proxies: Record<Upstream, UpstreamProxy>;
  sessions: DashboardSessions;
  /** The shared rate limiter's store; without it requests are not rate limited. */
  redis?: Redis;
  /** Request lines handed to the logger once per event-loop turn (see `requestLineWriter`). */
  batchLogLines: boolean;
}

type Send = (body: ProxyCall['body']) => void;

/** A dashboard admin request whose token was accepted, on its way to its service. */
interface AdminPassage {
  req: IncomingMessage;
  res: ServerResponse;
  claims: DashboardClaims;
  upstream: Upstream;
  upstreamPath: string;
  arrivedAt: number;
  limited: RateLimitedRequest;
}

/**
 * The public port's listener. Proxied routes run on bare node:http (no Express on the hot path); the dashboard's static
 * files are served beside them; anything else goes to the gateway's own pages on Express (`/healthz`, the API
 * description and reference, JSON 404s).
 */
export function createPublicListener(parts: PublicListenerParts): RequestListener {
  const { config, logger, metrics } = parts;
  const hsts = Boolean(config.TLS_CERT_FILE);
  const ownPages = ownPagesApp(config, logger, metrics, hsts);
  const dashboardPages = dashboardStatic(config.DASHBOARD_DIR);
  const proxy = proxiedRoutes(parts, hsts);

  /** The dashboard's static files, logged like proxied requests (route `/dashboard`). */
  const serveDashboardPage = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const requestId = requestIdFor(req);
    const span = startRequestSpan(req);
    res.setHeader('X-Request-Id', requestId);
    if (hsts) res.setHeader('Strict-Transport-Security', HSTS);
    logWhenDone(logger, req, res, requestId, span, '/dashboard', undefined);
    dashboardPages(req, res, pathname);
  };

  return (req, res) => {
    const pathname = pathOf(req.url ?? '/');
    if (isDashboardPage(pathname)) return serveDashboardPage(req, res, pathname);
    const route = routeFor(pathname);
    if (!route) return ownPages(req, res);
    const upstreamPath = rewrittenUrl(route, req.url ?? '/');
    if (upstreamPath === null) return ownPages(req, res); // a dot segment in a rewritten path: the JSON 404
    proxy(req, res, pathname, route, upstreamPath);
  };
}

/**
 * A request the route table sends upstream: its dashboard token checked (where the route takes one), its address's
 * requests in flight capped, rate limited, its body read (partner routes: whole, within MAX_BODY_BYTES) or streamed
 * (dashboard admin routes), then proxied.
 */
function proxiedRoutes({ config, logger, metrics, proxies, sessions, redis, batchLogLines }: PublicListenerParts, hsts: boolean) {
  const limiter = redis ? rateLimit({ redis, prefix: config.REDIS_PREFIX, perMinute: config.RATE_LIMIT_PER_MINUTE, perAddressPerMinute: config.RATE_LIMIT_PER_ADDRESS_PER_MINUTE, logger }) : undefined;
  const inFlight = new InFlightCounter(config.MAX_IN_FLIGHT_PER_CLIENT);
  const bodyLimits = { maxBytes: config.MAX_BODY_BYTES, timeoutMs: config.BODY_TIMEOUT_MS };
  const adminTokens = adminTokenSettings(config);
  const isSignedJwt = signedJwtCheck(adminTokens);
  const accounts = minuteBudget({
    perMinute: config.DASHBOARD_RATE_LIMIT_PER_ACCOUNT_PER_MINUTE,
    prefix: `${config.REDIS_PREFIX}:ratelimit:account`,
    redis,
    onError: (err) => logger.warn({ err }, 'the dashboard account budget could not be counted; the request went on'),
  });
  const forwardAdmin = dashboardForwarder(config, sessions, limiter, accounts);
  const writeRequestLine = requestLineWriter(logger, { batch: batchLogLines });

  /** A proxied request's metrics (an answer that finished, as Express's middleware counts) and its log line. */
  const reportProxied: ProxiedRequestReport = (request, seconds, line) => {
    if (request.res.writableFinished) metrics.observe(request.req.method ?? 'GET', request.route, request.res.statusCode, seconds);
    writeRequestLine(line, 'request');
  };

  return (req: IncomingMessage, res: ServerResponse, pathname: string, route: Route, upstreamPath: string): void => {
    const arrivedAt = Date.now();
    const requestId = requestIdFor(req);
    const span = startRequestSpan(req); // the caller's trace when its traceparent is valid, else a new one
    res.setHeader('X-Request-Id', requestId);
    if (hsts) res.setHeader('Strict-Transport-Security', HSTS);
    const bucket = bucketOf(req, config.TRUST_PROXY_HOPS);
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
    const send: Send = (body) =>
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
      if (admin) return forwardAdmin({ req, res, claims: admin, upstream: route.upstream, upstreamPath, arrivedAt, limited }, send);
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
}

/**
 * A dashboard admin request's way upstream (its token names a sign-in: `checkDashboardToken` refuses one without):
 * proxied only while that sign-in is live (signed out or removed: 401 at once); its body streamed to the service
 * (refused 413 over the route's cap) and charged to the uploads in flight as it arrives (429 / 503 with Retry-After when
 * its account or the shared total refuse it).
 */
function dashboardForwarder(config: GatewayConfig, sessions: DashboardSessions, limiter: RateLimiter | undefined, accounts: MinuteBudget) {
  // A signed-in dashboard user uploads CSV batches and templates with images: larger bodies on those routes only, streamed.
  const caps = { batchBytes: config.DASHBOARD_MAX_BODY_BYTES, templateBytes: config.DASHBOARD_TEMPLATE_MAX_BODY_BYTES, defaultBytes: config.MAX_BODY_BYTES };
  const uploads = new UploadBudget(config.DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT, config.DASHBOARD_UPLOAD_BYTES_PER_PROCESS);

  const streamBody = ({ req, res, claims, upstream, upstreamPath, arrivedAt }: AdminPassage, send: Send) => {
    const maxBytes = dashboardBodyCap(upstream, req.method, upstreamPath, caps);
    const outcome = dashboardBodySize(req, maxBytes);
    if (!outcome.ok) return answerJson(res, outcome.refusal.status, { error: outcome.refusal.message, code: outcome.refusal.code }, { Connection: 'close' });
    if (!outcome.size) return send(undefined);
    const admission = uploads.admit(claims.sub, outcome.size.length);
    if (!admission.ok) {
      const refusal = uploadRefusal(admission.scope);
      return answerJson(res, refusal.status, { error: refusal.message, code: refusal.code }, { 'Retry-After': String(refusal.retryAfterSeconds), Connection: 'close' });
    }
    res.once('close', admission.upload.release);
    send(streamDashboardBody(req, outcome.size, { maxBytes, timeoutMs: config.BODY_TIMEOUT_MS, idleMs: config.DASHBOARD_BODY_IDLE_MS }, arrivedAt, admission.upload));
  };

  const checkSession = (passage: AdminPassage, send: Send): void => {
    const { req, res, claims } = passage;
    // Proxied only while the token's sign-in is live (signed out or removed: 401 at once); a token without one never gets here.
    sessions.check(claims, String(req.headers.authorization)).then((verdict) => {
      if (res.destroyed) return;
      if (verdict === 'live') return streamBody(passage, send);
      if (verdict === 'unavailable') return answerJson(res, 503, { error: 'The dashboard session could not be checked; retry shortly', code: 'session_check_unavailable' }, { 'Retry-After': '1' });
      if (limiter) limiter.noteRefusedKey(passage.limited); // a refused credential: charged to the address
      answerJson(res, 401, { error: 'This sign-in has ended; sign in again', code: 'session_ended' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }, noop);
  };

  // Every request of one account (all its organizations and sign-ins) spends one budget a minute, before anything else.
  return (passage: AdminPassage, send: Send): void => {
    const refuse = (retryAfter: number | undefined) => {
      if (retryAfter === undefined) return checkSession(passage, send);
      if (passage.res.destroyed) return;
      answerJson(passage.res, 429, { error: `Too many dashboard requests from this account; retry after ${retryAfter} s`, code: 'rate_limited' }, { 'Retry-After': String(retryAfter) });
    };
    const verdict = accounts.spend(passage.claims.sub);
    if (typeof verdict === 'object') void verdict.then(refuse);
    else refuse(verdict);
  };
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
