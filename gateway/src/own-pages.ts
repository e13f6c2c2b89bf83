import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { errorHandler, notFoundHandler } from '@platform/service-kit/error-handler';
import { knownRoutesOf, methodNotAllowedHandler } from '@platform/service-kit/method-not-allowed';
import { requestContext } from '@platform/service-kit/request-context';
import { requestLogger } from '@platform/service-kit/request-log';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import type { GatewayConfig } from './config';
import { docsRoutes, RENDERER_PATH } from './docs';
import { gatewayDescriptionSource } from './openapi';

export const HSTS = 'max-age=31536000; includeSubDomains';

/** The gateway's own public pages and the methods they answer (another method: 405 with `Allow`). */
const OWN_PAGES = { '/healthz': { get: {} }, '/openapi.json': { get: {} }, '/docs': { get: {} }, [RENDERER_PATH]: { get: {} } };

/** The gateway's own public pages on Express: `/healthz`, the API description and reference, and JSON 404s. */
export function ownPagesApp(config: Pick<GatewayConfig, 'CERTIFICATE_OPENAPI_FILE' | 'MOBILITY_OPENAPI_FILE'>, logger: Logger, metrics: Metrics, hsts: boolean): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // No AsyncLocalStorage in the gateway: one `run` would make every proxied request pay Node 20's propagation hook on
  // each promise and socket (bench:gateway); these pages' log lines take their ids from the request instead.
  app.use(requestContext({ asyncStore: false }));
  // Read at start-up: a broken description stops the gateway here rather than on the first /docs request; a missing one is a 503 until built.
  const description = gatewayDescriptionSource({ certificate: config.CERTIFICATE_OPENAPI_FILE, mobility: config.MOBILITY_OPENAPI_FILE });
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

function strictTransportSecurity(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Strict-Transport-Security', HSTS);
    next();
  };
}
