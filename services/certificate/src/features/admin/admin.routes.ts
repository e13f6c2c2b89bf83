import { Router } from 'express';
import { requireAdmin, type AdminTokenSettings, adminOf } from '@platform/service-kit';
import type { CertificateServices } from '../../services';
import { memberAdminRoutes } from '../accounts';
import { apiKeyAdminRoutes } from '../api-keys';
import { creditAdminRoutes } from '../credits';
import { certificateAdminRoutes } from '../certificates';
import { documentAdminRoutes } from '../documents';
import { subscriptionAdminRoutes } from '../payments';
import { summaryAdminRoutes } from '../summary';
import { templateAdminRoutes } from '../templates';

/** `/admin/v1`: the dashboard's back end, authenticated by its JWT; organizations and users appear on first sight. */
export function adminRoutes(services: CertificateServices, adminTokens: AdminTokenSettings): Router {
  const router = Router();
  router.use(requireAdmin(adminTokens), async (req, _res, next) => {
    await services.organizations.ensureWithUser(adminOf(req));
    next();
  });
  router.use('/api-keys', apiKeyAdminRoutes(services.apiKeys));
  router.use('/templates', templateAdminRoutes(services.templates, (draft, issuerName) => services.documents.preview(draft, issuerName)));
  router.use('/certificates', documentAdminRoutes(services.documents));
  router.use('/certificates', certificateAdminRoutes(services.certificates));
  router.use('/credits', creditAdminRoutes(services.credits));
  router.use('/summary', summaryAdminRoutes(services.summary));
  router.use(subscriptionAdminRoutes({ ...services, dashboardUrl: `${services.publicBaseUrl.replace(/\/$/, '')}/dashboard`, dashboardOrigins: services.dashboardOrigins }));
  router.use(memberAdminRoutes(services.members));
  return router;
}
