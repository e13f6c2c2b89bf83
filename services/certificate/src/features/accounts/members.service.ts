import { ApiError, ConflictError, ForbiddenError, NotFoundError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import type { AdminClaims } from '@platform/service-kit/admin-auth';
import type { AccountsRepository, MemberRole } from './accounts.repository';
import type { Mailer } from '../mail';
import { accountMails } from './account-mails';
import { newSecretToken, tokenHash } from './secret-tokens';
import { NO_SESSION_EVENTS, type SessionEvents } from './session-events';
import { invitationView } from './members.presenter';

const memberNotFound = () => new NotFoundError('Member not found');
const lastOwner = () => new ConflictError('An organization keeps at least one owner: make someone else owner first', 'last_owner');

/**
 * `/admin/v1/members` and `/admin/v1/invitations`: who belongs to the token's organization. A removed member's refresh
 * sessions for the organization are revoked, and a removal or role change reaches the gateways at once (their session
 * check refuses the member's access tokens still within their 15 minutes).
 */
export function createMembersService(repo: AccountsRepository, mailer: Mailer, settings: { invitationTtlDays: number; invitationsPerDay: number; publicBaseUrl: string; sessionEvents?: SessionEvents }) {
  const db = repo.db;
  const events = settings.sessionEvents ?? NO_SESSION_EVENTS;
  const mails = accountMails(settings.publicBaseUrl);
  return {
    async list(organizationId: string) {
      const rows = await repo.members(organizationId);
      return { data: rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() })) };
    },

    async changeRole(organizationId: string, accountId: string, role: MemberRole) {
      await db.transaction(async (trx) => {
        const members = await repo.lockMemberships(trx, organizationId);
        const target = members.find((m) => m.account_id === accountId);
        if (!target) throw memberNotFound();
        if (target.role === 'owner' && role !== 'owner' && members.filter((m) => m.role === 'owner').length === 1) throw lastOwner();
        await repo.setRole(trx, organizationId, accountId, role);
      });
      await events.ended({ kind: 'member', sub: accountId, org: organizationId });
      const row = (await repo.members(organizationId)).find((m) => m.account_id === accountId)!;
      return { ...row, created_at: new Date(row.created_at).toISOString() };
    },

    /** Owners remove anyone; anyone may remove themselves (leave). The last owner can do neither. */
    async remove(admin: AdminClaims, accountId: string): Promise<void> {
      if (admin.role !== 'owner' && admin.sub !== accountId) throw new ForbiddenError('This action needs the owner role', 'insufficient_role');
      await db.transaction(async (trx) => {
        const members = await repo.lockMemberships(trx, admin.org);
        const target = members.find((m) => m.account_id === accountId);
        if (!target) throw memberNotFound();
        if (target.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1) throw lastOwner();
        await repo.removeMembership(trx, admin.org, accountId);
        await repo.revokeSessionsIn(trx, admin.org, accountId);
      });
      await events.ended({ kind: 'member', sub: accountId, org: admin.org });
    },

    /**
     * A link (7 days by default), its token in this answer only. With an email it is also mailed there (`mailed: true`),
     * and only an account that proved that email can use it; without one the owner passes the link on. `mail: false`
     * keeps the email's rule but sends nothing: the caller hands the link over itself (the operator CLI without SMTP).
     */
    async invite(organizationId: string, createdBy: string, input: { role: MemberRole; email?: string; mail?: boolean }) {
      const token = newSecretToken();
      const outcome = await repo.insertInvitationWithinCap(
        {
          id: newId('inv'),
          organization_id: organizationId,
          token_hash: tokenHash(token),
          role: input.role,
          email: input.email ?? null,
          created_by: createdBy,
          expires_at: new Date(Date.now() + settings.invitationTtlDays * 86400_000),
        },
        settings.invitationsPerDay,
      );
      if ('retryAfterSeconds' in outcome) {
        const wait = String(outcome.retryAfterSeconds);
        throw new ApiError(429, 'rate_limited', `This organization made ${settings.invitationsPerDay} invitations in the last 24 hours; try again in ${wait} s`, {}, { 'Retry-After': wait });
      }
      const row = outcome.created;
      const inviteUrl = `${settings.publicBaseUrl.replace(/\/+$/, '')}/dashboard/invite/${token}`;
      const mailed = Boolean(input.email) && input.mail !== false;
      if (mailed) {
        // The stored names, never a token's claim: the mail says which organization and who invited.
        const [organizationName, inviter] = await Promise.all([repo.organizationName(organizationId), repo.findAccount(createdBy)]);
        await mailer.send(mails.invitation(input.email!, { organizationName: organizationName ?? organizationId, inviter: inviter ? { name: inviter.name, email: inviter.email } : undefined }, inviteUrl, settings.invitationTtlDays));
        await repo.markInvitationMailed(row.id);
      }
      return { ...invitationView(row), token, invite_url: inviteUrl, mailed };
    },

    async pendingInvitations(organizationId: string) {
      return { data: (await repo.pendingInvitations(organizationId)).map(invitationView) };
    },

    async deleteInvitation(organizationId: string, id: string): Promise<void> {
      if (!(await repo.deleteInvitation(organizationId, id))) throw new ApiError(404, 'not_found', 'Invitation not found');
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
