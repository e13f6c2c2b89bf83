import type { Express } from 'express';
import { createJsonApp, createMetrics, errorHandler, healthRoutes, jsonBodies, notFoundHandler, type Knex, type Logger } from '@platform/service-kit';
import type { CertificateConfig } from './config';

export interface CertificateDeps {
  db: Knex;
  config: CertificateConfig;
  logger: Logger;
}

/** The certificate service's HTTP app, without listening; tests build it on their own database. */
export function createApp({ db, logger }: CertificateDeps): Express {
  const metrics = createMetrics('certificate');
  const app = createJsonApp({ metrics });
  app.use(healthRoutes({ postgres: () => db.raw('select 1') }));
  app.get('/metrics', metrics.handler());
  app.use(jsonBodies());
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
