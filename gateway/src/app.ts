import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { createMetrics, type Metrics } from '@platform/service-kit/metrics';
import { notFoundHandler } from '@platform/service-kit/error-handler';
import { runChecks } from '@platform/service-kit/health';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import { gatewaySettings, type GatewayConfig } from './config';
import { DashboardSessions } from './dashboard-sessions';
import { createUpstreamProxy } from './proxy';
import { createPublicListener } from './public-listener';
import { upstreamList } from './upstream-list';
import type { Upstream } from './routes';

type OptionalSettings =
  | 'REDIS_PREFIX'
  | 'RATE_LIMIT_PER_MINUTE'
  | 'DASHBOARD_RATE_LIMIT_PER_ACCOUNT_PER_MINUTE'
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

/** The gateway's public request listener (see `createGateway`). */
export function createApp(deps: GatewayDeps): RequestListener {
  return createGateway(deps).public;
}

/**
 * The gateway. Proxied routes run on bare node:http (no Express on the hot path); Express serves only the gateway's
 * own pages. No body parser runs: partner bodies (100 kB at most) are read whole as raw bytes and forwarded byte for
 * byte; the dashboard's admin bodies are streamed to the service once the token was accepted, within the route's
 * cap and the in-flight upload caps. Every setting not given takes its default from the config schema (config.ts).
 */
export function createGateway({ config: given, logger, redis, batchLogLines = false }: GatewayDeps): Gateway {
  const config = gatewaySettings(given);
  const metrics = createMetrics('gateway');
  const upstreamUrls: Record<Upstream, string[]> = { certificate: upstreamList(config.CERTIFICATE_URL), mobility: upstreamList(config.MOBILITY_URL) };
  const upstreamOptions = { timeoutMs: config.UPSTREAM_TIMEOUT_MS, maxSockets: config.UPSTREAM_MAX_SOCKETS, maxStreamSockets: config.UPSTREAM_MAX_STREAM_SOCKETS };
  const proxies = {
    certificate: createUpstreamProxy('certificate', upstreamUrls.certificate, upstreamOptions, logger),
    mobility: createUpstreamProxy('mobility', upstreamUrls.mobility, upstreamOptions, logger),
  };
  const sessions = new DashboardSessions({
    certificateUrls: upstreamUrls.certificate,
    cacheMs: config.DASHBOARD_SESSION_CACHE_MS,
    timeoutMs: Math.min(config.UPSTREAM_TIMEOUT_MS, 5000),
    redis,
    prefix: config.REDIS_PREFIX,
    logger,
  });
  const publicListener = createPublicListener({ config, logger, metrics, proxies, sessions, redis, batchLogLines });
  const closeStreams = () => Object.values(proxies).forEach((proxy) => proxy.closeStreams());
  return { public: publicListener, internal: internalApp(upstreamUrls, redis, metrics), closeStreams, close: () => sessions.close() };
}

/** The internal port: `/healthz`, `/readyz` (every upstream replica ready), `/metrics`. */
function internalApp(upstreamUrls: Record<Upstream, string[]>, redis: Redis | undefined, metrics: Metrics): Express {
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
  return internal;
}

async function upstreamReady(baseUrl: string): Promise<void> {
  const response = await fetch(new URL('/readyz', baseUrl), { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`readyz answered ${response.status}`);
}
