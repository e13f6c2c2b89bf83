import type { AccountsDeps, AccountsSettings } from './accounts.types';
import { accountOrganizations } from './account-organizations';
import { createInvitationsService } from './invitations.service';
import { createPasswordResetService } from './password-reset.service';
import { sessionGrants } from './session-grants';
import { createSessionsService } from './sessions.service';
import { createSignUpService } from './sign-up.service';

export { ACCESS_TOKEN_TTL_S } from './session-grants';
export type { AccountsDeps, AccountsSettings, EnsureOrganization, MailSent, Session, SessionGrant, SignIn, SignUpInput } from './accounts.types';

/**
 * The accounts of the dashboard, one job per module: sign-up and email verification (sign-up.service.ts), sign-ins and
 * their sessions (sessions.service.ts), joining an organization by invitation or by creating one
 * (invitations.service.ts), and password reset (password-reset.service.ts). They share how a session is granted
 * (session-grants.ts) and how an account comes to belong to an organization (account-organizations.ts).
 */
export function createAccountsService(deps: AccountsDeps, settings: AccountsSettings) {
  const grants = sessionGrants(deps.repo, settings);
  const organizations = accountOrganizations(deps.repo, deps.ensureOrganization, settings);
  return {
    ...createSignUpService(deps, settings, grants, organizations),
    ...createSessionsService(deps, grants),
    ...createInvitationsService(deps, grants, organizations),
    ...createPasswordResetService(deps, settings, grants),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
