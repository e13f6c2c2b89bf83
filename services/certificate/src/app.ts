import type { Express } from 'express';
import { adminTokenSettings, requireAdmin } from '@platform/service-kit/admin-auth';
import { createJsonApp, jsonBodies } from '@platform/service-kit/json-app';
import { createMetrics } from '@platform/service-kit/metrics';
import { errorHandler, notFoundHandler } from '@platform/service-kit/error-handler';
import { knownRoutesOf, methodNotAllowedHandler } from '@platform/service-kit/method-not-allowed';
import { mountOperations } from '@platform/service-kit/operations';
import { responseValidator, validateResponsesEnabled } from '@platform/service-kit/route-table';
import { requireDashboardOrigin } from './features/accounts/origin-check';
import { dashboardSessionCheckRoutes } from './features/accounts/session-check.routes';
import { unknownDocumentFormat } from './features/credentials/credentials.handlers';
import { certificateGuards } from './operation-guards';
import { certificateHandlers } from './operation-handlers';
import { certificateOpenApi } from './openapi';
import { certificateRouteTable } from './route-table';
import { buildServices, type CertificateDeps, type CertificateServices } from './services';

export type { CertificateDeps } from './services';

/**
 * The certificate service's HTTP app, without listening; tests build it on their own database. Every operation is
 * mounted, guarded, parsed, limited and audited from its route table entry (`route-table.ts`); the features give only
 * their handlers (`operation-handlers.ts`).
 */
export function createApp(deps: CertificateDeps, services: CertificateServices = buildServices(deps)): Express {
  const { config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics('certificate');
  const app = createJsonApp({ metrics, logger });
  if (validateResponsesEnabled()) app.use(responseValidator(certificateRouteTable, logger)); // development: log answers that drift from the table
  app.use('/accounts/v1', requireDashboardOrigin(config.DASHBOARD_ORIGINS)); // refuse cross-site writes before reading a body
  mountOperations(app, certificateRouteTable, certificateHandlers({ ...deps, metrics }, services), certificateGuards(deps, services));
  app.get('/credentials/:code/document.:format', unknownDocumentFormat); // .pdf and .png are operations; any other is an unknown certificate's 404
  // Authentication comes first on the admin API: a request no operation takes is 401 there without a valid token, and
  // only then 405 or 404 (an operation the table mounts has already checked its own).
  app.use('/admin/v1', requireAdmin(adminTokenSettings(config)));
  // The gateway's session check: internal (no public route leads here), so not in the published table.
  app.use('/internal/v1/dashboard-sessions', jsonBodies(), dashboardSessionCheckRoutes(services.accounts, adminTokenSettings(config)));
  app.use(methodNotAllowedHandler(knownRoutesOf(certificateOpenApi().paths)));
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return app;
}
