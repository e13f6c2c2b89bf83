import { responseValidator, validateResponsesEnabled } from '@platform/service-kit/route-table';
import { mountOperations } from '@platform/service-kit/operations';
import { mobilityGuards } from './operation-guards';
import { mobilityHandlers } from './operation-handlers';
import type { Express } from 'express';
import {
  createJsonApp,
  createMetrics,
  errorHandler,
  jsonBodies,
  knownRoutesOf,
  methodNotAllowedHandler,
  notFoundHandler,
  adminTokenSettings,
  requireAdmin,
  requireRole,
} from '@platform/service-kit';
import { brandingAdminRoutes } from './features/branding';
import { accountOf, apiKeyAdminRoutes, requireApiKey, requireLiveKey, requireScope } from './features/api-keys';
import { courierDeliveryRoutes, deliveryAdminRoutes, deliveryRoutes, deliveryStreams } from './features/deliveries';
import { currentDriver, requireDriver } from './features/driver-app';
import { estimateRoutes } from './features/estimates';
import { eventPassProgramRoutes, eventPassRoutes } from './features/event-passes';
import { auditLogRoutes, mobilityAuditTrail } from './features/audit';
import { adminAccountOf, adminPartnerIdOf, ensurePartnerFromClaims } from './features/partners';
import { rideAdminRoutes, rideRoutes, rideStreams } from './features/rides';
import { partnerJobStreamRoutes } from './features/telemetry';
import { trackingRoutes } from './features/tracking';
import { sandboxRoutes } from './features/sandbox';
import { createMobilitySummaryReader, mobilitySummaryRoutes } from './features/summary';
import { mobilityOpenApi } from './openapi';
import { mobilityRouteTable } from './route-table';
import { registerOperationalMetrics } from './platform/operational-metrics';
import { buildServices, type MobilityDeps, type MobilityServices } from './services';
import { eventRoutes } from './features/outbox';
import { webhookEndpointRoutes } from './features/webhook-endpoints';

/** The mobility service's HTTP app, without listening; tests build it on their own database and Redis prefix. */
export function createApp(deps: MobilityDeps, services: MobilityServices = buildServices(deps)): Express {
  const { db, config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics('mobility');
  const app = createJsonApp({ metrics, logger });
  if (validateResponsesEnabled()) app.use(responseValidator(mobilityRouteTable, logger)); // development: log answers that drift from the table
  // Every operation a feature hands over is mounted, guarded, parsed and audited from its route table entry.
  mountOperations(app, mobilityRouteTable, mobilityHandlers({ ...deps, metrics }, services), mobilityGuards(deps, services), { partial: true });
  app.use(trackingRoutes(services.tracking)); // public: no key, no body
  app.use(jsonBodies());

  registerOperationalMetrics(metrics.registry, db, [services.webhookQueue, services.timers.queue]);
  const { webhooks, events } = services;

  app.use('/admin/v1', requireAdmin(adminTokenSettings(config)), ensurePartnerFromClaims(services.partners));
  // The audit trail wraps every admin change below it; owners read it at /admin/v1/audit-log. Behind the gateway the
  // caller's address is the last X-Forwarded-For hop, as for driver sign-in.
  app.use('/admin/v1', mobilityAuditTrail(db, config.DRIVER_SIGNIN_TRUST_PROXY_HOPS, logger), auditLogRoutes(db));
  app.use('/admin/v1/api-keys', apiKeyAdminRoutes(services.apiKeys));
  // The partner API's reads and webhook management for the dashboard, as the token's organization (live data unless
  // `?livemode=false` / `?mode=test`); any role reads, owners and operators change.
  const adminChange = requireRole('owner', 'operator');
  app.use('/admin/v1/rides', rideAdminRoutes(services.rides, adminAccountOf));
  app.use('/admin/v1/deliveries', deliveryAdminRoutes(services.deliveries, adminAccountOf));
  app.use('/admin/v1/events', eventRoutes(events, adminAccountOf));
  app.use('/admin/v1/webhooks', webhookEndpointRoutes({ service: webhooks, accountOf: adminAccountOf, requireChange: adminChange }));
  app.use('/admin/v1/partner/branding', brandingAdminRoutes(services.branding, adminChange));
  app.use('/admin/v1/summary', mobilitySummaryRoutes(createMobilitySummaryReader(db)));
  app.use('/admin/v1/event-pass-programs', eventPassProgramRoutes(services.eventPasses, { read: (_req, _res, next) => next(), write: adminChange, partnerIdOf: adminPartnerIdOf }));

  const partnerKey = requireApiKey(services.apiKeys);
  app.use('/api/v1/estimates', partnerKey, estimateRoutes(services.estimates));
  app.use('/api/v1/rides', partnerKey, rideRoutes(services.rides));
  app.use('/api/v1/rides', partnerKey, partnerJobStreamRoutes(rideStreams(services.rides), services.telemetry));
  app.use('/api/v1/deliveries', partnerKey, deliveryRoutes(services.deliveries, services.deliveryQuotes));
  app.use('/api/v1/deliveries', partnerKey, partnerJobStreamRoutes(deliveryStreams(services.deliveries), services.telemetry));
  app.use('/api/v1/sandbox', partnerKey, sandboxRoutes(services.sandbox));
  // Event passes are live only: a test key gets 403 test_mode_not_supported (and a test ride cannot take a pass).
  const liveOnly = requireLiveKey('Event passes');
  app.use('/api/v1/event-pass-programs', partnerKey, liveOnly, eventPassProgramRoutes(services.eventPasses));
  app.use('/api/v1/event-passes', partnerKey, liveOnly, eventPassRoutes(services.eventPasses));

  const driverAuth = requireDriver(services.fleet, { secret: config.JWT_SECRET, issuer: config.JWT_ISSUER }, services.driverSessions);
  app.use('/driver/v1/deliveries', driverAuth, courierDeliveryRoutes(services.deliveries, currentDriver));

  app.use('/api/v1/webhooks', partnerKey, requireScope('webhooks:manage'), webhookEndpointRoutes({ service: webhooks, accountOf }));
  app.use('/api/v1/events', partnerKey, requireScope('webhooks:manage'), eventRoutes(events, accountOf));

  app.use(methodNotAllowedHandler(knownRoutesOf(mobilityOpenApi().paths)));
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
