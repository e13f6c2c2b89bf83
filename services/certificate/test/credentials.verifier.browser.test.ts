import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import request from 'supertest';
import { issueCertificate, type TestOrg } from './factories/admin';
import { ARTIFACTS, BROWSER_TEST_TIMEOUT_MS, cspErrors, outsideOrigin, startBrowserSetup, type BrowserSetup } from './helpers/browser-page';
import type { TestContext } from './helpers/context';

/**
 * Verifiable credentials in a real browser (Debian's chromium): the verifier page (valid, tampered, revoked, a typed code), and the
 * credential page's sharing (LinkedIn's add-to-profile link, copy link, expiry, the "verify a code" box). Every request
 * the pages make stays on the platform's origin. Screenshots go to test/artifacts/ (git-ignored).
 */
/** The little of the DOM these checks read (the tests are compiled without the DOM library). */
interface Shown {
  innerText: string;
  hidden: boolean;
  textContent: string | null;
  value: string;
  getAttribute(name: string): string | null;
}
declare const document: { getElementById(id: string): Shown | null };
jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

let setup: BrowserSetup;
let ctx: TestContext;
let org: TestOrg;
let origin: string;
let browser: Browser;
const files = mkdtempSync(path.join(tmpdir(), 'credential-files-'));

beforeAll(async () => {
  setup = await startBrowserSetup('Enugu Coding School');
  ({ ctx, org, origin, browser } = setup);
}, BROWSER_TEST_TIMEOUT_MS);
afterAll(() => setup?.close());

const visit = (url: string) => setup.visit(url, { width: 1100, height: 1200 });
const leavesOrigin = (urls: string[]) => outsideOrigin(origin, urls);

/** The verifier's answer once it has one: the result box's status and text. */
async function resultOf(page: Page): Promise<{ status: string; text: string }> {
  await page.waitForFunction(() => {
    const result = document.getElementById('result');
    return result && !result.hidden && !['none', 'pending'].includes(result.getAttribute('data-status') ?? '');
  });
  return page.$eval('#result', (element) => ({ status: element.getAttribute('data-status')!, text: (element as unknown as Shown).innerText }));
}

async function downloadedCredential(code: string): Promise<string> {
  return (await request(ctx.app).get(`/credentials/${code}/credential.json`).expect(200)).text;
}

/** The file (the credential with its Data Integrity proof) with one byte of the recipient's name changed. */
function withOneByteChanged(file: string, name: string): string {
  const at = file.indexOf(`"identityHash":"${name}"`) + `"identityHash":"${name}`.length - 1;
  expect(at).toBeGreaterThan(name.length);
  return `${file.slice(0, at)}${file[at] === 'Q' ? 'R' : 'Q'}${file.slice(at + 1)}`;
}

async function verifyFile(contents: string, name: string) {
  const { page, requested, consoleErrors } = await visit(`${origin}/credentials/verify`);
  const filePath = path.join(files, name);
  writeFileSync(filePath, contents);
  const input = await page.$('#credential-file');
  await (input as unknown as { uploadFile(file: string): Promise<void> }).uploadFile(filePath);
  const result = await resultOf(page);
  return { page, requested, consoleErrors, result };
}

describe('the verifier page in a browser', () => {
  it('a downloaded credential file is valid; with one byte changed it is tampered; once revoked it is revoked', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Chiamaka Eze', program_title: 'Web Accessibility' });
    const file = await downloadedCredential(certificate.verification_code);

    const valid = await verifyFile(file, 'valid.json');
    expect(valid.result.status).toBe('valid');
    expect(valid.result.text).toMatch(/^Valid: /);
    const details = await valid.page.$eval('#result-details', (element) => (element as unknown as Shown).innerText);
    expect(details).toContain('Chiamaka Eze');
    expect(details).toContain('Web Accessibility');
    expect(details).toContain('Enugu Coding School');
    await valid.page.screenshot({ path: path.join(ARTIFACTS, 'verifier-valid.png'), fullPage: true });
    expect(valid.requested).toContain(`${origin}/credentials/verify`);
    expect(leavesOrigin(valid.requested)).toEqual([]);
    expect(cspErrors(valid.consoleErrors)).toEqual([]);
    await valid.page.close();

    const tampered = await verifyFile(withOneByteChanged(file, 'Chiamaka Eze'), 'tampered.json');
    expect(tampered.result.status).toBe('tampered');
    expect(tampered.result.text).toMatch(/changed after it was issued/);
    await tampered.page.screenshot({ path: path.join(ARTIFACTS, 'verifier-tampered.png'), fullPage: true });
    expect(leavesOrigin(tampered.requested)).toEqual([]);
    await tampered.page.close();

    await request(ctx.app).post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    // Pasted this time, as a person would with the JWT alone.
    const { page, requested } = await visit(`${origin}/credentials/verify`);
    const jwt = (await request(ctx.app).get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/vc+jwt').expect(200)).text;
    await page.type('#credential-text', jwt, { delay: 0 });
    await page.click('#credential-form button[type="submit"]');
    const revoked = await resultOf(page);
    expect(revoked.status).toBe('revoked');
    expect(revoked.text).toMatch(/Enugu Coding School \(issuer identity not verified\) has revoked this credential/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'verifier-revoked.png'), fullPage: true });
    expect(leavesOrigin(requested)).toEqual([]);
    await page.close();
  });

  it('on a 390 px wide phone the result, with its long credential id, fits the screen: no sideways scrolling', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Chiamaka Eze' });
    const file = await downloadedCredential(certificate.verification_code);
    const { page } = await setup.visit(`${origin}/credentials/verify`, { width: 390, height: 844 });
    const filePath = path.join(files, 'phone.json');
    writeFileSync(filePath, file);
    await (await page.$('#credential-file') as unknown as { uploadFile(file: string): Promise<void> }).uploadFile(filePath);
    expect((await resultOf(page)).status).toBe('valid');
    const details = await page.$eval('#result-details', (element) => (element as unknown as Shown).innerText);
    expect(details).toContain('Chiamaka Eze');
    await page.screenshot({ path: path.join(ARTIFACTS, 'verifier-valid-390.png'), fullPage: true });
    const scrollWidth = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await page.close();
  });

  it('a typed code is checked; an unknown one says so', async () => {
    const certificate = await issueCertificate(ctx, org);
    const { page, requested } = await visit(`${origin}/credentials/verify?code=${certificate.verification_code.toLowerCase()}`);
    expect(await resultOf(page)).toMatchObject({ status: 'valid' });
    await page.$eval('#code', (input) => {
      (input as unknown as Shown).value = '';
    });
    await page.type('#code', 'ABCDEF-GHJKMN-PQRSTU');
    await page.click('form[action="/credentials/verify"] button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('result')?.getAttribute('data-status') === 'unknown');
    expect(await page.$eval('#result', (element) => (element as unknown as Shown).innerText)).toMatch(/No certificate has this verification code/);
    expect(leavesOrigin(requested)).toEqual([]);
    await page.close();
  });
});

describe('sharing from the credential page in a browser', () => {
  it('offers LinkedIn add-to-profile with the certificate\'s facts, copy link, the expiry and the credential download', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Tunde Bakare', program_title: 'Data & Society', issue_date: '2026-03-15', expires_on: '2029-09-30' });
    const pageUrl = `${origin}/credentials/${certificate.verification_code}`;
    const { page, requested, consoleErrors } = await visit(pageUrl);
    const href = await page.$eval('a.share.linkedin', (a) => a.getAttribute('href')!);
    const linkedIn = new URL(href);
    expect(`${linkedIn.origin}${linkedIn.pathname}`).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(linkedIn.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Data & Society',
      organizationName: 'Enugu Coding School',
      issueYear: '2026',
      issueMonth: '3',
      expirationYear: '2029',
      expirationMonth: '9',
      certUrl: pageUrl,
      certId: certificate.verification_code,
    });
    expect(await page.$eval('a.share.linkedin', (a) => a.textContent)).toBe('Add to LinkedIn profile');
    const text = await page.$eval('body', (body) => (body as unknown as Shown).innerText);
    expect(text).toMatch(/Expires on\s+30 September 2029/); // as the document writes dates
    expect(await page.$eval('#credential-download', (a) => a.getAttribute('href'))).toBe(`/credentials/${certificate.verification_code}/credential.json`);

    // Copy link: the clipboard gets the page's address.
    await browser.defaultBrowserContext().overridePermissions(origin, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.click('button[data-copy]');
    await page.waitForFunction(() => document.getElementById('copy-status')?.textContent !== '');
    expect(await page.$eval('#copy-status', (element) => element.textContent)).toBe('Link copied.');
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(pageUrl);
    await page.screenshot({ path: path.join(ARTIFACTS, 'credential-share.png'), fullPage: true });
    expect(leavesOrigin(requested)).toEqual([]);
    expect(cspErrors(consoleErrors)).toEqual([]);
    await page.close();
  });

  it('an expired or revoked certificate says so and offers no sharing', async () => {
    const expired = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2021-06-30' });
    const revoked = await issueCertificate(ctx, org);
    await request(ctx.app).post(`/admin/v1/certificates/${revoked.id}/revoke`).set('Authorization', org.admin()).expect(200);
    for (const [certificate, status, sentence] of [[expired, 'expired', 'This certificate expired on 30 June 2021'], [revoked, 'revoked', 'This certificate was revoked']] as const) {
      const { page, requested } = await visit(`${origin}/credentials/${certificate.verification_code}`);
      expect(await page.$eval('[role="status"]', (element) => element.getAttribute('data-status'))).toBe(status);
      expect(await page.$eval('[role="status"]', (element) => (element as unknown as Shown).innerText)).toContain(sentence);
      expect(await page.$('a.share.linkedin')).toBeNull();
      expect(await page.$('button[data-copy]')).toBeNull();
      await page.screenshot({ path: path.join(ARTIFACTS, `credential-${status}-no-share.png`), fullPage: true });
      expect(leavesOrigin(requested)).toEqual([]);
      await page.close();
    }
  });

  it('an unknown code gets a "verify a code" box that checks the typed code', async () => {
    const certificate = await issueCertificate(ctx, org);
    const { page, requested } = await visit(`${origin}/credentials/ABCDEF-GHJKMN-PQRSTU`);
    expect(await page.$eval('h1', (h1) => h1.textContent)).toBe('Certificate not found');
    await page.type('#code', certificate.verification_code);
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('form[action="/credentials/verify"] button[type="submit"]')]);
    expect(page.url()).toBe(`${origin}/credentials/verify?code=${certificate.verification_code}`);
    expect(await resultOf(page)).toMatchObject({ status: 'valid' });
    expect(leavesOrigin(requested)).toEqual([]);
    await page.close();
  });
});
