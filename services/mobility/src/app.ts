import type { Express } from 'express';
import {
  createJsonApp,
  createMetrics,
  errorHandler,
  healthRoutes,
  jsonBodies,
  notFoundHandler,
  requireAdmin,
  type Knex,
  type Logger,
  type Redis,
} from '@platform/service-kit';
import type { MobilityConfig } from './config';
import { apiKeyAdminRoutes } from './features/api-keys/api-keys.routes';
import { ensurePartnerFromClaims } from './features/partners/partners.middleware';
import { buildServices } from './services';

export interface MobilityDeps {
  db: Knex;
  redis: Redis;
  config: MobilityConfig;
  logger: Logger;
}

/** The mobility service's HTTP app, without listening; tests build it on their own database and Redis prefix. */
export function createApp(deps: MobilityDeps): Express {
  const { db, redis, config, logger } = deps;
  const services = buildServices(deps);
  const metrics = createMetrics('mobility');
  const app = createJsonApp({ metrics });
  app.use(healthRoutes({ postgres: () => db.raw('select 1'), redis: () => redis.ping() }));
  app.get('/metrics', metrics.handler());
  app.use(jsonBodies());

  app.use('/admin/v1', requireAdmin(config.JWT_SECRET), ensurePartnerFromClaims(db));
  app.use('/admin/v1/api-keys', apiKeyAdminRoutes(services.apiKeys));

  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
