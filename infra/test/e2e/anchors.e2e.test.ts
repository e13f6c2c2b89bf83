/**
 * What the anchors have (dashboard issue 37), end to end: the real system behind its gateway, driven in Debian's
 * Chromium, axe-core on every page and no horizontal scrolling at 1280 px. An endpoint's delivery statistics after a
 * few deliveries and a catalog example sent to a loopback receiver; a list exported to CSV (the downloaded file read
 * back); the command palette finding a certificate by its code. Screenshots go to test-artifacts/anchors/; the endpoint
 * page's also to docs/images/dashboard-endpoint-stats.png with UPDATE_DOCS_IMAGES=1.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { startFakeServer, type RecordedRequest } from '@platform/test-kit';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'anchors';
const OWNER = { name: 'Dorothy Vaughan', email: 'dorothy@example.test', password: 'fortran for everyone 1961', organization: 'West Computing' };
const RIDE = { pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4654, lng: 3.4064 }, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348020000000' } };

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
let files: string;
let mobilityKey = '';
const hooks: RecordedRequest[] = [];
let receiver: Awaited<ReturnType<typeof startFakeServer>>;
const { textOf, type, visit, expectAccessible, keepForDocs, signUpOwner, gatewayFetch } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

function reply(request: RecordedRequest, res: ServerResponse) {
  hooks.push(request);
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end('ok');
}

beforeAll(async () => {
  files = mkdtempSync(path.join(os.tmpdir(), 'anchors-'));
  [system, browser, receiver] = await startTogether([startSystem('e2e_anchors'), launchBrowser(), startFakeServer(reply)]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await receiver?.close();
  if (files) rmSync(files, { recursive: true, force: true });
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

/** axe finds nothing, and nothing is wider than the 1280 px window (no horizontal scrolling). */
async function checkPage(name: string): Promise<void> {
  await expectAccessible(name);
  const overflow = await page.evaluate(() => ({ window: window.innerWidth, scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth }));
  expect({ page: name, ...overflow }).toEqual({ page: name, window: 1280, scroll: 0 });
}

const partner = (pathname: string, init: RequestInit = {}) =>
  gatewayFetch(pathname, { ...init, headers: { Authorization: `Bearer ${mobilityKey}`, 'Content-Type': 'application/json' } });

/** Reloads the page until `test` holds in it (what the dashboard shows comes from a fresh read). */
async function reloadUntil(test: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 30; attempt++) {
    if (await page.evaluate(test)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.reload({ waitUntil: 'networkidle0' });
  }
  throw new Error(`never held: ${test.toString()}`);
}

describe('the anchors, in Chromium', () => {
  it('signs up an owner and creates a live mobility key', async () => {
    await signUpOwner(system, OWNER);
    await page.setViewport({ width: 1280, height: 900 });
    await visit('/api-keys/mobility', 'Mobility API keys');
    await type('form[aria-label="Create an API key"] input[name="name"]', 'Dispatch');
    for (const scope of ['rides:write', 'rides:read']) await page.click(`form[aria-label="Create an API key"] input[name="scopes"][value="${scope}"]`);
    await page.select('form[aria-label="Create an API key"] select[name="mode"]', 'live');
    await page.click('form[aria-label="Create an API key"] button[type="submit"]');
    mobilityKey = await textOf('[data-testid="api-key-token"]');
    expect(mobilityKey).toMatch(/^mk_/);
  }, 120_000);

  describe('webhook endpoint (item 1)', () => {
    let endpointPath = '';

    it('shows the success rate, latency and volume after some deliveries', async () => {
      await visit('/webhooks', 'Webhooks');
      const url = `${receiver.url}/hooks/anchors`;
      await type('form[aria-label="Register a webhook endpoint"] input[name="url"]', url);
      await page.click('form[aria-label="Register a webhook endpoint"] input[name="events"][value="ride.cancelled"]');
      await page.click('form[aria-label="Register a webhook endpoint"] button[type="submit"]');
      await page.waitForSelector('[data-testid="webhook-secret"]', WAIT);
      for (let i = 0; i < 2; i++) {
        const ride = await partner('/api/v1/rides', { method: 'POST', body: JSON.stringify(RIDE) });
        expect(ride.status).toBe(201);
        expect((await partner(`/api/v1/rides/${encodeURIComponent(String(ride.body.id))}/cancel`, { method: 'POST' })).status).toBe(200);
      }

      await visit('/webhooks', 'Webhooks');
      await (await page.waitForSelector(`main table a::-p-text("${url}")`, WAIT))!.click();
      await page.waitForSelector('[data-testid="delivery-log"]', WAIT);
      endpointPath = new URL(page.url()).pathname.replace(/^\/dashboard/, '');
      await reloadUntil(() => document.querySelector('[data-testid="messages-24h"]')?.textContent === '2');
      expect(await textOf('[data-testid="success-rate-24h"]')).toBe('100 %');
      expect(await textOf('[data-testid="attempts-24h"]')).toBe('2 (0 failed)');
      expect(await textOf('[data-testid="latency-p50-24h"]')).toMatch(/^\d+ ms$/);
      expect(await textOf('[data-testid="latency-p95-7d"]')).toMatch(/^\d+ ms$/);
      expect(await textOf('[data-testid="messages-7d"]')).toBe('2');
      expect(hooks.filter((hook) => hook.headers['x-service-event-type'] === 'ride.cancelled')).toHaveLength(2);
      await checkPage('endpoint-stats');
      const stats = await page.waitForSelector('[data-testid="endpoint-stats"]', WAIT);
      await stats!.scrollIntoView();
      await keepForDocs(SUITE, 'endpoint-stats', 'dashboard-endpoint-stats.png');
    }, 150_000);

    it('sends an example event that arrives at the receiver, signed and marked as an example', async () => {
      await visit(endpointPath, 'Webhook endpoint');
      const form = 'form[aria-label="Send an example event"]';
      await page.waitForSelector(form, WAIT);
      await page.select(`${form} select[name="event_type"]`, 'ride.cancelled');
      const before = hooks.length;
      await page.click(`${form} button[type="submit"]`);
      expect(await textOf(`${form} [role="status"]`)).toMatch(/^Example ride\.cancelled event queued \(evt_/);
      for (let i = 0; i < 30 && hooks.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 500));
      const example = hooks[before]!;
      const body = JSON.parse(example.body.toString('utf8')) as { type: string; example?: boolean; data: Record<string, unknown> };
      expect(body).toMatchObject({ type: 'ride.cancelled', example: true, data: { status: 'cancelled' } });
      expect(example.headers['webhook-signature']).toMatch(/^v1,/);
      expect(example.headers['x-service-event-type']).toBe('ride.cancelled');
      await checkPage('endpoint-example-sent');
    }, 90_000);
  });

  describe('lists (item 2)', () => {
    it('exports the certificates to a CSV file, escaped and guarded against formulas', async () => {
      await visit('/certificates', 'Certificates');
      const csv = path.join(files, 'upload.csv');
      writeFileSync(csv, 'recipient_name,program_title,issue_date\nGrace Hopper,"@Compilers, Advanced",2026-05-01\nKatherine Johnson,Orbits,2026-05-02\n');
      const input = await page.waitForSelector('input[data-testid="batch-file"]', WAIT);
      await input!.uploadFile(csv);
      await page.click('form[aria-label="Upload certificates CSV"] button[type="submit"]');
      await page.waitForSelector('[data-testid="batch-result"]', WAIT);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="certificate-"]').length === 2, WAIT);

      const downloads = path.join(files, 'downloads');
      const cdp = await page.createCDPSession();
      await cdp.send('Page.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
      await (await page.waitForSelector('main button::-p-text(Export CSV)', WAIT))!.click();
      expect(await textOf('.table-tools [role="status"]')).toMatch(/^Exported 2 rows to certificates-\d{4}-\d{2}-\d{2}\.csv\.$/);
      let name: string | undefined;
      for (let i = 0; i < 40 && !name; i++) {
        name = existsSync(downloads) ? readdirSync(downloads).find((file) => /^certificates-.*\.csv$/.test(file)) : undefined;
        if (!name) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const text = readFileSync(path.join(downloads, name!), 'utf8');
      const lines = text.replace(/^\uFEFF/, '').split('\r\n');
      expect(text.startsWith('\uFEFF')).toBe(true);
      expect(lines[0]).toBe('Number,Recipient,Program,Issued,Status');
      expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^[^,]+,Grace Hopper,"'@Compilers, Advanced",2026-05-01,valid$/), expect.stringMatching(/^[^,]+,Katherine Johnson,Orbits,2026-05-02,valid$/)]));

      // Sorting by a header says so with aria-sort.
      await (await page.waitForSelector('main th button::-p-text(Recipient)', WAIT))!.click();
      expect(await page.$eval('main th[aria-sort="ascending"]', (th) => th.textContent)).toMatch(/^Recipient/);
      const names = await page.$$eval('[data-testid^="certificate-"] td:nth-child(3)', (cells) => cells.map((cell) => cell.textContent));
      expect(names).toEqual(['Grace Hopper', 'Katherine Johnson']);
      await checkPage('certificates-export');
      await screenshot(page, SUITE, 'certificates-export');
    }, 120_000);
  });

  describe('command palette (item 3)', () => {
    it('opens with Ctrl+K, finds a certificate by its code and opens it', async () => {
      await visit('/', OWNER.organization);
      await visit('/certificates', 'Certificates');
      const row = await page.waitForSelector('[data-testid^="certificate-"]', WAIT);
      const number = await row!.$eval('td:nth-child(2)', (cell) => cell.textContent!.trim());
      const publicLink = await row!.$eval('a[href^="/credentials/"]', (link) => link.getAttribute('href')!);
      const code = decodeURIComponent(publicLink.replace('/credentials/', ''));

      await page.keyboard.down('Control');
      await page.keyboard.press('k');
      await page.keyboard.up('Control');
      const combobox = await page.waitForSelector('[role="dialog"] [role="combobox"]', WAIT);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
      await combobox!.type(code.toLowerCase().slice(0, 9));
      await page.waitForFunction((text) => Array.from(document.querySelectorAll('[role="option"]')).some((option) => option.textContent!.includes(text)), WAIT, number);
      await checkPage('command-palette');
      await screenshot(page, SUITE, 'command-palette');
      // The certificate is the only result; the arrow keys move to it from the pages (none match the code).
      const selected = await page.$eval('[role="option"][aria-selected="true"]', (option) => option.textContent);
      expect(selected).toContain(number);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => !document.querySelector('[role="dialog"]'), WAIT);
      await page.waitForFunction((text) => new URL(location.href).searchParams.get('search') === text, WAIT, number);
      expect(new URL(page.url()).pathname).toBe('/dashboard/certificates');
      await page.waitForFunction((text) => document.querySelectorAll('[data-testid^="certificate-"]').length === 1 && document.querySelector('[data-testid^="certificate-"]')!.textContent!.includes(text), WAIT, number);
      await checkPage('certificate-from-palette');
    }, 90_000);

    it('fits a 360 px screen: the palette, the filter and export tools and the endpoint statistics do not scroll sideways', async () => {
      await page.setViewport({ width: 360, height: 740 });
      try {
        await visit('/webhooks', 'Webhooks');
        await (await page.waitForSelector('main table a', WAIT))!.click();
        await page.waitForSelector('[data-testid="endpoint-stats"]', WAIT);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
        await (await page.waitForSelector('button.palette-button', WAIT))!.click();
        await page.waitForSelector('[role="dialog"] [role="combobox"]', WAIT);
        await page.keyboard.type('Mem');
        await page.waitForFunction(() => Array.from(document.querySelectorAll('[role="option"]')).some((option) => option.textContent!.includes('Members')), WAIT);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
        await expectAccessible('command-palette-360');
        await screenshot(page, SUITE, 'command-palette-360');
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => location.pathname === '/dashboard/members' && document.querySelector('main h1')?.textContent === 'Members', WAIT);
        await page.waitForSelector('main table', WAIT);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
        await expectAccessible('members-360');
      } finally {
        await page.setViewport({ width: 1280, height: 900 });
      }
    }, 90_000);
  });
});
