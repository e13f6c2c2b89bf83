import type { Express } from 'express';
import { createJsonApp, createMetrics, errorHandler, healthRoutes, jsonBodies, notFoundHandler, type Knex, type Logger, type Redis } from '@platform/service-kit';
import type { MobilityConfig } from './config';
import { partnerIdOf, webhooksAuthPlaceholder } from './features/webhooks/partner';
import { createWebhookQueue } from './features/webhooks/webhook-queue';
import { webhookRoutes } from './features/webhooks/webhooks.routes';
import { createWebhookService } from './features/webhooks/webhooks.service';

export interface MobilityDeps {
  db: Knex;
  redis: Redis;
  config: MobilityConfig;
  logger: Logger;
}

/** The mobility service's HTTP app, without listening; tests build it on their own database and Redis prefix. */
export function createApp({ db, redis, config, logger }: MobilityDeps): Express {
  const metrics = createMetrics('mobility');
  const app = createJsonApp({ metrics });
  app.use(healthRoutes({ postgres: () => db.raw('select 1'), redis: () => redis.ping() }));
  app.get('/metrics', metrics.handler());
  app.use(jsonBodies());

  const webhooks = createWebhookService({
    db,
    queue: createWebhookQueue(redis, config.REDIS_PREFIX),
    policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
  });
  // TODO(merge with mobility API keys): replace webhooksAuthPlaceholder() with the API-key middleware and the
  // `webhooks:manage` scope check, and point partnerIdOf at the key's organization.
  app.use('/api/v1/webhooks', webhooksAuthPlaceholder(), webhookRoutes({ service: webhooks, partnerIdOf }));

  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
