/**
 * Development's mail catcher: an SMTP server on loopback that keeps every message in memory (nothing is delivered) and a
 * small web inbox beside it: `GET /` lists the messages as HTML (links clickable), `GET /messages` as JSON, newest
 * last. `pnpm start` runs one when SMTP_URL is not set outside production, so sign-up, password-reset and invitation
 * mails of the certificate service can be read at the inbox address it prints.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The HTML part, when the mail has one (its inline images as data: URLs), so it can be looked at as sent. */
  html?: string;
  date: string;
}

export interface LocalMailCatcher {
  /** `smtp://127.0.0.1:<port>`: what SMTP_URL is set to. */
  smtpUrl: string;
  /** The web inbox, e.g. `http://127.0.0.1:<port>/` (its JSON at `/messages`). */
  inboxUrl: string;
  messages(): CaughtMail[];
  stop(): Promise<void>;
}

const MAX_KEPT = 500;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inboxPage(messages: CaughtMail[]): string {
  const items = [...messages]
    .reverse()
    .map((m) => {
      const body = escapeHtml(m.text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
      return `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to.join(', '))} · ${escapeHtml(m.date)}</p><pre>${body}</pre></article>`;
    })
    .join('\n');
  return `<!doctype html><meta charset="utf-8"><title>Local mail</title><h1>Local mail (${messages.length})</h1>${items || '<p>No mail yet.</p>'}`;
}

/** Listens on loopback (port 0: a free one) and resolves with the port taken. */
function listen(server: { listen(port: number, host: string, ready: () => void): unknown; once(event: 'error', listener: (error: Error) => void): unknown }, port: number, bound: () => NetServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((bound().address() as AddressInfo).port));
  });
}

/** Starts the SMTP server and its inbox on loopback (ports from MAIL_SMTP_PORT / MAIL_INBOX_PORT, else free ones). */
export async function startLocalMailCatcher(ports: { smtp?: number; inbox?: number } = {}): Promise<LocalMailCatcher> {
  const messages: CaughtMail[] = [];
  let nextId = 1;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            id: nextId++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            ...(typeof parsed.html === 'string' ? { html: parsed.html } : {}),
            date: (parsed.date ?? new Date()).toISOString(),
          });
          if (messages.length > MAX_KEPT) messages.shift();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const inbox = createServer((req, res) => {
    if (req.url === '/messages') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(messages));
    } else if (req.url === '/' || req.url === '') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(inboxPage(messages));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"not_found","message":"GET / or /messages"}}');
    }
  });
  const smtpPort = await listen(smtp, ports.smtp ?? Number(process.env.MAIL_SMTP_PORT ?? 0), () => smtp.server);
  const inboxPort = await listen(inbox, ports.inbox ?? Number(process.env.MAIL_INBOX_PORT ?? 0), () => inbox);
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    inboxUrl: `http://127.0.0.1:${inboxPort}/`,
    messages: () => [...messages],
    async stop() {
      await Promise.all([new Promise<void>((resolve) => smtp.close(() => resolve())), new Promise<void>((resolve) => inbox.close(() => resolve()))]);
    },
  };
}
