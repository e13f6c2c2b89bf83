import { createTransport } from 'nodemailer';
import { ApiError } from '@platform/service-kit/errors';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Sends one plain-text mail; 503 `mail_unavailable` when it cannot be handed to the SMTP server. */
  send(message: MailMessage): Promise<void>;
}

const unavailable = () => new ApiError(503, 'mail_unavailable', 'Mail cannot be sent right now; try again later');

/** Mail through the SMTP server of `SMTP_URL` (nodemailer); without one every send is refused with 503. */
export function createMailer(settings: { smtpUrl?: string; from: string }): Mailer {
  if (!settings.smtpUrl) {
    return {
      async send() {
        throw unavailable();
      },
    };
  }
  const transport = createTransport(settings.smtpUrl);
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: settings.from, ...message });
      } catch {
        throw unavailable(); // the transport's error names the server; the client learns only that mail failed
      }
    },
  };
}
