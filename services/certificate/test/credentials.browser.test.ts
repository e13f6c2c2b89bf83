import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';

/**
 * The public page in a real browser (Debian's chromium): what a person sees, and proof that the page loads nothing from
 * anywhere but the service itself. Screenshots go to test/artifacts/ (git-ignored).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, 'artifacts');
/** A first visit renders the document (seconds on a busy machine) and the browser starts cold: generous, not a timing claim. */
const BROWSER_TEST_TIMEOUT_MS = 120_000;
jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

let ctx: TestContext;
let org: TestOrg;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const listening = createServer();
    listening.listen(0, '127.0.0.1', () => resolve(listening));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = createTestContext({ PUBLIC_BASE_URL: origin });
  server.on('request', ctx.app);
  org = newOrg(ctx, { orgName: 'Abuja School of Design' });
  browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  mkdirSync(ARTIFACTS, { recursive: true });
}, BROWSER_TEST_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
});

/** Opens a page and records every request it makes and every console message (CSP violations are reported there). */
async function visit(url: string): Promise<{ page: Page; requested: string[]; consoleErrors: string[] }> {
  const page = await browser.newPage();
  const requested: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (req) => requested.push(req.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(BROWSER_TEST_TIMEOUT_MS);
  await page.setViewport({ width: 1100, height: 1400 });
  await page.goto(url, { waitUntil: 'networkidle0' });
  return { page, requested, consoleErrors };
}

/** The page's text as a person sees it (CSS applied, hidden parts left out). */
const visibleText = (page: Page) => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);

const leavesLoopback = (urls: string[]) => urls.filter((url) => !url.startsWith(`${origin}/`));

describe('the public credential page in a browser', () => {
  it('shows a valid certificate with its document preview, and every request stays on 127.0.0.1', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Folake Adeyemi', program_title: 'Typography' });
    const { page, requested, consoleErrors } = await visit(`${origin}/credentials/${certificate.verification_code}`);
    const text = await visibleText(page);
    expect(text).toContain('Folake Adeyemi');
    expect(text).toContain('Typography');
    expect(text).toContain('Abuja School of Design');
    expect(text).toContain('2026-05-01');
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
    expect(consoleErrors.filter((message) => /Content Security Policy/i.test(message))).toEqual([]);
    await page.close();
  });

  it('says plainly that a revoked certificate is revoked', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Ibrahim Musa' });
    await request(ctx.app).post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const { page, requested } = await visit(`${origin}/credentials/${certificate.verification_code}`);
    const status = await page.$eval('[role="status"]', (element) => ({ text: (element as unknown as { innerText: string }).innerText, status: element.getAttribute('data-status') }));
    expect(status).toEqual({ text: 'This certificate has been revoked by Abuja School of Design and is no longer valid.', status: 'revoked' });
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
