/**
 * The recipient mail end to end: the real system behind its gateway (`pnpm start`, its local mail catcher as the SMTP
 * server), driven in Debian's Chromium with axe-core run on every page visited. An owner issues a certificate with a
 * recipient email from the dashboard; the mail arrives in the local inbox; its links open (the credential page in the
 * browser, the PDF and the credential JSON fetched by it); the mail's HTML is looked at as sent (screenshot in
 * test-artifacts/recipient-mail/, and docs/images/recipient-mail.png with UPDATE_DOCS_IMAGES=1); the list shows the
 * delivery, and "Resend mail" sends it again.
 */
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'recipient-mail';
const OWNER = { name: 'Mary Jackson', email: 'mary@example.test', password: 'wind tunnel 1958 hampton', organization: 'Langley Training Unit' };
const RECIPIENT = { name: 'Dorothy Vaughan', email: 'dorothy@example.test', program: 'FORTRAN for Engineers' };

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
const { textOf, type, visit, open, expectAccessible, keepForDocs, signUpOwner } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

beforeAll(async () => {
  [system, browser] = await startTogether([startSystem('e2e_recipient_mail'), launchBrowser()]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

/** The mails to `to` in the local mail catcher of `pnpm start` once there are `count`, oldest first. */
async function mailsTo(to: string, count: number): Promise<CaughtMail[]> {
  const inbox = /mail inbox\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(system.output())?.[1];
  if (!inbox) throw new Error('pnpm start printed no mail inbox');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const messages = ((await (await fetch(`${inbox}messages`)).json()) as CaughtMail[]).filter((message) => message.to.includes(to));
    if (messages.length >= count) return messages;
    if (Date.now() > deadline) throw new Error(`${messages.length} mails for ${to}, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const pathOf = (url: string) => new URL(url).pathname;

describe('the recipient mail, in Chromium', () => {
  let mail: CaughtMail;

  it('signs up an organization owner', async () => {
    await signUpOwner(system, OWNER);
  }, 120_000);

  it('issues a certificate with a recipient email from the dashboard, and the mail arrives in the local inbox', async () => {
    await visit('/certificates', 'Certificates');
    const form = 'form[aria-label="Issue a certificate"]';
    await type(`${form} input[name="recipient_name"]`, RECIPIENT.name);
    await type(`${form} input[name="recipient_email"]`, RECIPIENT.email);
    await type(`${form} input[name="program_title"]`, RECIPIENT.program);
    await page.$eval(`${form} input[name="issue_date"]`, (input) => (input as HTMLInputElement).focus());
    await page.keyboard.type('05012026');
    await page.click(`${form} button[type="submit"]`);
    expect(await textOf('[data-testid="issued-certificate"]')).toContain(`A mail to ${RECIPIENT.email} is on its way.`);
    await expectAccessible('certificates-issued');

    mail = (await mailsTo(RECIPIENT.email, 1))[0]!;
    expect(mail!.subject).toBe(`Your certificate: ${RECIPIENT.program}, from ${OWNER.organization}`);
    expect(mail!.html).toContain('<img');
  }, 120_000);

  it("opens the mail's links: the credential page in the browser, the PDF and the credential JSON fetched by it", async () => {
    const links = mail.text.split('\n').filter((line) => /^https?:\/\//.test(line));
    expect(links).toHaveLength(4);
    const [pageUrl, pdfUrl, linkedInUrl, walletUrl] = links as [string, string, string, string];
    expect(new URL(linkedInUrl).host).toBe('www.linkedin.com');
    expect(new URL(linkedInUrl).searchParams.get('certUrl')).toBe(pageUrl);

    await open(pathOf(pageUrl));
    expect(await textOf('main')).toContain(RECIPIENT.name);
    await expectAccessible('credential-page');
    await screenshot(page, SUITE, 'credential-page');

    const fetched = await page.evaluate(
      async (paths: string[]) => {
        const answers = [];
        for (const path of paths) {
          let response = await fetch(path);
          // The PDF is rendered on first request: 202 until it is ready.
          for (let tries = 0; response.status === 202 && tries < 60; tries += 1) {
            await new Promise((resolve) => setTimeout(resolve, 500));
            response = await fetch(path);
          }
          const bytes = new Uint8Array(await response.arrayBuffer());
          answers.push({ status: response.status, type: response.headers.get('content-type'), start: String.fromCharCode(...bytes.slice(0, 5)), text: new TextDecoder().decode(bytes) });
        }
        return answers;
      },
      [pathOf(pdfUrl), pathOf(walletUrl)],
    );
    expect(fetched[0]).toMatchObject({ status: 200, type: 'application/pdf', start: '%PDF-' });
    expect(fetched[1]).toMatchObject({ status: 200, type: expect.stringMatching(/^application\/vc\+ld\+json/) });
    const credential = JSON.parse(fetched[1]!.text) as { id: string; credentialSubject: { identifier: Array<{ identityType: string; hashed: boolean }> } };
    expect(credential.id).toBe(pageUrl);
    expect(credential.credentialSubject.identifier.map((identity) => [identity.identityType, identity.hashed])).toEqual([
      ['name', false],
      ['emailAddress', true],
    ]);
  }, 120_000);

  it("shows the mail's HTML as the recipient sees it (screenshot for the docs), its links the same", async () => {
    // A blank page first: the credential page's Content-Security-Policy would hold for content written into it.
    await page.goto('about:blank');
    await page.setContent(mail.html!, { waitUntil: 'load' });
    const hrefs = await page.$$eval('a', (anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    const links = mail.text.split('\n').filter((line) => /^https?:\/\//.test(line));
    expect(hrefs).toEqual(links.map((link) => new URL(link).href));
    // The inline QR code (a cid: part of the mail, which the inbox shows as a data: URL).
    const qr = await page.$eval('img', (image) => ({ loaded: (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0, alt: (image as HTMLImageElement).alt, src: (image as HTMLImageElement).src.slice(0, 22) }));
    expect(qr).toEqual({ loaded: true, alt: `QR code of ${links[0]}`, src: 'data:image/png;base64,' });
    await expectAccessible('recipient-mail');
    await keepForDocs(SUITE, 'recipient-mail', 'recipient-mail.png');
  }, 60_000);

  it('shows the delivery in the certificate list, and "Resend mail" mails the recipient again', async () => {
    await visit('/certificates', 'Certificates');
    await page.waitForFunction((email) => Array.from(document.querySelectorAll('[data-testid^="delivery-"]')).some((node) => node.textContent?.includes(email) && node.textContent.includes('mail sent')), WAIT, RECIPIENT.email);
    await expectAccessible('certificates-delivery');
    await screenshot(page, SUITE, 'certificates-delivery');
    const resend = await page.waitForSelector(`button[aria-label$="to ${RECIPIENT.email}"]`, WAIT);
    await resend!.click();
    const mails = await mailsTo(RECIPIENT.email, 2);
    expect(mails[1]!.text).toBe(mails[0]!.text);
  }, 60_000);
});
