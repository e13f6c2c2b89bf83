import type { MailSent } from '../../api/accounts';

/** After sign-up: the link to confirm the email is in the mail; in development the local mail catcher's inbox is linked. */
export function CheckInbox({ sent, email }: { sent: MailSent; email: string }) {
  return (
    <section aria-label="Check your inbox" data-testid="check-inbox">
      <h2>Check your inbox</h2>
      <p>
        {sent.message} It went to <strong>{email}</strong>; open the link in it to finish.
      </p>
      {sent.mail_inbox_url && (
        <p>
          Development: mail is caught locally, read it in the{' '}
          <a href={sent.mail_inbox_url} target="_blank" rel="noreferrer" data-testid="mail-inbox-link">
            local inbox
          </a>
          .
        </p>
      )}
    </section>
  );
}
