import type { MailSent } from '../../api/accounts';

const HEADING = 'Check your inbox';

/** The service's message under the heading, without the heading's words again ("Check your inbox: we sent…" → "We sent…"). */
function withoutHeading(message: string): string {
  if (!message.toLowerCase().startsWith(HEADING.toLowerCase())) return message;
  const rest = message.slice(HEADING.length).replace(/^[\s:.,;!–—-]+/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** After sign-up: the link to confirm the email is in the mail; in development the local mail catcher's inbox is linked. */
export function CheckInbox({ sent, email }: { sent: MailSent; email: string }) {
  return (
    <section aria-label={HEADING} data-testid="check-inbox">
      <h2>{HEADING}</h2>
      <p>
        {withoutHeading(sent.message)} It went to <strong>{email}</strong>; open the link in it to finish.
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
