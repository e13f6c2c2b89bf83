import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  /** The HTML part, when the mail has one ('' otherwise). */
  html: string;
  /** Its attachments (inline images among them), by content id. */
  attachments: Array<{ cid?: string; contentType: string; content: Buffer }>;
}

/** A real SMTP server on loopback that keeps what it receives: the service's mails go here through nodemailer. */
export function startTestMailbox() {
  const received: ReceivedMail[] = [];
  /** Addresses the server refuses at RCPT TO, with the answer it gives (`refuse`). */
  const refused = new Map<string, string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const answer = refused.get(address.address.toLowerCase());
      if (answer === undefined) return callback();
      callback(Object.assign(new Error(answer), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream, { keepCidLinks: true })
        .then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '', attachments: mail.attachments.map((a) => ({ cid: a.cid, contentType: a.contentType, content: a.content })) });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const url = new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`)));
  return {
    url,
    /** Every mail received so far for `address`, oldest first. */
    to(address: string): ReceivedMail[] {
      return received.filter((mail) => mail.to.includes(address.toLowerCase()));
    },
    /** The newest mail for `address` (the service hands mail over before it answers, so it is there already). */
    last(address: string): ReceivedMail {
      const mails = received.filter((mail) => mail.to.includes(address.toLowerCase()));
      if (mails.length === 0) throw new Error(`no mail for ${address}`);
      return mails[mails.length - 1]!;
    },
    /** The newest mail for `address` once there are `count` (mails sent after the answer, as password resets are). */
    async arrived(address: string, count = 1): Promise<ReceivedMail> {
      const deadline = Date.now() + 5000;
      while (received.filter((mail) => mail.to.includes(address.toLowerCase())).length < count) {
        if (Date.now() > deadline) throw new Error(`no mail number ${count} for ${address} within 5 s`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return this.last(address);
    },
    /** From now on the server refuses mail for `address` with a 550 and `message`, as a mailbox that does not exist. */
    refuse(address: string, message: string): void {
      refused.set(address.toLowerCase(), message);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestMailbox = ReturnType<typeof startTestMailbox>;

/** The token of a dashboard link in a mail: `…/dashboard/<page>/<token>`. */
export function linkToken(mail: ReceivedMail, page: 'verify-email' | 'reset-password' | 'invite'): string {
  const match = new RegExp(`/dashboard/${page}/([A-Za-z0-9_-]{20,200})`).exec(mail.text);
  if (!match) throw new Error(`no ${page} link in: ${mail.text}`);
  return match[1]!;
}
