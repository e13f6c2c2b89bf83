import { recordAuditEntry } from '@platform/service-kit/audit-trail';
import { ConflictError, ForbiddenError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import { grantCreditsOnce } from '../credits';
import { FREE_PLAN } from '../plans';
import type { AccountsRepository } from './accounts.repository';
import type { AccountsSettings, EnsureOrganization } from './accounts.types';
import { notFoundInvitation, notVerified } from './account-refusals';
import { tokenHash } from './secret-tokens';

/** An invitation naming an email is only for an account that proved it owns that email. */
export function checkInvitationEmail(invitation: { email: string | null }, account: { email: string; email_verified_at?: Date | null }): void {
  if (!invitation.email) return;
  if (invitation.email.toLowerCase() !== account.email.toLowerCase()) throw new ForbiddenError('This invitation is for another email address', 'invitation_email_mismatch');
  if (!account.email_verified_at) throw notVerified();
}

/** How an account comes to belong to an organization: it creates one (and owns it), or it uses an invitation. */
export function accountOrganizations(repo: AccountsRepository, ensureOrganization: EnsureOrganization, settings: Pick<AccountsSettings, 'maxOrganizationsPerAccount'>) {
  /** The account's one free-credit grant (verified accounts only) goes to this organization if not made yet. */
  async function grantFreeCredits(trx: Knex, accountId: string, organizationId: string): Promise<void> {
    if (await repo.claimFreeCredits(trx, accountId)) await grantCreditsOnce(trx as Knex.Transaction, organizationId, FREE_PLAN.credits, 'free_plan_grant', organizationId);
  }

  /** A new organization the account owns: at most `maxOrganizationsPerAccount` (409 `organization_limit_reached`). */
  async function createOwnedOrganization(trx: Knex, accountId: string, name: string): Promise<string> {
    if ((await repo.lockAndCountOwned(trx, accountId)) >= settings.maxOrganizationsPerAccount) {
      throw new ConflictError(`An account may own at most ${settings.maxOrganizationsPerAccount} organizations`, 'organization_limit_reached');
    }
    const organizationId = newId('org');
    await ensureOrganization({ org: organizationId, org_name: name, sub: accountId }, trx);
    await repo.addMembership(trx, organizationId, accountId, 'owner');
    await grantFreeCredits(trx, accountId, organizationId);
    return organizationId;
  }

  /** Uses the invitation (once) and makes the account a member with the invitation's role; the organization's id. */
  async function joinByInvitation(trx: Knex, token: string, account: { id: string; email: string; email_verified_at?: Date | null }): Promise<string> {
    const invitation = await repo.findUsableInvitation(tokenHash(token), trx);
    if (!invitation) notFoundInvitation();
    checkInvitationEmail(invitation, account);
    if (!(await repo.useInvitation(trx, invitation.id, account.id))) notFoundInvitation();
    await ensureOrganization({ org: invitation.organization_id, sub: account.id }, trx);
    await repo.addMembership(trx, invitation.organization_id, account.id, invitation.role);
    // Recorded here, not by the route table: the organization joined is the invitation's, which no admin token names yet.
    await recordAuditEntry(trx, {
      organization_id: invitation.organization_id,
      actor_id: account.id,
      actor_role: invitation.role,
      action: 'member.joined',
      target_id: account.id,
      details: { role: invitation.role, email: account.email, invitation_id: invitation.id },
      ip_address: 'invitation link',
    });
    return invitation.organization_id;
  }

  return { createOwnedOrganization, joinByInvitation };
}

export type AccountOrganizations = ReturnType<typeof accountOrganizations>;
