import { Router } from 'express';
import { requireAdmin, type Knex } from '@platform/service-kit';
import { apiKeyAdminRoutes } from './api-keys/api-keys.routes';
import { apiKeysRepository } from './api-keys/api-keys.repository';
import { certificateAdminRoutes } from './certificates/certificates.routes';
import { ensureOrganizationAndUser } from './organizations/organizations.repository';
import { subscriptionAdminRoutes } from './payments/payments.routes';

/** `/admin/v1`: the dashboard's back end, authenticated by its JWT; organizations and users appear on first sight. */
export function adminRoutes(db: Knex, jwtSecret: string): Router {
  const router = Router();
  router.use(requireAdmin(jwtSecret), async (req, _res, next) => {
    await ensureOrganizationAndUser(db, req.admin!);
    next();
  });
  router.use('/api-keys', apiKeyAdminRoutes(apiKeysRepository(db)));
  router.use('/certificates', certificateAdminRoutes(db));
  router.use(subscriptionAdminRoutes(db));
  return router;
}
