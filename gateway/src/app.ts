import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { createMetrics } from '@platform/service-kit/metrics';
import { notFoundHandler, requestLogger } from '@platform/service-kit/http';
import { requestContext } from '@platform/service-kit/request-context';
import { runChecks } from '@platform/service-kit/health';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import { DEFAULT_OPENAPI_FILES, type GatewayConfig } from './config';
import { docsRoutes, loadGatewayDescription } from './docs';
import { createUpstreamProxy } from './proxy';
import { rateLimit } from './rate-limit';
import { pathOf, routeFor, type Upstream } from './routes';

export interface GatewayDeps {
  config: Pick<GatewayConfig, 'CERTIFICATE_URL' | 'MOBILITY_URL' | 'UPSTREAM_TIMEOUT_MS'> &
    Partial<Pick<GatewayConfig, 'REDIS_PREFIX' | 'RATE_LIMIT_PER_MINUTE' | 'TRUST_PROXY_HOPS' | 'TLS_CERT_FILE' | 'CERTIFICATE_OPENAPI_FILE' | 'MOBILITY_OPENAPI_FILE'>>;
  logger: Logger;
  /** The shared rate limiter's store; without it requests are not rate limited (tests of other parts, benchmarks). */
  redis?: Redis;
}

const HSTS = 'max-age=31536000; includeSubDomains';

/** The gateway: routes by path to an upstream; no body parser runs, so bodies stream through byte for byte. */
export function createApp({ config, logger, redis }: GatewayDeps): Express {
  const app = express();
  const metrics = createMetrics('gateway');
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY_HOPS ?? 0);
  app.use(requestContext());
  // Read once at start-up: a broken description stops the gateway here rather than on the first /docs request.
  const description = loadGatewayDescription({
    certificate: config.CERTIFICATE_OPENAPI_FILE ?? DEFAULT_OPENAPI_FILES.certificate,
    mobility: config.MOBILITY_OPENAPI_FILE ?? DEFAULT_OPENAPI_FILES.mobility,
  });
  if (config.TLS_CERT_FILE) app.use(strictTransportSecurity());
  app.use(requestLogger(logger));
  app.use(metrics.httpMiddleware());

  const upstreamUrls: Record<Upstream, string> = { certificate: config.CERTIFICATE_URL, mobility: config.MOBILITY_URL };
  const proxies = {
    certificate: createUpstreamProxy('certificate', config.CERTIFICATE_URL, config.UPSTREAM_TIMEOUT_MS, logger),
    mobility: createUpstreamProxy('mobility', config.MOBILITY_URL, config.UPSTREAM_TIMEOUT_MS, logger),
  };
  const limit = redis
    ? rateLimit({ redis, prefix: config.REDIS_PREFIX ?? 'platform', perMinute: config.RATE_LIMIT_PER_MINUTE ?? 600, logger })
    : undefined;

  app.use((req, res, next) => {
    const route = routeFor(pathOf(req.url));
    if (!route) return next();
    res.locals.route = route.path;
    const proxy = () => proxies[route.upstream](req, res);
    if (!limit) return proxy();
    return limit(req, res, proxy);
  });

  // The services set their own security headers; helmet here covers only the gateway's own answers, off the proxy's hot path.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false, strictTransportSecurity: false }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = Object.fromEntries(Object.entries(upstreamUrls).map(([name, url]) => [name, () => upstreamReady(url)]));
    const results = await runChecks(redis ? { ...checks, redis: () => redis.ping() } : checks, 2000);
    // Redis only holds rate-limit counters and the gateway fails open without it, so it is reported but does not make the gateway unready.
    const down = Object.entries(results).filter(([name, state]) => state !== 'up' && name !== 'redis').map(([name]) => name);
    if (down.length === 0) {
      res.json({ status: 'ready', checks: results });
      return;
    }
    res.status(503).json({ status: 'unavailable', checks: results, error: `Not ready: ${down.join(', ')} down`, code: 'not_ready' });
  });
  app.get('/metrics', metrics.handler());
  app.use(docsRoutes(description));
  app.use(notFoundHandler());
  return app;
}

function strictTransportSecurity(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Strict-Transport-Security', HSTS);
    next();
  };
}

async function upstreamReady(baseUrl: string): Promise<void> {
  const response = await fetch(new URL('/readyz', baseUrl), { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`readyz answered ${response.status}`);
}
