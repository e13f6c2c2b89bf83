import type { Browser } from 'puppeteer-core';
import { launchBrowser, refuseForeignRequests, screenshot } from '../helpers/browser';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

let system: StartedSystem;
let browser: Browser;
beforeAll(async () => {
  [system, browser] = await startTogether([startSystem('e2e_docs'), launchBrowser()]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await system?.stop();
}, 60_000);

describe('the API reference page through the gateway, in Chromium', () => {
  it('renders the merged description without asking any host but the gateway', async () => {
    const page = await browser.newPage();
    const foreign = refuseForeignRequests(page, system.gatewayUrl);
    const answer = await page.goto(`${system.gatewayUrl}/docs`, { waitUntil: 'networkidle0' });
    expect(answer?.status()).toBe(200);
    await page.waitForFunction(() => document.body.innerText.includes('/api/v1/verify/'), { timeout: 30_000 });
    const description = (await page.evaluate(async () => (await fetch('/openapi.json')).json())) as { paths: Record<string, unknown> };
    expect(Object.keys(description.paths)).toEqual(expect.arrayContaining(['/api/v1/verify/{code}', '/api/v1/rides']));
    await screenshot(page, 'docs', 'reference');
    expect(foreign).toEqual([]);
  }, 60_000);
});
