import { newId } from '@platform/service-kit/ids';
import type { AccountsDeps, AccountsSettings, MailSent, SessionGrant } from './accounts.types';
import { accountMails, mailSentAnswer } from './account-mails';
import { badEmailToken } from './account-refusals';
import { hashPassword } from './passwords';
import { newSecretToken, tokenHash } from './secret-tokens';
import type { SessionGrants } from './session-grants';

/** Password reset: a link mailed to the account's address, used once to choose a new password and sign in anew. */
export function createPasswordResetService({ repo, tokens, throttle, mailer, onBackgroundError }: AccountsDeps, settings: AccountsSettings, grants: SessionGrants) {
  const db = repo.db;
  const mails = accountMails(settings.publicBaseUrl);

  /** A reset link for the account with this email, if there is one, mailed to it. */
  async function sendPasswordReset(email: string): Promise<void> {
    const account = await repo.findAccountByEmail(email);
    if (!account) return;
    const token = newSecretToken();
    const expiresAt = new Date(Date.now() + settings.passwordResetTtlMinutes * 60_000);
    await tokens.insert({ id: newId('etk'), purpose: 'password_reset', token_hash: tokenHash(token), email: account.email, account_id: account.id, expires_at: expiresAt });
    await mailer.send(mails.passwordReset(account.email, token, settings.passwordResetTtlMinutes));
  }

  return {
    /**
     * Mails a reset link when the email has an account; the answer is the same 202 either way. The same answer, the same
     * work before it and so the same timing whether or not the email has an account (and whether or not mail works):
     * the look-up, the link and the mail happen after the answer, and a failure there is logged, never answered.
     */
    async requestPasswordReset(email: string, address: string): Promise<MailSent> {
      await throttle.spendSignUp(address);
      setImmediate(() => {
        sendPasswordReset(email).catch((error: unknown) => onBackgroundError?.(error, 'password reset mail not sent'));
      });
      return mailSentAnswer('If an account has this email, we sent it a link to choose a new password.', settings.mailInboxUrl);
    },

    /** Uses a reset link: the new password is stored, the email counts as verified, every other sign-in ends; signed in. */
    async confirmPasswordReset(token: string, password: string): Promise<SessionGrant> {
      const passwordHash = await hashPassword(password);
      const grant = await db.transaction(async (trx) => {
        const row = await tokens.use(trx, 'password_reset', tokenHash(token));
        if (!row?.account_id) throw badEmailToken();
        await tokens.voidAll(trx, 'password_reset', row.account_id); // one reset: every other link of the account dies
        await repo.setPasswordHash(trx, row.account_id, passwordHash);
        await repo.markEmailVerified(trx, row.account_id);
        await repo.revokeAllSessions(trx, row.account_id);
        const account = (await repo.findAccount(row.account_id, trx))!;
        return grants.startSignIn(trx, account, undefined);
      });
      // The other sign-ins ended with the reset: the gateways drop what they cached of them (as for a removed member).
      const accountId = grant.session.account.id;
      for (const membership of grant.session.memberships) await grants.events.ended({ kind: 'member', sub: accountId, org: membership.organization_id });
      return grant;
    },
  };
}
