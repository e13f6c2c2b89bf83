import type { Request, Response } from 'express';
import { ApiError, NotFoundError } from '@platform/service-kit/errors';
import { clientAddress } from '@platform/service-kit/client-address';
import { isIdOf } from '@platform/service-kit/ids';
import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import type { accountsRouteTable } from './accounts.contract';
import type { AccountsService, Session, SessionGrant } from './accounts.service';
import type { MembersService } from './members.service';
import { clearRefreshCookie, refreshTokenOf, setRefreshCookie } from './session-cookie';

export interface AccountHandlerSettings {
  refreshTtlDays: number;
  trustProxyHops: number;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * `/accounts/v1` (the gateway's `/dashboard/api/auth`: sign-up, sign-in, refresh, sign-out, organizations, invitations)
 * and `/admin/v1/members`, `/admin/v1/invitations` (anyone in the organization reads; owners change, members may leave).
 */
export function accountsHandlers(service: AccountsService, members: MembersService, settings: AccountHandlerSettings): Handlers<typeof accountsRouteTable> {
  /** A session answer: its refresh cookie (when the grant made one) and never cached. */
  const session = <S extends number>(res: Response, status: S, grant: SessionGrant): { status: S; body: Session; headers: Record<string, string> } => {
    if (grant.refreshToken) setRefreshCookie(res, grant.refreshToken, settings.refreshTtlDays * 86400);
    return { status, body: grant.session, headers: NO_STORE };
  };
  /** The sign-in a request acts in: its access token's (checked by the guard when sent; it must name a live one), else its live refresh cookie's. */
  const actingSignIn = (req: Request) => service.signInFor(req.admin, refreshTokenOf(req));
  const addressOf = (req: Request) => clientAddress(req, settings.trustProxyHops).slice(0, 100);

  return {
    signUp: async ({ body, req, res }) => {
      const outcome = await service.signUp(body, addressOf(req));
      return 'session' in outcome ? session(res, 201, outcome) : { status: 202, body: outcome, headers: NO_STORE };
    },
    verifyEmail: async ({ body, req, res }) => session(res, 201, await service.verifyEmail(body.token, body.password, addressOf(req))),
    requestPasswordReset: async ({ body, req }) => ({ status: 202, body: await service.requestPasswordReset(body.email, addressOf(req)), headers: NO_STORE }),
    confirmPasswordReset: async ({ body, res }) => session(res, 200, await service.confirmPasswordReset(body.token, body.password)),
    signIn: async ({ body, req, res }) => session(res, 200, await service.signIn(body, addressOf(req))),
    refreshSession: async ({ body, req, res }) => {
      // The body may be left out (`bodyOptional`): then no organization is asked for.
      const wanted = (body as typeof body | undefined)?.organization_id;
      try {
        return session(res, 200, await service.refresh(refreshTokenOf(req), wanted));
      } catch (error) {
        // A refresh token that will never work again is removed from the browser.
        if (error instanceof ApiError && error.status === 401) clearRefreshCookie(res);
        throw error;
      }
    },
    signOut: async ({ req, res }) => {
      await service.signOut(refreshTokenOf(req));
      clearRefreshCookie(res);
      return { status: 204 };
    },
    createOrganization: async ({ body, req, res }) => {
      const signIn = await actingSignIn(req);
      return session(res, 201, { session: await service.createOrganization(signIn, body.name, refreshTokenOf(req)) });
    },
    describeInvitation: async ({ params }) => ({ status: 200, body: await service.describeInvitation(invitationToken(params.token)), headers: NO_STORE }),
    acceptInvitation: async ({ params, req, res }) => {
      const signIn = await actingSignIn(req);
      return session(res, 200, { session: await service.acceptInvitation(signIn, invitationToken(params.token), refreshTokenOf(req)) });
    },

    listMembers: async ({ req }) => ({ status: 200, body: await members.list(adminOf(req).org) }),
    changeMemberRole: async ({ params, body, req }) => ({ status: 200, body: await members.changeRole(adminOf(req).org, memberId(params.account_id), body.role) }),
    removeMember: async ({ params, req }) => {
      await members.remove(adminOf(req), memberId(params.account_id));
      return { status: 204 };
    },
    createInvitation: async ({ body, req }) => {
      const admin = adminOf(req);
      return { status: 201, body: await members.invite(admin.org, admin.sub, body) };
    },
    listInvitations: async ({ req }) => ({ status: 200, body: await members.pendingInvitations(adminOf(req).org) }),
    deleteInvitation: async ({ params, req }) => {
      if (!isIdOf('inv', params.id)) throw new NotFoundError('Invitation not found');
      await members.deleteInvitation(adminOf(req).org, params.id);
      return { status: 204 };
    },
  };
}

function invitationToken(value: string): string {
  if (!/^[A-Za-z0-9_-]{20,200}$/.test(value)) throw new ApiError(404, 'invitation_not_found', 'Invitation not found, expired or already used');
  return value;
}

/** An account id of the wrong shape is simply not found. */
function memberId(value: string): string {
  if (!isIdOf('acc', value)) throw new NotFoundError('Member not found');
  return value;
}
