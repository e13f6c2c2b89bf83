import express, { type Express } from 'express';
import helmet from 'helmet';
import { createMetrics, notFoundHandler, requestContext, runChecks, type Logger } from '@platform/service-kit';
import { DEFAULT_OPENAPI_FILES, type GatewayConfig } from './config';
import { docsRoutes, loadGatewayDescription } from './docs';
import { createUpstreamProxy } from './proxy';
import { pathOf, upstreamFor, type Upstream } from './routes';

export interface GatewayDeps {
  config: Pick<GatewayConfig, 'CERTIFICATE_URL' | 'MOBILITY_URL' | 'UPSTREAM_TIMEOUT_MS'> &
    Partial<Pick<GatewayConfig, 'CERTIFICATE_OPENAPI_FILE' | 'MOBILITY_OPENAPI_FILE'>>;
  logger: Logger;
}

/** The gateway: routes by path to an upstream; no body parser runs, so bodies stream through byte for byte. */
export function createApp({ config, logger }: GatewayDeps): Express {
  const app = express();
  const metrics = createMetrics('gateway');
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext());
  // Read once at start-up: a broken description stops the gateway here rather than on the first /docs request.
  const description = loadGatewayDescription({
    certificate: config.CERTIFICATE_OPENAPI_FILE ?? DEFAULT_OPENAPI_FILES.certificate,
    mobility: config.MOBILITY_OPENAPI_FILE ?? DEFAULT_OPENAPI_FILES.mobility,
  });

  const upstreamUrls: Record<Upstream, string> = { certificate: config.CERTIFICATE_URL, mobility: config.MOBILITY_URL };
  const proxies = {
    certificate: createUpstreamProxy('certificate', config.CERTIFICATE_URL, config.UPSTREAM_TIMEOUT_MS, logger),
    mobility: createUpstreamProxy('mobility', config.MOBILITY_URL, config.UPSTREAM_TIMEOUT_MS, logger),
  };

  app.use((req, res, next) => {
    const upstream = upstreamFor(pathOf(req.url));
    if (!upstream) return next();
    return proxies[upstream](req, res, next);
  });

  // The services set their own security headers; helmet here covers only the gateway's own answers, off the proxy's hot path.
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks = Object.fromEntries(
      Object.entries(upstreamUrls).map(([name, url]) => [name, () => upstreamReady(url)]),
    );
    const results = await runChecks(checks, 2000);
    const down = Object.entries(results).filter(([, state]) => state !== 'up').map(([name]) => name);
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

async function upstreamReady(baseUrl: string): Promise<void> {
  const response = await fetch(new URL('/readyz', baseUrl), { signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`readyz answered ${response.status}`);
}
