import { Router } from 'express';
import { ApiError, UnauthorizedError } from '@platform/service-kit/errors';
import { requireAdmin, type AdminTokenSettings, adminOf } from '@platform/service-kit/admin-auth';
import type { AccountsService } from './accounts.service';

/**
 * `GET /internal/v1/dashboard-sessions/check` with a dashboard access token: 204 while its sign-in is live and its
 * membership unchanged, 401 `session_ended` otherwise. Only the gateway calls it (no public route leads here), before
 * it proxies a dashboard admin request whose token names a sign-in (`sid`).
 */
export function dashboardSessionCheckRoutes(service: AccountsService, adminTokens: AdminTokenSettings): Router {
  const router = Router();
  router.get('/check', requireAdmin(adminTokens), async (req, res) => {
    const { sub, org, role, sid } = adminOf(req);
    if (sid === undefined) throw new ApiError(400, 'no_session', 'The token names no sign-in (sid)');
    const live = await service.sessionIsLive({ sub, org, role, sid });
    if (!live) throw new UnauthorizedError('This sign-in has ended (signed out, removed from the organization, or past its lifetime)', 'session_ended');
    res.setHeader('Cache-Control', 'no-store');
    res.status(204).end();
  });
  return router;
}
