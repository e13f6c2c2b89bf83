import { Router, type Request, type Response } from 'express';
import { ApiError, clientAddress, isIdOf, NotFoundError, parseOrThrow, requireAdmin, requireRole, type AdminClaims, type AdminTokenSettings, adminOf } from '@platform/service-kit';
import { verifyEmailSchema, newInvitationSchema, memberPatchSchema, newOrganizationSchema, passwordResetConfirmSchema, passwordResetSchema, refreshSchema, signInSchema, signUpSchema } from './accounts.schema';
import type { AccountsService, SessionGrant } from './accounts.service';
import type { MembersService } from './members.service';
import { clearRefreshCookie, refreshTokenOf, setRefreshCookie } from './session-cookie';

export interface AccountRouteSettings {
  adminTokens: AdminTokenSettings;
  refreshTtlDays: number;
  trustProxyHops: number;
}

/** `/accounts/v1` (the gateway's `/dashboard/api/auth`): sign-up, sign-in, refresh, sign-out, organizations, invitations. */
export function accountRoutes(service: AccountsService, settings: AccountRouteSettings): Router {
  const router = Router();
  const answer = (res: Response, status: number, grant: SessionGrant) => {
    if (grant.refreshToken) setRefreshCookie(res, grant.refreshToken, settings.refreshTtlDays * 86400);
    res.setHeader('Cache-Control', 'no-store');
    res.status(status).json(grant.session);
  };
  /** The account acting: its Bearer access token when sent (a bad one is a 401), else its refresh cookie. */
  /** The sign-in a request acts in: its access token's (which must name a live one), or else its live refresh cookie's. */
  const actingSignIn = async (req: Request, res: Response) => {
    let claims: AdminClaims | undefined;
    if (req.headers.authorization !== undefined) {
      claims = await new Promise<AdminClaims>((resolve, reject) => requireAdmin(settings.adminTokens)(req, res, (error?: unknown) => (error ? reject(error) : resolve(adminOf(req)))));
    }
    return service.signInFor(claims, refreshTokenOf(req));
  };

  const addressOf = (req: Request) => clientAddress(req, settings.trustProxyHops).slice(0, 100);
  const mailSent = (res: Response, body: object) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(202).json(body);
  };

  router.post('/signup', async (req, res) => {
    mailSent(res, await service.signUp(parseOrThrow(signUpSchema, req.body ?? {}), addressOf(req)));
  });
  router.post('/verify-email', async (req, res) => {
    const input = parseOrThrow(verifyEmailSchema, req.body ?? {});
    answer(res, 201, await service.verifyEmail(input.token, input.password, addressOf(req)));
  });
  router.post('/password-reset', async (req, res) => {
    mailSent(res, await service.requestPasswordReset(parseOrThrow(passwordResetSchema, req.body ?? {}).email, addressOf(req)));
  });
  router.post('/password-reset/confirm', async (req, res) => {
    const input = parseOrThrow(passwordResetConfirmSchema, req.body ?? {});
    answer(res, 200, await service.confirmPasswordReset(input.token, input.password));
  });
  router.post('/sessions', async (req, res) => {
    const input = parseOrThrow(signInSchema, req.body ?? {});
    answer(res, 200, await service.signIn(input, addressOf(req)));
  });
  router.post('/sessions/refresh', async (req, res) => {
    const input = parseOrThrow(refreshSchema, req.body ?? {});
    try {
      answer(res, 200, await service.refresh(refreshTokenOf(req), input.organization_id));
    } catch (error) {
      // A refresh token that will never work again is removed from the browser.
      if (error instanceof ApiError && error.status === 401) clearRefreshCookie(res);
      throw error;
    }
  });
  router.delete('/sessions/current', async (req, res) => {
    await service.signOut(refreshTokenOf(req));
    clearRefreshCookie(res);
    res.status(204).end();
  });
  router.post('/organizations', async (req, res) => {
    const signIn = await actingSignIn(req, res);
    const input = parseOrThrow(newOrganizationSchema, req.body ?? {});
    answer(res, 201, { session: await service.createOrganization(signIn, input.name, refreshTokenOf(req)) });
  });
  router.get('/invitations/:token', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await service.describeInvitation(invitationToken(req.params.token)));
  });
  router.post('/invitations/:token/accept', async (req, res) => {
    const signIn = await actingSignIn(req, res);
    answer(res, 200, { session: await service.acceptInvitation(signIn, invitationToken(req.params.token), refreshTokenOf(req)) });
  });
  return router;
}

function invitationToken(value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]{20,200}$/.test(value)) throw new ApiError(404, 'invitation_not_found', 'Invitation not found, expired or already used');
  return value;
}

/** `/admin/v1/members` and `/admin/v1/invitations`: anyone in the organization reads, owners change (members may leave). */
export function memberAdminRoutes(service: MembersService): Router {
  const router = Router();
  router.get('/members', async (req, res) => {
    res.json(await service.list(adminOf(req).org));
  });
  router.patch('/members/:accountId', requireRole('owner'), async (req, res) => {
    const accountId = memberId(req.params.accountId);
    res.json(await service.changeRole(adminOf(req).org, accountId, parseOrThrow(memberPatchSchema, req.body ?? {}).role));
  });
  router.delete('/members/:accountId', async (req, res) => {
    await service.remove(adminOf(req), memberId(req.params.accountId));
    res.status(204).end();
  });
  router.post('/invitations', requireRole('owner'), async (req, res) => {
    const admin = adminOf(req);
    res.status(201).json(await service.invite(admin.org, admin.sub, parseOrThrow(newInvitationSchema, req.body ?? {})));
  });
  router.get('/invitations', async (req, res) => {
    res.json(await service.pendingInvitations(adminOf(req).org));
  });
  router.delete('/invitations/:id', requireRole('owner'), async (req, res) => {
    const id = req.params.id;
    if (typeof id !== 'string' || !isIdOf('inv', id)) throw new NotFoundError('Invitation not found');
    await service.deleteInvitation(adminOf(req).org, id);
    res.status(204).end();
  });
  return router;
}

function memberId(value: unknown): string {
  if (typeof value !== 'string' || !isIdOf('acc', value)) throw new NotFoundError('Member not found');
  return value;
}
