import type { Session, SignIn, AccountsDeps } from './accounts.types';
import type { AccountOrganizations } from './account-organizations';
import { notFoundInvitation, notVerified } from './account-refusals';
import { tokenHash } from './secret-tokens';
import type { SessionGrants } from './session-grants';

/**
 * A signed-in account joining an organization: by an invitation (described to whoever holds its link first), or by
 * creating one it owns. Either way the answer is a session in that organization, bound to the caller's sign-in.
 */
export function createInvitationsService({ repo }: Pick<AccountsDeps, 'repo'>, grants: SessionGrants, organizations: AccountOrganizations) {
  const db = repo.db;
  return {
    async createOrganization(signIn: SignIn, name: string, refreshToken: string | undefined): Promise<Session> {
      const account = (await repo.findAccount(signIn.accountId))!;
      if (!account.email_verified_at) throw notVerified();
      const organizationId = await db.transaction((trx) => organizations.createOwnedOrganization(trx, signIn.accountId, name));
      return grants.grantFor(signIn, organizationId, refreshToken);
    },

    async describeInvitation(token: string) {
      const invitation = await repo.findUsableInvitation(tokenHash(token));
      if (!invitation) notFoundInvitation();
      return {
        organization_name: invitation.organization_name,
        role: invitation.role,
        ...(invitation.email ? { email: invitation.email } : {}),
        expires_at: invitation.expires_at.toISOString(),
      };
    },

    async acceptInvitation(signIn: SignIn, token: string, refreshToken: string | undefined): Promise<Session> {
      const account = (await repo.findAccount(signIn.accountId))!;
      const organizationId = await db.transaction((trx) => organizations.joinByInvitation(trx, token, account));
      return grants.grantFor(signIn, organizationId, refreshToken);
    },
  };
}
