import { responseValidator, validateResponsesEnabled } from '@platform/service-kit/route-table';
import { mountOperations } from '@platform/service-kit/operations';
import { mobilityGuards } from './operation-guards';
import { mobilityHandlers } from './operation-handlers';
import type { Express } from 'express';
import {
  createJsonApp,
  createMetrics,
  errorHandler,
  healthRoutes,
  jsonBodies,
  knownRoutesOf,
  methodNotAllowedHandler,
  notFoundHandler,
  adminTokenSettings,
  requireAdmin,
  openApiRoute,
} from '@platform/service-kit';
import { driverAppRoutes, requireDriver } from './features/driver-app';
import { activationCodeAdminRoutes, driverSessionRoutes } from './features/driver-sessions';
import { fleetAdminRoutes } from './features/fleet';
import { mobilityAuditTrail } from './features/audit';
import { ensurePartnerFromClaims } from './features/partners';
import { mobilityOpenApi } from './openapi';
import { mobilityRouteTable } from './route-table';
import { registerOperationalMetrics } from './platform/operational-metrics';
import { buildServices, type MobilityDeps, type MobilityServices } from './services';

/** The mobility service's HTTP app, without listening; tests build it on their own database and Redis prefix. */
export function createApp(deps: MobilityDeps, services: MobilityServices = buildServices(deps)): Express {
  const { db, redis, config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics('mobility');
  const app = createJsonApp({ metrics, logger });
  if (validateResponsesEnabled()) app.use(responseValidator(mobilityRouteTable, logger)); // development: log answers that drift from the table
  app.use(healthRoutes({ postgres: () => db.raw('select 1'), redis: () => redis.ping() }));
  app.get('/metrics', metrics.handler());
  app.get('/openapi.json', openApiRoute(mobilityOpenApi()));
  // Every operation a feature hands over is mounted, guarded, parsed and audited from its route table entry.
  mountOperations(app, mobilityRouteTable, mobilityHandlers(deps, services), mobilityGuards(deps, services), { partial: true });
  app.use(jsonBodies());

  registerOperationalMetrics(metrics.registry, db, [services.webhookQueue, services.timers.queue]);

  app.use('/admin/v1', requireAdmin(adminTokenSettings(config)), ensurePartnerFromClaims(services.partners));
  // The audit trail wraps every admin change below it; owners read it at /admin/v1/audit-log. Behind the gateway the
  // caller's address is the last X-Forwarded-For hop, as for driver sign-in.
  app.use('/admin/v1', mobilityAuditTrail(db, config.DRIVER_SIGNIN_TRUST_PROXY_HOPS, logger));
  app.use(
    '/admin/v1/drivers',
    // A registration answers the driver's first activation code, issued in the registering transaction.
    fleetAdminRoutes(services.fleet, (driverId) => services.dispatcher.declineOpenOffers(driverId), services.driverSessions.firstActivationCode),
  );
  app.use('/admin/v1/drivers', activationCodeAdminRoutes(services.driverSessions));

  const driverAuth = requireDriver(services.fleet, { secret: config.JWT_SECRET, issuer: config.JWT_ISSUER }, services.driverSessions);
  app.use('/driver/v1/sessions', driverSessionRoutes(services.driverSessions, services.signInThrottle, driverAuth));
  app.use('/driver/v1', driverAuth, driverAppRoutes(services.fleet, services.dispatcher, services.rides, services.telemetry));

  app.use(methodNotAllowedHandler(knownRoutesOf(mobilityOpenApi().paths)));
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
