// @vitest-environment node
/**
 * The built app in Debian's chromium (puppeteer-core, never a downloaded browser) at 360 px wide: the /dashboard/ base
 * path, sign-up (and its mailed link) with the refresh cookie (Secure, HttpOnly, SameSite=Strict, Path=/dashboard/api/auth) surviving a
 * reload, the Origin header on state changes, a key's token shown once, without the page scrolling sideways, and test mode
 * kept by the URL in a new tab.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGateway, type FakeGateway } from './fake-gateway';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let outDir: string;
let gateway: FakeGateway;
let browser: Browser;

beforeAll(async () => {
  outDir = mkdtempSync(path.join(tmpdir(), 'dashboard-build-'));
  await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  gateway = await startFakeGateway(outDir);
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const fill = async (page: Page, label: string, value: string) => {
  const id = await page.$eval(`xpath/.//label[normalize-space(.)="${label}"]`, (element) => (element as HTMLLabelElement).htmlFor);
  await page.type(`[id="${id}"]`, value);
};
const clickButton = (page: Page, name: string) => page.locator(`::-p-aria([name="${name}"][role="button"])`).click();
const heading = (page: Page, name: string) => page.waitForSelector(`::-p-aria([name="${name}"][role="heading"])`);
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('dashboard in a browser at 360 px', () => {
  it('signs up, stays signed in across a reload through the refresh cookie, and shows a new key token once', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 360, height: 740 });
    await page.goto(`${gateway.origin}/dashboard/sign-up`);
    await heading(page, 'Sign up');
    await fill(page, 'Your name', 'Ada');
    await fill(page, 'Email', 'ada@example.com');
    await fill(page, 'Password', 'correct horse battery');
    await fill(page, 'Organization name', 'Acme Learning');
    await clickButton(page, 'Sign up');
    await heading(page, 'Check your inbox');
    // The mailed link: opened, with the sign-up's password entered again, it makes the account and signs it in.
    await page.goto(`${gateway.origin}/dashboard/verify-email/${gateway.lastVerificationToken()}`);
    await heading(page, 'Confirm your email');
    await fill(page, 'Password', 'correct horse battery');
    await clickButton(page, 'Confirm and create my account');
    await heading(page, 'Acme Learning');
    // The home page's four charts (and their tables for screen readers) fit the 360 px page.
    for (const chart of ['chart-certificates', 'chart-credits', 'chart-trips', 'chart-webhooks']) await page.waitForSelector(`[data-testid="${chart}"] svg`);
    expect(await overflowsSideways(page)).toBe(false);

    const [cookie] = await browser.cookies();
    expect(cookie).toMatchObject({ name: 'pp_refresh', httpOnly: true, secure: true, sameSite: 'Strict', path: '/dashboard/api/auth' });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await page.goto(`${gateway.origin}/dashboard/api-keys/mobility`);
    await heading(page, 'Mobility API keys');
    await fill(page, 'Key name', 'Browser key');
    await page.locator('::-p-aria([name="rides:read"][role="checkbox"])').click();
    await clickButton(page, 'Create key');
    const token = await page.waitForSelector('[data-testid="api-key-token"]');
    expect(await token!.evaluate((element) => element.textContent)).toBe('mk_test_browser_token');
    expect(await overflowsSideways(page)).toBe(false);

    expect(gateway.origins.every((origin) => origin === gateway.origin)).toBe(true);
    await page.close();
  });

  it('keeps test mode in the URL: the same address opened in a new tab shows test data', async () => {
    const first = await browser.newPage();
    await first.goto(`${gateway.origin}/dashboard/test/rides`);
    await heading(first, 'Rides');
    await first.waitForSelector('[data-testid="test-mode-banner"]');
    await first.waitForSelector('::-p-aria([name="ride_test_1"][role="link"])');
    // A new tab (empty sessionStorage) at the same address: still test mode, still test data.
    const second = await browser.newPage();
    await second.setViewport({ width: 360, height: 740 });
    await second.goto(first.url());
    await heading(second, 'Rides');
    await second.waitForSelector('[data-testid="test-mode-banner"]');
    await second.waitForSelector('::-p-aria([name="ride_test_1"][role="link"])');
    expect(await second.$eval('[data-testid="mode-switch"]', (input) => (input as HTMLInputElement).checked)).toBe(true);
    expect(await second.evaluate(() => document.querySelector('main table')!.textContent)).not.toContain('ride_live_1');
    expect(await overflowsSideways(second)).toBe(false);
    await first.close();
    await second.close();
  });
});
