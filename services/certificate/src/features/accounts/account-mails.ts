import type { MailMessage } from '../mail';
import type { MailSent } from './accounts.types';

/** The answer of a request that may send a mail (the same whether it did or not), naming development's mail catcher inbox. */
export function mailSentAnswer(message: string, mailInboxUrl: string | undefined): MailSent {
  return { status: 'mail_sent', message, ...(mailInboxUrl ? { mail_inbox_url: mailInboxUrl } : {}) };
}

/** The texts of the mails accounts send; every link opens the dashboard, which POSTs the token (mail scanners only GET). */
export function accountMails(publicBaseUrl: string) {
  const dashboard = `${publicBaseUrl.replace(/\/+$/, '')}/dashboard`;
  return {
    verifyEmail(to: string, token: string, hours: number): MailMessage {
      return {
        to,
        subject: 'Confirm your email address',
        text: `Someone (hopefully you) signed up for the Partner Platform with this address.\n\nConfirm it to create your account: open this link and enter the password you chose when signing up.\n${dashboard}/verify-email/${token}\n\nThe link works once, for ${hours} hours, and a newer sign-up for this address replaces it. If it was not you, ignore this mail: no account is made, and without the password that was chosen nobody can make one with this link.\n`,
      };
    },
    alreadyRegistered(to: string): MailMessage {
      return {
        to,
        subject: 'Someone tried to sign up with your address',
        text: `Someone tried to sign up for the Partner Platform with this address, which already has an account.\n\nIf it was you, sign in: ${dashboard}/sign-in\nForgot your password? Reset it: ${dashboard}/reset-password\n\nIf it was not you, nothing changed and you can ignore this mail.\n`,
      };
    },
    passwordReset(to: string, token: string, minutes: number): MailMessage {
      return {
        to,
        subject: 'Reset your password',
        text: `Someone (hopefully you) asked to reset the password of this account.\n\nChoose a new password:\n${dashboard}/reset-password/${token}\n\nThe link works once, for ${minutes} minutes, and signs every browser out. If it was not you, ignore this mail.\n`,
      };
    },
    /** Names the organization and, when an account made it, who invited (the operator CLI's invitations have none). */
    invitation(to: string, from: { organizationName: string; inviter?: { name: string; email: string } }, inviteUrl: string, days: number): MailMessage {
      const who = from.inviter ? `${from.inviter.name} (${from.inviter.email}) invited you` : 'You are invited';
      return {
        to,
        subject: `${from.inviter ? `${from.inviter.name} invited you` : 'You are invited'} to ${from.organizationName}`,
        text: `${who} to join ${from.organizationName} on the Partner Platform.\n\nAccept the invitation (sign in or sign up with this address):\n${inviteUrl}\n\nThe link works once, for ${days} days. If you did not expect it, ignore this mail.\n`,
      };
    },
  };
}

export type AccountMails = ReturnType<typeof accountMails>;
