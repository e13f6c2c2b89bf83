/**
 * The development mail catcher `pnpm start` runs (scripts/local-mail.ts): a real SMTP conversation on loopback, then
 * the message in its JSON and HTML inbox.
 */
import { connect } from 'node:net';
import { startLocalMailCatcher, type LocalMailCatcher } from '../../scripts/local-mail';

let catcher: LocalMailCatcher;
beforeAll(async () => {
  catcher = await startLocalMailCatcher({ smtp: 0, inbox: 0 });
});
afterAll(() => catcher?.stop());

/** Speaks SMTP line by line, each command after the server's answer to the previous one. */
function sendMail(smtpUrl: string, lines: string[]): Promise<string[]> {
  const { hostname, port } = new URL(smtpUrl);
  return new Promise((resolve, reject) => {
    const answers: string[] = [];
    const socket = connect(Number(port), hostname);
    const queue = [...lines];
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      // A complete reply ends with a line "NNN text" (no dash after the code).
      if (!/(^|\r\n)\d{3} [^\r\n]*\r\n$/.test(buffer)) return;
      answers.push(buffer.trim());
      buffer = '';
      const next = queue.shift();
      if (next === undefined) socket.end();
      else socket.write(`${next}\r\n`);
    });
    socket.on('close', () => resolve(answers));
    socket.on('error', reject);
  });
}

describe('local mail catcher', () => {
  it('receives a mail over SMTP and shows it in its inbox, as JSON and as HTML with clickable links', async () => {
    expect(catcher.smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(catcher.inboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const answers = await sendMail(catcher.smtpUrl, [
      'EHLO test',
      'MAIL FROM:<no-reply@localhost>',
      'RCPT TO:<ada@example.com>',
      'DATA',
      'From: Platform <no-reply@localhost>\r\nTo: ada@example.com\r\nSubject: Confirm your email address\r\n\r\nOpen http://127.0.0.1:8080/dashboard/verify-email/abc to finish.\r\n.',
      'QUIT',
    ]);
    expect(answers[answers.length - 1]).toMatch(/^221/);

    const res = await fetch(`${catcher.inboxUrl}messages`);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual([
      expect.objectContaining({ id: 1, from: 'no-reply@localhost', to: ['ada@example.com'], subject: 'Confirm your email address', text: expect.stringContaining('/dashboard/verify-email/abc') }),
    ]);
    const html = await (await fetch(catcher.inboxUrl)).text();
    expect(html).toContain('<a href="http://127.0.0.1:8080/dashboard/verify-email/abc">');
    expect((await fetch(`${catcher.inboxUrl}nope`)).status).toBe(404);
  });
});
