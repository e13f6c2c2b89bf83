import { Router } from 'express';
import { requireAdmin, type AdminClaims, type AdminTokenSettings, adminOf } from '@platform/service-kit';
import { memberAdminRoutes } from '../accounts';
import { apiKeyAdminRoutes } from '../api-keys';
import { summaryAdminRoutes } from '../summary';

/** What the admin API mounts: each feature's service as its routes take it (the composition root passes its own). */
export type AdminServices = {
  organizations: { ensureWithUser(claims: AdminClaims): Promise<unknown> };
  apiKeys: Parameters<typeof apiKeyAdminRoutes>[0];
  summary: Parameters<typeof summaryAdminRoutes>[0];
  members: Parameters<typeof memberAdminRoutes>[0];
};

/** `/admin/v1`: the dashboard's back end, authenticated by its JWT; organizations and users appear on first sight. */
export function adminRoutes(services: AdminServices, adminTokens: AdminTokenSettings): Router {
  const router = Router();
  router.use(requireAdmin(adminTokens), async (req, _res, next) => {
    await services.organizations.ensureWithUser(adminOf(req));
    next();
  });
  router.use('/api-keys', apiKeyAdminRoutes(services.apiKeys));
  router.use('/summary', summaryAdminRoutes(services.summary));
  router.use(memberAdminRoutes(services.members));
  return router;
}
