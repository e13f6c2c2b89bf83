import { ForbiddenError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import { signAdminToken } from '@platform/service-kit/admin-auth';
import type { Knex } from '@platform/service-kit/db';
import type { AccountRow, AccountsRepository, MembershipView } from './accounts.repository';
import type { AccountsSettings, Session, SessionGrant, SignIn } from './accounts.types';
import { newSecretToken, tokenHash } from './secret-tokens';
import { NO_SESSION_EVENTS } from './session-events';

/**
 * Access tokens (admin JWTs) live 15 minutes. They name their sign-in (`sid`, the refresh-session family): the gateway
 * checks on each dashboard request that it is still live and the membership still there (see `sessionIsLive`).
 */
export const ACCESS_TOKEN_TTL_S = 900;

/** The organization a session names: the one asked for (403 when not a member), else the session's, else the oldest membership. */
export function pickOrganization(memberships: MembershipView[], wanted: string | undefined, current: string | null): MembershipView | null {
  if (wanted !== undefined) {
    const found = memberships.find((m) => m.organization_id === wanted);
    if (!found) throw new ForbiddenError('You are not a member of that organization', 'not_a_member');
    return found;
  }
  return memberships.find((m) => m.organization_id === current) ?? memberships[0] ?? null;
}

/**
 * What every accounts job that signs someone in shares: the session answer with its access token, the refresh sessions
 * behind the cookie (one family per sign-in, within its maximum lifetime), and the end of a sign-in told to the gateways.
 */
export function sessionGrants(repo: AccountsRepository, settings: AccountsSettings) {
  const events = settings.sessionEvents ?? NO_SESSION_EVENTS;
  const maxLifetimeMs = settings.sessionMaxLifetimeSeconds * 1000;

  /** Every dashboard access token names its sign-in (`sid`): the gateway checks that it is live before proxying. */
  function accessToken(account: AccountRow, organization: MembershipView, sid: string): string {
    return signAdminToken(
      { sub: account.id, org: organization.organization_id, org_name: organization.organization_name, role: organization.role, sid },
      settings.jwtSecret,
      { issuer: settings.jwtIssuer, ttlSeconds: ACCESS_TOKEN_TTL_S },
    );
  }

  function sessionOf(account: AccountRow, memberships: MembershipView[], organization: MembershipView | null, sid: string): Session {
    return {
      access_token: organization ? accessToken(account, organization, sid) : null,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      account: { id: account.id, email: account.email, name: account.name },
      organization: organization ? { id: organization.organization_id, name: organization.organization_name, role: organization.role } : null,
      memberships,
    };
  }

  /**
   * A new refresh session (its own family unless `familyId` continues one begun at `startedAt`); returns the cookie's
   * token. It expires REFRESH_TOKEN_TTL_DAYS from now, but never past the sign-in's maximum lifetime.
   */
  async function startRefreshSession(trx: Knex, accountId: string, organizationId: string | null, familyId: string, startedAt = new Date()): Promise<string> {
    const token = newSecretToken();
    await repo.insertRefreshSession(trx, {
      id: newId('rs'),
      account_id: accountId,
      family_id: familyId,
      organization_id: organizationId,
      token_hash: tokenHash(token),
      expires_at: new Date(Math.min(Date.now() + settings.refreshTtlDays * 86400_000, startedAt.getTime() + maxLifetimeMs)),
    });
    return token;
  }

  /** A new sign-in of the account (a family of its own), in the organization asked for or its oldest membership. */
  async function startSignIn(trx: Knex, account: AccountRow, wanted: string | undefined): Promise<SessionGrant> {
    const memberships = await repo.memberships(account.id, trx);
    const organization = pickOrganization(memberships, wanted, null);
    const familyId = newId('rsf');
    const refreshToken = await startRefreshSession(trx, account.id, organization?.organization_id ?? null, familyId);
    return { session: sessionOf(account, memberships, organization, familyId), refreshToken };
  }

  /** The account a live (current, unexpired) refresh token belongs to, and its session. */
  async function liveSession(refreshToken: string | undefined) {
    if (!refreshToken) return undefined;
    const row = await repo.findRefreshSession(tokenHash(refreshToken));
    if (!row || row.revoked_at || row.rotated_at || row.expires_at.getTime() <= Date.now()) return undefined;
    return row;
  }

  /**
   * A session for the organization just joined or created, its access token bound to the caller's sign-in (never a
   * token without one: a stolen access token cannot be swapped for one that outlives its sign-in). The browser's
   * refresh session, when it is that sign-in's, follows the organization, so its next refresh stays there.
   */
  async function grantFor(signIn: SignIn, organizationId: string, refreshToken: string | undefined): Promise<Session> {
    const account = (await repo.findAccount(signIn.accountId))!;
    const memberships = await repo.memberships(signIn.accountId);
    const live = await liveSession(refreshToken);
    if (live && live.account_id === signIn.accountId && live.family_id === signIn.familyId) await repo.setSessionOrganization(live.id, organizationId);
    return sessionOf(account, memberships, pickOrganization(memberships, organizationId, null), signIn.familyId);
  }

  /** Ends a sign-in (every session of its family) and tells the gateways. */
  async function endFamily(familyId: string): Promise<void> {
    await repo.revokeFamily(familyId);
    await events.ended({ kind: 'session', sid: familyId });
  }

  return { events, maxLifetimeMs, sessionOf, startRefreshSession, startSignIn, liveSession, grantFor, endFamily };
}

export type SessionGrants = ReturnType<typeof sessionGrants>;
