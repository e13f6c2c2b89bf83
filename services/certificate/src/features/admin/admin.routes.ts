import { Router } from 'express';
import { requireAdmin, type AdminClaims, type AdminTokenSettings, adminOf } from '@platform/service-kit';
import { certificateAdminRoutes } from '../certificates';
import { documentAdminRoutes } from '../documents';
import { subscriptionAdminRoutes } from '../payments';
import { templateAdminRoutes } from '../templates';

type SubscriptionDeps = Parameters<typeof subscriptionAdminRoutes>[0];

/** What the admin API mounts: each feature's service as its routes take it (the composition root passes its own). */
export type AdminServices = Omit<SubscriptionDeps, 'dashboardUrl'> & {
  organizations: { ensureWithUser(claims: AdminClaims): Promise<unknown> };
  templates: Parameters<typeof templateAdminRoutes>[0];
  documents: Parameters<typeof documentAdminRoutes>[0] & { preview: Parameters<typeof templateAdminRoutes>[1] };
  certificates: Parameters<typeof certificateAdminRoutes>[0];
  publicBaseUrl: string;
};

/** `/admin/v1`: the dashboard's back end, authenticated by its JWT; organizations and users appear on first sight. */
export function adminRoutes(services: AdminServices, adminTokens: AdminTokenSettings): Router {
  const router = Router();
  router.use(requireAdmin(adminTokens), async (req, _res, next) => {
    await services.organizations.ensureWithUser(adminOf(req));
    next();
  });
  router.use('/templates', templateAdminRoutes(services.templates, services.documents.preview));
  router.use('/certificates', documentAdminRoutes(services.documents));
  router.use('/certificates', certificateAdminRoutes(services.certificates));
  router.use(subscriptionAdminRoutes({ ...services, dashboardUrl: `${services.publicBaseUrl.replace(/\/$/, '')}/dashboard`, dashboardOrigins: services.dashboardOrigins }));
  return router;
}
