import path from 'node:path';
import type { Page } from 'puppeteer-core';
import request from 'supertest';
import { issueCertificate, type TestOrg } from './factories/admin';
import { ARTIFACTS, BROWSER_TEST_TIMEOUT_MS, cspErrors, outsideOrigin, startBrowserSetup, type BrowserSetup } from './helpers/browser-page';
import type { TestContext } from './helpers/context';

/**
 * The public page in a real browser (Debian's chromium): what a person sees, and proof that the page loads nothing from
 * anywhere but the service itself. Screenshots go to test/artifacts/ (git-ignored).
 */
jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

let setup: BrowserSetup;
let ctx: TestContext;
let org: TestOrg;
let origin: string;

beforeAll(async () => {
  setup = await startBrowserSetup('Abuja School of Design');
  ({ ctx, org, origin } = setup);
}, BROWSER_TEST_TIMEOUT_MS);
afterAll(() => setup?.close());

const visit = (url: string) => setup.visit(url, { width: 1100, height: 1400 });

/** The page's text as a person sees it (CSS applied, hidden parts left out). */
const visibleText = (page: Page) => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);

const leavesLoopback = (urls: string[]) => outsideOrigin(origin, urls);

describe('the public credential page in a browser', () => {
  it('shows a valid certificate with its document preview, and every request stays on 127.0.0.1', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Folake Adeyemi', program_title: 'Typography' });
    const { page, requested, consoleErrors } = await visit(`${origin}/credentials/${certificate.verification_code}`);
    const text = await visibleText(page);
    expect(text).toContain('Folake Adeyemi');
    expect(text).toContain('Typography');
    expect(text).toContain('Abuja School of Design');
    expect(text).toContain('1 May 2026'); // the document's date style (the built-in template's `long`)
    expect(text).toContain('This certificate is valid.');
    const preview = await page.$eval('img.preview', (img) => ({ loaded: img.complete, width: img.naturalWidth }));
    expect(preview).toEqual({ loaded: true, width: 1684 });
    const download = await page.$eval('a.download', (a) => a.getAttribute('href'));
    expect(download).toBe(`/credentials/${certificate.verification_code}/document.pdf`);
    expect((await request(ctx.app).get(download!)).headers['content-type']).toBe('application/pdf');
    expect(await page.$eval('meta[property="og:image"]', (meta) => meta.getAttribute('content'))).toBe(`${origin}/credentials/${certificate.verification_code}/document.png`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'credential-valid.png'), fullPage: true });

    expect(requested).toContain(`${origin}/credentials/${certificate.verification_code}/document.png`);
    expect(leavesLoopback(requested)).toEqual([]);
    expect(cspErrors(consoleErrors)).toEqual([]);
    await page.close();
  });

  it('says plainly that a revoked certificate is revoked', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Ibrahim Musa' });
    await request(ctx.app).post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const { page, requested } = await visit(`${origin}/credentials/${certificate.verification_code}`);
    const status = await page.$eval('[role="status"]', (element) => ({ text: (element as unknown as { innerText: string }).innerText, status: element.getAttribute('data-status') }));
    const revokedOn = new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect(status).toEqual({ text: `This certificate was revoked by Abuja School of Design on ${revokedOn} and is no longer valid.`, status: 'revoked' });
    expect(await visibleText(page)).not.toContain('This certificate is valid');
    await page.screenshot({ path: path.join(ARTIFACTS, 'credential-revoked.png'), fullPage: true });
    expect(leavesLoopback(requested)).toEqual([]);
    await page.close();
  });

  it('an unknown code is a page saying so', async () => {
    const { page, requested } = await visit(`${origin}/credentials/ABCDEF-GHJKMN-PQRSTU`);
    expect(await visibleText(page)).toContain('Certificate not found');
    expect(leavesLoopback(requested)).toEqual([]);
    await page.close();
  });
});
