import { ConflictError, UnauthorizedError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import type { AccountRow } from './accounts.repository';
import type { AccountsDeps, AccountsSettings, MailSent, SessionGrant, SignUpInput } from './accounts.types';
import { accountMails, mailSentAnswer } from './account-mails';
import { checkInvitationEmail, type AccountOrganizations } from './account-organizations';
import { badEmailToken, notFoundInvitation } from './account-refusals';
import type { PendingSignUp } from './email-tokens.repository';
import { hashPassword, verifyPassword } from './passwords';
import { newSecretToken, tokenHash } from './secret-tokens';
import type { SessionGrants } from './session-grants';

/**
 * Sign-up and email verification: a sign-up mails a link, and the account exists once the link is used with the
 * sign-up's password; the operator's first owner is made verified at once.
 */
export function createSignUpService(
  { repo, tokens, throttle, mailer }: AccountsDeps,
  settings: AccountsSettings,
  grants: SessionGrants,
  organizations: AccountOrganizations,
) {
  const db = repo.db;
  const mails = accountMails(settings.publicBaseUrl);

  /**
   * An account whose email is proven (a used sign-up link whose opener also knew the sign-up's password, or the
   * operator's word), signed in; 409 when the email is taken.
   */
  async function createVerifiedAccount(trx: Knex, email: string, pending: PendingSignUp): Promise<SessionGrant> {
    const account: AccountRow = { id: newId('acc'), email, name: pending.name, password_hash: pending.password_hash };
    if (!(await repo.insertAccount(trx, account))) throw new ConflictError('An account with this email already exists', 'email_taken');
    await repo.markEmailVerified(trx, account.id);
    account.email_verified_at = new Date();
    let organizationId: string | null = null;
    if (pending.organization_name !== undefined) organizationId = await organizations.createOwnedOrganization(trx, account.id, pending.organization_name);
    if (pending.invitation_token !== undefined) organizationId = await organizations.joinByInvitation(trx, pending.invitation_token, account);
    return grants.startSignIn(trx, account, organizationId ?? undefined);
  }

  return {
    /**
     * Sign-up makes no account: it mails a link to the address, and the account exists once the link is used together
     * with the password chosen here (`verifyEmail`). A new sign-up voids every older link for the address, so only the
     * newest one works. An address that has an account gets a mail saying someone tried; the answer is the same 202
     * either way. With the token of an invitation mailed to the same address (the mail proved it), the account is
     * made at once instead: verified, in the invitation's organization, signed in (no mail).
     */
    async signUp(input: SignUpInput, address: string): Promise<MailSent | SessionGrant> {
      await throttle.spendSignUp(address);
      let mailedInvitation = false;
      if (input.invitation_token !== undefined) {
        const invitation = await repo.findUsableInvitation(tokenHash(input.invitation_token));
        if (!invitation) notFoundInvitation();
        checkInvitationEmail(invitation, { email: input.email, email_verified_at: new Date() }); // the link will prove the email
        mailedInvitation = Boolean(invitation.email && invitation.mailed_at);
      }
      const pending: PendingSignUp = {
        name: input.name,
        password_hash: await hashPassword(input.password),
        ...(input.organization_name !== undefined ? { organization_name: input.organization_name } : {}),
        ...(input.invitation_token !== undefined ? { invitation_token: input.invitation_token } : {}),
      };
      const taken = await repo.findAccountByEmail(input.email);
      // The invitation mailed to this address already proved it (its token came from that mailbox): the account is
      // made verified, joined and signed in now, with no second confirmation mail.
      if (mailedInvitation && !taken) return db.transaction((trx) => createVerifiedAccount(trx, input.email, pending));
      if (taken) {
        await mailer.send(mails.alreadyRegistered(input.email));
      } else {
        const token = newSecretToken();
        await db.transaction(async (trx) => {
          await tokens.voidSignUps(trx, input.email);
          await tokens.insert(
            { id: newId('etk'), purpose: 'sign_up', token_hash: tokenHash(token), email: input.email, sign_up: pending, expires_at: new Date(Date.now() + settings.emailTokenTtlHours * 3600_000) },
            trx,
          );
        });
        await mailer.send(mails.verifyEmail(input.email, token, settings.emailTokenTtlHours));
      }
      return mailSentAnswer('Check your inbox: we sent a link to confirm your email address.', settings.mailInboxUrl);
    },

    /**
     * Uses a sign-up link: the account (with its organization or invitation) is made and signed in, but only when the
     * opener also gives the password chosen at sign-up. The link proves the mailbox, the password proves the one who
     * signed up: someone who signs up with another person's address cannot use the link (it is in that person's
     * mailbox), and that person cannot make the account with the stranger's password by clicking "confirm" (they do not
     * know it), so a pending sign-up never becomes an account its mailbox owner did not choose the password of.
     * A wrong password: 401 `invalid_credentials`, the link stays usable, and the failure counts towards the sign-in
     * throttle of that (email, address) pair (429 `too_many_attempts`).
     */
    async verifyEmail(token: string, password: string, address: string): Promise<SessionGrant> {
      const hash = tokenHash(token);
      const pending = await tokens.findLive('sign_up', hash);
      if (!pending?.sign_up) throw badEmailToken();
      await throttle.check(pending.email, address);
      if (!(await verifyPassword(password, pending.sign_up.password_hash))) {
        await throttle.recordFailure(pending.email, address);
        throw new UnauthorizedError('This is not the password chosen when signing up with this address', 'invalid_credentials');
      }
      await throttle.clearPair(pending.email, address);
      return db.transaction(async (trx) => {
        const row = await tokens.use(trx, 'sign_up', hash);
        if (!row?.sign_up) throw badEmailToken();
        return createVerifiedAccount(trx, row.email, row.sign_up);
      });
    },

    /** The operator command's first owner: a verified account (the operator vouches) owning a new organization (409 when the email is taken). */
    async createOwner(input: { email: string; password: string; name: string; organization_name: string }) {
      const pending: PendingSignUp = { name: input.name, password_hash: await hashPassword(input.password), organization_name: input.organization_name };
      const { session } = await db.transaction((trx) => createVerifiedAccount(trx, input.email, pending));
      return { account: session.account, organization: session.organization };
    },
  };
}
