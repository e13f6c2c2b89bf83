import type { Express } from 'express';
import { createJsonApp, createMetrics, errorHandler, healthRoutes, jsonBodies, notFoundHandler, openApiRoute, type Knex, type Logger, type Redis } from '@platform/service-kit';
import type { MobilityConfig } from './config';
import { mobilityOpenApi } from './openapi';

export interface MobilityDeps {
  db: Knex;
  redis: Redis;
  config: MobilityConfig;
  logger: Logger;
}

/** The mobility service's HTTP app, without listening; tests build it on their own database and Redis prefix. */
export function createApp({ db, redis, logger }: MobilityDeps): Express {
  const metrics = createMetrics('mobility');
  const app = createJsonApp({ metrics });
  app.use(healthRoutes({ postgres: () => db.raw('select 1'), redis: () => redis.ping() }));
  app.get('/metrics', metrics.handler());
  app.get('/openapi.json', openApiRoute(mobilityOpenApi()));
  app.use(jsonBodies());
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
