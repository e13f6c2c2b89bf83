import { UnauthorizedError } from '@platform/service-kit/errors';
import type { AdminClaims } from '@platform/service-kit/admin-auth';
import type { AccountsDeps, SessionGrant, SignIn } from './accounts.types';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { tokenHash } from './secret-tokens';
import { pickOrganization, type SessionGrants } from './session-grants';

const invalidRefresh = () => new UnauthorizedError('The refresh token is missing, expired or revoked; sign in again', 'invalid_refresh_token');
const sessionTooOld = () => new UnauthorizedError('This sign-in reached its maximum lifetime; sign in again', 'session_expired');

/**
 * Dashboard sign-ins: signing in with a password, refreshing (the refresh token rotates, a spent one presented again ends
 * the sign-in), signing out, and whether a sign-in an access token names may still act.
 */
export function createSessionsService({ repo, throttle }: Pick<AccountsDeps, 'repo' | 'throttle'>, grants: SessionGrants) {
  const db = repo.db;
  const { maxLifetimeMs, endFamily } = grants;

  /**
   * Whether a dashboard access token may still act: its sign-in (`sid`) has a live session within its maximum
   * lifetime, and its account is still a member of its organization with the role it names. The gateway asks this
   * (through `/internal/v1/dashboard-sessions/check`) before it proxies an admin request, and caches the answer briefly.
   */
  async function sessionIsLive(claims: { sub: string; org: string; role: string; sid: string }): Promise<boolean> {
    const family = await repo.familyState(claims.sid);
    if (!family || !family.live || family.account_id !== claims.sub || family.started_at.getTime() + maxLifetimeMs <= Date.now()) return false;
    const membership = await repo.membership(claims.org, claims.sub);
    return membership?.role === claims.role;
  }

  return {
    sessionIsLive,

    async signIn(input: { email: string; password: string; organization_id?: string }, address: string): Promise<SessionGrant> {
      await throttle.check(input.email, address);
      const account = await repo.findAccountByEmail(input.email);
      if (!(await verifyPassword(input.password, account?.password_hash)) || !account) {
        await throttle.recordFailure(input.email, address);
        throw new UnauthorizedError('Wrong email or password', 'invalid_credentials');
      }
      await throttle.clearPair(input.email, address);
      if (needsRehash(account.password_hash)) await repo.setPasswordHash(db, account.id, await hashPassword(input.password));
      return grants.startSignIn(db, account, input.organization_id);
    },

    /** Rotates the refresh token: the presented one is spent; presenting a spent one again revokes its whole family. */
    async refresh(refreshToken: string | undefined, wanted: string | undefined): Promise<SessionGrant> {
      if (!refreshToken) throw invalidRefresh();
      const row = await repo.findRefreshSession(tokenHash(refreshToken));
      if (!row || row.revoked_at || row.expires_at.getTime() <= Date.now()) throw invalidRefresh();
      const family = await repo.familyState(row.family_id);
      if (!family || family.started_at.getTime() + maxLifetimeMs <= Date.now()) {
        await endFamily(row.family_id);
        throw sessionTooOld();
      }
      const reused = async () => {
        await endFamily(row.family_id);
        return new UnauthorizedError('This refresh token was already used; every session of this sign-in is now signed out', 'refresh_token_reused');
      };
      if (row.rotated_at) throw await reused();
      const outcome = await db.transaction(async (trx) => {
        if (!(await repo.claimForRotation(trx, row.id))) return undefined;
        const account = (await repo.findAccount(row.account_id, trx))!;
        const memberships = await repo.memberships(account.id, trx);
        const organization = pickOrganization(memberships, wanted, row.organization_id);
        const next = await grants.startRefreshSession(trx, account.id, organization?.organization_id ?? null, row.family_id, family.started_at);
        return { session: grants.sessionOf(account, memberships, organization, row.family_id), refreshToken: next };
      });
      if (!outcome) throw await reused();
      return outcome;
    },

    /** Ends the sign-in the cookie belongs to (its whole family); unknown tokens are ignored. */
    async signOut(refreshToken: string | undefined): Promise<void> {
      if (!refreshToken) return;
      const row = await repo.findRefreshSession(tokenHash(refreshToken));
      if (row) await endFamily(row.family_id);
    },

    /**
     * The sign-in a dashboard request acts in: its access token's, which must name one (`sid`) that is still live for
     * its account and membership, or else (no token) its live refresh cookie's.
     */
    async signInFor(claims: AdminClaims | undefined, refreshToken: string | undefined): Promise<SignIn> {
      if (claims !== undefined) {
        if (claims.sid === undefined) throw new UnauthorizedError('This token names no sign-in; sign in again', 'session_required');
        if (!(await sessionIsLive({ ...claims, sid: claims.sid }))) throw new UnauthorizedError('This sign-in has ended; sign in again', 'session_ended');
        return { accountId: claims.sub, familyId: claims.sid };
      }
      const live = await grants.liveSession(refreshToken);
      if (!live) throw new UnauthorizedError('Missing bearer token', 'missing_token');
      return { accountId: live.account_id, familyId: live.family_id };
    },
  };
}
