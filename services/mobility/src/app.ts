import type { Express } from 'express';
import { createJsonApp } from '@platform/service-kit/json-app';
import { createMetrics } from '@platform/service-kit/metrics';
import { errorHandler, notFoundHandler } from '@platform/service-kit/error-handler';
import { knownRoutesOf, methodNotAllowedHandler } from '@platform/service-kit/method-not-allowed';
import { mountOperations } from '@platform/service-kit/operations';
import { responseValidator, validateResponsesEnabled } from '@platform/service-kit/route-table';
import { mobilityGuards } from './operation-guards';
import { mobilityHandlers } from './operation-handlers';
import { mobilityOpenApi } from './openapi';
import { mobilityRouteTable } from './route-table';
import { registerOperationalMetrics } from './platform/operational-metrics';
import { buildServices, type MobilityDeps, type MobilityServices } from './services';

/**
 * The mobility service's HTTP app, without listening; tests build it on their own database and Redis prefix. Every
 * operation is mounted, guarded, parsed, limited and audited from its route table entry (`route-table.ts`); the
 * features give only their handlers (`operation-handlers.ts`).
 */
export function createApp(deps: MobilityDeps, services: MobilityServices = buildServices(deps)): Express {
  const { db, logger } = deps;
  const metrics = deps.metrics ?? createMetrics('mobility');
  const app = createJsonApp({ metrics, logger });
  if (validateResponsesEnabled()) app.use(responseValidator(mobilityRouteTable, logger)); // development: log answers that drift from the table
  mountOperations(app, mobilityRouteTable, mobilityHandlers({ ...deps, metrics }, services), mobilityGuards(deps, services));
  registerOperationalMetrics(metrics.registry, db, [services.webhookQueue, services.timers.queue]);
  app.use(methodNotAllowedHandler(knownRoutesOf(mobilityOpenApi().paths)));
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
