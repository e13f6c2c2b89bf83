/**
 * The dashboard's second round end to end: the real system behind its gateway, driven in Debian's Chromium,
 * with axe-core run on every page visited. One organization signed up first; the tests run in order and build on it.
 * Screenshots go to test-artifacts/dashboard-round2/; the home page's also to docs/images/dashboard-home.png with UPDATE_DOCS_IMAGES=1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'dashboard-round2';
const OWNER = { name: 'Katherine Johnson', email: 'katherine@example.test', password: 'orbital mechanics 1962', organization: 'Trajectory Works' };
const RIDE = { pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4654, lng: 3.4064 }, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348020000000' } };

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
let files: string;
const { textOf, type, visit, waitForHeading, expectAccessible, keepForDocs, signUpOwner, gatewayFetch } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  files = mkdtempSync(path.join(os.tmpdir(), 'dashboard-round2-'));
  [system, browser] = await startTogether([startSystem('e2e_dashboard_round2'), launchBrowser()]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

async function createMobilityKey(name: string, mode: 'live' | 'test'): Promise<string> {
  await visit('/api-keys/mobility', 'Mobility API keys');
  await type('form[aria-label="Create an API key"] input[name="name"]', name);
  for (const scope of ['rides:write', 'rides:read']) await page.click(`form[aria-label="Create an API key"] input[name="scopes"][value="${scope}"]`);
  await page.select('form[aria-label="Create an API key"] select[name="mode"]', mode);
  await page.click('form[aria-label="Create an API key"] button[type="submit"]');
  const token = await textOf('[data-testid="api-key-token"]');
  await page.waitForFunction((text) => document.querySelector('main table')?.textContent?.includes(text), WAIT, name);
  return token;
}

async function uploadCsv(name: string, rows: string): Promise<void> {
  const file = path.join(files, name);
  writeFileSync(file, `recipient_name,program_title,issue_date\n${rows}\n`);
  const input = await page.waitForSelector('input[data-testid="batch-file"]', WAIT);
  await input!.uploadFile(file);
  await page.click('form[aria-label="Upload certificates CSV"] button[type="submit"]');
  await page.waitForSelector('[data-testid="batch-result"]', WAIT);
}

describe('the dashboard, round 2, in Chromium', () => {
  it('signs up an organization owner', async () => {
    await signUpOwner(system, OWNER);
  }, 120_000);

  describe('defects seen (item 9)', () => {
    it('shows a not-found page for an unknown path, with its own title; the top bar keeps its height on a short page', async () => {
      await visit('/no-such-page', 'Page not found');
      expect(new URL(page.url()).pathname).toBe('/dashboard/no-such-page');
      expect(await textOf('[data-testid="not-found"]')).toContain('/no-such-page');
      expect(await page.title()).toBe('Page not found · Partner dashboard');
      const topbar = await page.$eval('.topbar', (element) => element.getBoundingClientRect().height);
      expect(topbar).toBeLessThan(100);
      await expectAccessible('not-found');
      await screenshot(page, SUITE, 'not-found');
    }, 60_000);

    it('gives every page its own title and a favicon served by the gateway from the dashboard build', async () => {
      const titles: Record<string, string> = {};
      for (const [pathname, heading] of [['/certificates', 'Certificates'], ['/templates', 'Templates'], ['/billing', 'Credits & plan'], ['/rides', 'Rides']] as const) {
        await visit(pathname, heading);
        titles[pathname] = await page.title();
      }
      expect(titles).toEqual({
        '/certificates': 'Certificates · Partner dashboard',
        '/templates': 'Templates · Partner dashboard',
        '/billing': 'Credits & plan · Partner dashboard',
        '/rides': 'Rides · Partner dashboard',
      });
      const icon = await page.$eval('link[rel="icon"]', (link) => (link as HTMLLinkElement).href);
      expect(new URL(icon).pathname).toBe('/dashboard/favicon.svg');
      const answer = await fetch(icon);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/svg+xml');
      expect(await answer.text()).toContain('<svg');
    }, 90_000);

    it('shows people words for enum values (the plan is "Free", not "free")', async () => {
      await visit('/billing', 'Credits & plan');
      await page.waitForSelector('[data-testid="current-plan"]', WAIT);
      expect(await textOf('[data-testid="current-plan"]')).toBe('Free');
      await expectAccessible('billing');
    }, 60_000);

    it('lists certificates newest first, hides the pager of a single page, and revokes with a danger-styled button', async () => {
      await visit('/certificates', 'Certificates');
      // Three uploads, one after another: three creation times.
      await uploadCsv('first.csv', 'First Recipient,Orbits 101,2026-05-01');
      await uploadCsv('second.csv', 'Second Recipient,Orbits 101,2026-05-01');
      await uploadCsv('third.csv', 'Third Recipient,Orbits 101,2026-05-01');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="certificate-"]').length === 3, WAIT);
      const order = await page.$$eval('[data-testid^="certificate-"]', (rows) => rows.map((row) => /(\w+) Recipient/.exec((row as HTMLElement).innerText)?.[1]));
      expect(order).toEqual(['Third', 'Second', 'First']);
      expect(await page.$('nav[aria-label="Certificate pages"]')).toBeNull();
      expect(await page.$$eval('main button', (buttons) => buttons.filter((button) => /previous|next/i.test(button.textContent ?? '')).length)).toBe(0);
      const revoke = await page.waitForSelector('[data-testid^="certificate-"] button.danger', WAIT);
      const colours = await revoke!.evaluate((button) => {
        const style = getComputedStyle(button);
        const primary = getComputedStyle(document.querySelector('button[type="submit"]')!);
        return { background: style.backgroundColor, primary: primary.backgroundColor };
      });
      expect(colours.background).toBe('rgb(179, 38, 30)');
      expect(colours.background).not.toBe(colours.primary);
      await expectAccessible('certificates');
      await screenshot(page, SUITE, 'certificates-newest-first');
    }, 120_000);

    it('on a refused form shows the field errors only and moves focus to the first of them, in view', async () => {
      await page.setViewport({ width: 360, height: 600 });
      await visit('/certificates', 'Certificates');
      // The submit button is far down the narrow page; the first field is off-screen once it is clicked.
      const submit = await page.waitForSelector('form[aria-label="Issue a certificate"] button[type="submit"]', WAIT);
      await submit!.scrollIntoView();
      const answer = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/certificate/certificates') && response.request().method() === 'POST', WAIT);
      await submit!.click();
      expect((await answer).status()).toBe(422);
      await page.waitForSelector('[data-testid="error-recipient_name"]', WAIT);
      expect(await page.$('form[aria-label="Issue a certificate"] [data-testid="form-error"]')).toBeNull();
      expect(await page.evaluate(() => document.querySelector('main')!.innerText)).not.toContain('Request validation failed');
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'recipient_name', WAIT);
      const focused = await page.evaluate(() => {
        const rect = document.activeElement!.getBoundingClientRect();
        return { invalid: document.activeElement!.getAttribute('aria-invalid'), inView: rect.top >= 0 && rect.bottom <= window.innerHeight };
      });
      expect(focused).toEqual({ invalid: 'true', inView: true });
      await expectAccessible('certificates-refused');
      await screenshot(page, SUITE, 'certificates-field-errors-360');
      await page.setViewport({ width: 1280, height: 900 });
    }, 90_000);
  });

  describe('test mode (item 1)', () => {
    let liveRide = '';
    let testRide = '';

    it('shows a live/test badge on every key row', async () => {
      const liveKey = await createMobilityKey('Live dispatch', 'live');
      const testKey = await createMobilityKey('Staging dispatch', 'test');
      expect(testKey).toMatch(/^mk_test_/);
      const badges = await page.$$eval('main tbody tr', (rows) => rows.map((row) => [row.querySelector('strong')?.textContent, row.querySelector('[data-testid="mode-badge"]')?.textContent]));
      expect(badges).toEqual(expect.arrayContaining([['Live dispatch', 'Live'], ['Staging dispatch', 'Test']]));
      await expectAccessible('api-keys-mobility');
      await visit('/api-keys/certificate', 'Certificate API keys');
      await type('form[aria-label="Create an API key"] input[name="name"]', 'Issuing robot');
      await page.click('form[aria-label="Create an API key"] button[type="submit"]');
      await page.waitForSelector('[data-testid="api-key-token"]', WAIT);
      await page.waitForFunction(() => document.querySelector('main tbody [data-testid="mode-badge"]')?.textContent === 'Live', WAIT);

      const headers = (token: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });
      const live = await gatewayFetch('/api/v1/rides', { method: 'POST', headers: headers(liveKey), body: JSON.stringify(RIDE) });
      expect(live.status).toBe(201);
      liveRide = String(live.body.id);
      const test = await gatewayFetch('/api/v1/rides', { method: 'POST', headers: headers(testKey), body: JSON.stringify(RIDE) });
      expect(test.status).toBe(201);
      testRide = String(test.body.id);
      const advanced = await gatewayFetch(`/api/v1/sandbox/rides/${encodeURIComponent(testRide)}/advance`, { method: 'POST', headers: headers(testKey), body: JSON.stringify({ to: 'accepted' }) });
      expect(advanced.status).toBe(200);
    }, 120_000);

    it('switches rides and webhook endpoints to test data with a banner, and back', async () => {
      await visit('/rides', 'Rides');
      await page.waitForFunction((id) => document.querySelector('main table')?.textContent?.includes(id), WAIT, liveRide);
      expect(await page.evaluate(() => document.querySelector('main table')!.textContent)).not.toContain(testRide);
      expect(await page.$('[data-testid="test-mode-banner"]')).toBeNull();

      await page.click('[data-testid="mode-switch"]');
      expect(await textOf('[data-testid="test-mode-banner"]')).toMatch(/test mode/i);
      await page.waitForFunction((id) => document.querySelector('main table')?.textContent?.includes(id), WAIT, testRide);
      expect(await page.evaluate(() => document.querySelector('main table')!.textContent)).not.toContain(liveRide);
      expect(await page.evaluate(() => document.querySelector('main table')!.textContent)).toContain('Accepted');
      await expectAccessible('rides-test-mode');
      await screenshot(page, SUITE, 'rides-test-mode');

      // The sandbox's ride: its driver line names the vehicle without the placeholder colour.
      await (await page.waitForSelector(`main table a::-p-text("${testRide}")`, WAIT))!.click();
      await waitForHeading(/^Ride /);
      const assignee = await textOf('[data-testid="assignee"]');
      expect(assignee).toContain('Sandbox Driver');
      expect(assignee).toContain('SANDBOX');
      expect(assignee).not.toMatch(/\bnone\b/i);
      await page.waitForFunction(() => document.querySelector('[data-testid="status-history"]')?.textContent?.includes('Accepted'), WAIT);
      await expectAccessible('ride-test-mode');

      // The mode is in the address (/dashboard/test/…), so it holds across a page load; an endpoint registered in test
      // mode is a test endpoint only.
      expect(new URL(page.url()).pathname).toBe(`/dashboard/test/rides/${testRide}`);
      await visit('/test/webhooks', 'Webhooks');
      expect(await page.$('[data-testid="test-mode-banner"]')).not.toBeNull();
      await type('form[aria-label="Register a webhook endpoint"] input[name="url"]', 'http://127.0.0.1:9/staging-hooks');
      await page.click('form[aria-label="Register a webhook endpoint"] input[name="events"][value="ride.cancelled"]');
      await page.click('form[aria-label="Register a webhook endpoint"] button[type="submit"]');
      await page.waitForSelector('[data-testid="webhook-secret"]', WAIT);
      await page.waitForFunction(() => document.querySelector('main table')?.textContent?.includes('http://127.0.0.1:9/staging-hooks'), WAIT);
      await expectAccessible('webhooks-test-mode');

      await page.click('[data-testid="mode-switch"]');
      await page.waitForFunction(() => !document.querySelector('[data-testid="test-mode-banner"]'), WAIT);
      await page.waitForFunction(() => document.querySelector('main table') && !document.querySelector('main')!.textContent!.includes('Loading'), WAIT);
      expect(await page.evaluate(() => document.querySelector('main table')!.textContent)).not.toContain('http://127.0.0.1:9/staging-hooks');
      await visit('/rides', 'Rides');
      await page.waitForFunction((id) => document.querySelector('main table')?.textContent?.includes(id), WAIT, liveRide);
      expect(await page.evaluate(() => document.querySelector('main table')!.textContent)).not.toContain(testRide);
      await expectAccessible('rides-live');
    }, 120_000);
  });

  describe('home (item 2)', () => {
    it('shows the numbers, a checklist that ticks itself from real data, per-day charts and the link to /docs', async () => {
      await visit('/', OWNER.organization);
      expect(await page.title()).toBe('Overview · Partner dashboard');
      await page.waitForFunction(() => document.querySelector('[data-testid="certificates-issued"]')?.textContent === '3', WAIT);
      expect(await textOf('[data-testid="credits-used"]')).toBe('3');
      expect(await textOf('[data-testid="credits-left"]')).toMatch(/^\d+$/);
      await page.waitForFunction(() => document.querySelector('[data-testid="rides-today"]')?.textContent === '1', WAIT);
      expect(await textOf('[data-testid="deliveries-today"]')).toBe('0');
      expect(await textOf('[data-testid="failing-endpoints"]')).toBe('0');
      const steps = await page.$$eval('[data-testid="checklist"] li', (items) => Object.fromEntries(items.map((item) => [item.getAttribute('data-testid'), item.getAttribute('data-done')])));
      // Live mode: the only endpoint is a test one.
      expect(steps).toMatchObject({ 'step-keyCreated': 'true', 'step-certificateIssued': 'true', 'step-endpointRegistered': 'false' });
      expect(await page.$eval('main a[href="/docs"]', (link) => link.textContent)).toBe('/docs');
      // Today's bar in both charts (recharts draws SVG rectangles; no CDN: the afterEach checks every request).
      await page.waitForSelector('[data-testid="chart-certificates"] svg .recharts-bar-rectangle', WAIT);
      await page.waitForSelector('[data-testid="chart-credits"] svg .recharts-bar-rectangle', WAIT);
      await expectAccessible('home');
      await keepForDocs(SUITE, 'home', 'dashboard-home.png');

      // In test mode the test endpoint counts: the step ticks.
      await page.click('[data-testid="mode-switch"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="step-endpointRegistered"]')?.getAttribute('data-done') === 'true', WAIT);
      await page.click('[data-testid="mode-switch"]');
      await page.waitForFunction(() => !document.querySelector('[data-testid="test-mode-banner"]'), WAIT);
    }, 120_000);
  });
});
