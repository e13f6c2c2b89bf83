import type { Express } from 'express';
import { auditLogRoutes, certificateAuditTrail } from './features/audit/audit.routes';
import { responseValidator, validateResponsesEnabled } from '@platform/service-kit/route-table';
import { mountOperations } from '@platform/service-kit/operations';
import { certificateGuards } from './operation-guards';
import { certificateHandlers } from './operation-handlers';
import { createJsonApp, createMetrics, errorHandler, healthRoutes, jsonBodies, knownRoutesOf, methodNotAllowedHandler, notFoundHandler, openApiRoute, adminTokenSettings, requireAdmin } from '@platform/service-kit';
import { accountRoutes } from './features/accounts/accounts.routes';
import { requireDashboardOrigin } from './features/accounts/origin-check';
import { dashboardSessionCheckRoutes } from './features/accounts/session-check.routes';
import { adminRoutes } from './features/admin/admin.routes';
import { unknownDocumentFormat } from './features/credentials/credentials.handlers';
import { certificateOpenApi } from './openapi';
import { certificateRouteTable } from './route-table';
import { buildServices, type CertificateDeps, type CertificateServices } from './services';

export type { CertificateDeps } from './services';

/** The certificate service's HTTP app, without listening; tests build it on their own database. */
export function createApp(deps: CertificateDeps, services: CertificateServices = buildServices(deps)): Express {
  const { db, config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics('certificate');
  const app = createJsonApp({ metrics, logger });
  if (validateResponsesEnabled()) app.use(responseValidator(certificateRouteTable, logger)); // development: log answers that drift from the table
  app.use(healthRoutes({ postgres: () => db.raw('select 1') }));
  app.get('/metrics', metrics.handler());
  app.get('/openapi.json', openApiRoute(certificateOpenApi()));
  const adminTokens = adminTokenSettings(config);
  app.use('/accounts/v1', requireDashboardOrigin(config.DASHBOARD_ORIGINS)); // refuse cross-site writes before reading a body
  // Every operation a feature hands over is mounted, guarded, parsed and audited from its route table entry.
  mountOperations(app, certificateRouteTable, certificateHandlers(deps, services), certificateGuards(deps, services), { partial: true });
  app.get('/credentials/:code/document.:format', unknownDocumentFormat); // .pdf and .png are operations; any other is an unknown certificate's 404
  app.use('/admin/v1', requireAdmin(adminTokens)); // authenticate before any body parser reads up to 5 MB
  app.use(jsonBodies());
  app.use('/internal/v1/dashboard-sessions', dashboardSessionCheckRoutes(services.accounts, adminTokens)); // the gateway's session check
  app.use('/accounts/v1', accountRoutes(services.accounts, { adminTokens, refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS, trustProxyHops: config.TRUST_PROXY_HOPS }));
  // The audit trail wraps every admin change below it; owners read it at /admin/v1/audit-log.
  app.use('/admin/v1', certificateAuditTrail(db, config.TRUST_PROXY_HOPS, logger), auditLogRoutes(db));
  app.use('/admin/v1', adminRoutes(services, adminTokens));
  app.use(methodNotAllowedHandler(knownRoutesOf(certificateOpenApi().paths)));
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
