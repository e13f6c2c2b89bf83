import { createTransport } from 'nodemailer';
import { ApiError } from '@platform/service-kit/errors';

/** A file the HTML part shows inline (`<img src="cid:…">`). */
export interface InlineImage {
  cid: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text`, when the mail has one. */
  html?: string;
  inlineImages?: InlineImage[];
}

/**
 * A mail the SMTP server did not take: 503 `mail_unavailable` for the client, whose message names nothing of the
 * server. `smtpCode` and `smtpResponse` are the server's own answer when it gave one (a refused recipient: `550 …`),
 * for what the service records; `permanent` when that answer is a 5xx refusal (sending it again the same way fails again).
 */
export class MailUnavailableError extends ApiError {
  readonly permanent: boolean;

  constructor(
    readonly smtpCode?: number,
    readonly smtpResponse?: string,
  ) {
    super(503, 'mail_unavailable', 'Mail cannot be sent right now; try again later');
    this.permanent = smtpCode !== undefined && smtpCode >= 500 && smtpCode < 600;
  }
}

export interface Mailer {
  /** Sends one mail; `MailUnavailableError` (503 `mail_unavailable`) when it cannot be handed to the SMTP server. */
  send(message: MailMessage): Promise<void>;
}

/** Mail through the SMTP server of `SMTP_URL` (nodemailer); without one every send is refused with 503. */
export function createMailer(settings: { smtpUrl?: string; from: string }): Mailer {
  if (!settings.smtpUrl) {
    return {
      async send() {
        throw new MailUnavailableError();
      },
    };
  }
  const transport = createTransport(settings.smtpUrl);
  return {
    async send({ inlineImages, ...message }) {
      try {
        await transport.sendMail({ from: settings.from, ...message, ...(inlineImages?.length ? { attachments: inlineImages } : {}) });
      } catch (error) {
        // The transport's error names the server; only the SMTP answer (code and text) is kept, for the service's records.
        const { responseCode, response } = error as { responseCode?: number; response?: string };
        throw new MailUnavailableError(typeof responseCode === 'number' ? responseCode : undefined, typeof response === 'string' ? response : undefined);
      }
    },
  };
}
