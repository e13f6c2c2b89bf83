/**
 * Trips end to end (dashboard issue 37, defects 3 and 10): the real system behind its gateway, driven in Debian's
 * Chromium with axe-core on every page. A test-mode key moves trips with the sandbox; the dashboard shows a failed
 * delivery's reason and next step, a ride's timeline (each change's events linking to their messages), route and
 * fare in parts; the recipient's tracking page of a delivered parcel shows it completed; the branding form previews
 * the tracking page's header as it is typed. No horizontal scrolling at 1280 px (dashboard) or 390 px (tracking page).
 * Screenshots: test-artifacts/trips/ and, with UPDATE_DOCS_IMAGES=1, docs/images/dashboard-ride-detail.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { startFakeServer } from '@platform/test-kit';
import { launchBrowser, refuseForeignRequests, screenshot } from '../helpers/browser';
import { axeViolations } from '../helpers/axe';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'trips';
const OWNER = { name: 'Dorothy Vaughan', email: 'dorothy@example.test', password: 'fortran for the west area 1961', organization: 'West Area Couriers' };
const PICKUP = { lat: 6.4541, lng: 3.3947, address: '12 Marina Road, Lagos Island' };
const DROPOFF = { lat: 6.4654, lng: 3.4064, address: '3 Awolowo Road, Ikoyi' };
const RIDE = { pickup: PICKUP, dropoff: DROPOFF, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348020000000' } };
const DELIVERY = {
  pickup: PICKUP,
  dropoff: DROPOFF,
  sender: { name: 'Ada Obi', phone: '+2348020000000' },
  recipient: { name: 'Tunde Bello', phone: '+2348098765432' },
  weight_tier: 'small',
};
/** A 1×1 PNG: the logo the branding form uploads. */
const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
let files: string;
let testKey = '';
let receiver: Awaited<ReturnType<typeof startFakeServer>>;
const { textOf, type, clear, visit, expectAccessible, keepForDocs, signUpOwner } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  files = mkdtempSync(path.join(os.tmpdir(), 'trips-e2e-'));
  [system, browser, receiver] = await startTogether([
    startSystem('e2e_trips'),
    launchBrowser(),
    startFakeServer((_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    }),
  ]);
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

/** The partner API with the test-mode key; a JSON body is sent and parsed. */
async function api(pathname: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${system.gatewayUrl}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${testKey}`, 'Content-Type': 'application/json' },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function created(pathname: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await api(pathname, { method: 'POST', body });
  expect(answer.status).toBe(201);
  return answer.body;
}

async function advance(kind: 'rides' | 'deliveries', id: unknown, to: string): Promise<void> {
  const answer = await api(`/api/v1/sandbox/${kind}/${encodeURIComponent(String(id))}/advance`, { method: 'POST', body: { to } });
  expect(answer.status).toBe(200);
}

/** Nothing scrolls sideways: the page is no wider than the window. */
async function expectNoHorizontalOverflow(on: Page = page): Promise<void> {
  const widths = await on.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

describe('trips in the dashboard and on the tracking page, in Chromium', () => {
  it('signs up an owner and makes a test-mode mobility key', async () => {
    await signUpOwner(system, OWNER);
    await visit('/api-keys/mobility', 'Mobility API keys');
    await type('form[aria-label="Create an API key"] input[name="name"]', 'trips sandbox');
    for (const scope of ['rides:write', 'rides:read', 'deliveries:write', 'deliveries:read', 'webhooks:manage']) {
      await page.click(`form[aria-label="Create an API key"] input[name="scopes"][value="${scope}"]`);
    }
    await page.select('form[aria-label="Create an API key"] select[name="mode"]', 'test');
    await page.click('form[aria-label="Create an API key"] button[type="submit"]');
    testKey = await textOf('[data-testid="api-key-token"]');
    expect(testKey).toMatch(/^mk_test_/);
    // A test-mode endpoint receives the trips' events: the timeline links to its messages.
    const endpoint = await created('/api/v1/webhooks', { url: `${receiver.url}/hooks/trips` });
    expect(endpoint.id).toEqual(expect.stringMatching(/^whe_/));
  }, 180_000);

  it('says why a delivery nobody accepted failed and what to do next', async () => {
    const delivery = await created('/api/v1/deliveries', DELIVERY);
    await advance('deliveries', delivery.id, 'failed');
    await visit(`/test/deliveries/${String(delivery.id)}`, `Delivery ${String(delivery.id)}`);
    const outcome = await textOf('[data-testid="trip-outcome"]');
    expect(outcome).toMatch(/No courier accepted within \d+ minutes?\./);
    expect(outcome).toContain('Nothing was charged; create the delivery again or widen the area');
    expect(await textOf('[data-testid="trip-details"]')).toContain('no_couriers_available');
    await page.waitForSelector('[data-testid="status-history"]', WAIT);
    expect(await textOf('[data-testid="status-history"]')).toMatch(/Pending[\s\S]*Failed[\s\S]*delivery\.failed/);
    await expectNoHorizontalOverflow();
    await expectAccessible('failed-delivery');
    await screenshot(page, SUITE, 'failed-delivery');
  }, 120_000);

  it("shows a ride's timeline with the events it sent linking to their messages, its route and its fare in parts", async () => {
    const ride = await created('/api/v1/rides', RIDE);
    await advance('rides', ride.id, 'completed');
    const id = String(ride.id);
    // The relay writes the messages moments after the changes commit: reload until the last one shows.
    for (let attempt = 0; attempt < 60; attempt++) {
      await visit(`/test/rides/${id}`, `Ride ${id}`);
      await page.waitForSelector('[data-testid="status-history"]', WAIT);
      if ((await page.$$('[data-testid="status-history"] a[href*="message=whd_"]')).length >= 4) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const statuses = await page.$$eval('[data-testid="status-history"] > li > strong', (items) => items.map((item) => item.textContent));
    expect(statuses).toEqual(['Pending', 'Accepted', 'Arrived', 'In progress', 'Completed']);
    const times = await page.$$eval('[data-testid="status-history"] > li > time', (items) => items.map((item) => [item.getAttribute('datetime'), item.textContent]));
    for (const [iso, shown] of times) {
      expect(Number.isNaN(Date.parse(String(iso)))).toBe(false);
      expect(shown).toMatch(/\d{4}/);
    }
    expect(await textOf('[data-testid="status-history"] > li:last-child')).toMatch(/ride\.completed[\s\S]*Message whd_\w+ to http:\/\/127\.0\.0\.1:\d+\/hooks\/trips/);
    // The route: an inline drawing, pick-up and drop-off, nothing loaded from elsewhere (foreign requests are refused).
    const map = await page.$eval('[data-testid="route-map"]', (svg) => ({ label: svg.getAttribute('aria-label'), lines: svg.querySelectorAll('line').length, dots: svg.querySelectorAll('circle').length }));
    expect(map.label).toMatch(/^Route from the pick-up \(12 Marina Road, Lagos Island\) to the drop-off \(3 Awolowo Road, Ikoyi\)/);
    expect(map).toMatchObject({ lines: 1, dots: 2 });
    // The fare in parts.
    const price = await textOf('[data-testid="price-breakdown"]');
    for (const part of ['Base', 'Distance', 'Time', 'Surge', 'Total', 'Currency NGN']) expect(price).toContain(part);
    await expectNoHorizontalOverflow();
    await expectAccessible('ride-detail');
    await keepForDocs(SUITE, 'ride-detail', 'dashboard-ride-detail.png');

    // A message opens in its endpoint's message log, its row open with the payload that was sent.
    const link = await page.waitForSelector('[data-testid="status-history"] > li:last-child a[href*="message=whd_"]', WAIT);
    const messageId = new URL(await link!.evaluate((a) => (a as HTMLAnchorElement).href)).searchParams.get('message');
    await link!.click();
    await page.waitForSelector(`[data-testid="delivery-${messageId}"][aria-current="true"]`, WAIT);
    const payload = JSON.parse(await textOf('[data-testid="message-payload"]')) as { type: string; data: { id: string } };
    expect(payload).toMatchObject({ type: 'ride.completed', data: { id } });
    await expectNoHorizontalOverflow();
    await expectAccessible('linked-message');
  }, 180_000);

  it("shows a delivered parcel's tracking page as completed, at 390 px", async () => {
    const delivery = await created('/api/v1/deliveries', DELIVERY);
    await advance('deliveries', delivery.id, 'delivered');
    const tracking = await browser.newPage();
    const offOrigin = refuseForeignRequests(tracking, system.gatewayUrl);
    await tracking.setViewport({ width: 390, height: 844 });
    const trackingPath = new URL(String(delivery.tracking_url)).pathname;
    await tracking.goto(`${system.gatewayUrl}${trackingPath}`, { waitUntil: 'networkidle0', timeout: 60_000 });
    const text = (selector: string) => tracking.$eval(selector, (element) => (element as HTMLElement).innerText.trim());
    expect(await text('#status')).toBe('Your parcel has been delivered.');
    expect(await text('#ended')).toMatch(/^Delivered at \d\d:\d\d UTC$/);
    expect(await text('#refresh-note')).toBe('This delivery has ended; this page no longer refreshes.');
    expect(await text('#legend')).not.toContain('your courier');
    expect(await text('#courier')).not.toMatch(/none|Sandbox ·/);
    expect(await tracking.$eval('#tracking', (main) => main.getAttribute('data-final'))).toBe('true');
    // The line is solid from end to end; nothing polls.
    const rest = await tracking.$eval('#route-rest', (line) => getComputedStyle(line).strokeDasharray);
    expect(rest).toBe('none');
    expect(await tracking.$('script')).toBeNull();
    await expectNoHorizontalOverflow(tracking);
    expect({ page: 'tracking-delivered', violations: await axeViolations(tracking) }).toEqual({ page: 'tracking-delivered', violations: [] });
    await screenshot(tracking, SUITE, 'tracking-delivered');
    expect(offOrigin).toEqual([]);
    await tracking.close();
  }, 120_000);

  it('previews the tracking page header live as the branding is typed, and saves it', async () => {
    await visit('/branding', 'Tracking page branding');
    await page.waitForSelector('[data-testid="branding-preview"]', WAIT);
    await type('form[aria-label="Tracking page branding"] input[name="display_name"]', 'West Area Parcels');
    expect(await textOf('[data-testid="preview-name"]')).toBe('West Area Parcels');
    await clear('form[aria-label="Tracking page branding"] input[name="brand_color"]');
    await type('form[aria-label="Tracking page branding"] input[name="brand_color"]', '#0b6e4f');
    expect(await page.$eval('[data-testid="preview-bar"]', (rect) => rect.getAttribute('fill'))).toBe('#0b6e4f');
    expect(await page.$eval('[data-testid="preview-route"]', (line) => line.getAttribute('stroke'))).toBe('#0b6e4f');
    const logo = path.join(files, 'logo.png');
    writeFileSync(logo, LOGO_PNG);
    await (await page.waitForSelector('form[aria-label="Tracking page branding"] input[type="file"]', WAIT))!.uploadFile(logo);
    await page.waitForFunction(() => document.querySelector('[data-testid="preview-logo"]')?.getAttribute('src')?.startsWith('data:image/png;base64,'), WAIT);
    await expectNoHorizontalOverflow();
    await expectAccessible('branding-preview');
    await screenshot(page, SUITE, 'branding-preview');
    const saved = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/mobility/partner/branding') && response.request().method() === 'PATCH', WAIT);
    await page.click('form[aria-label="Tracking page branding"] button[type="submit"]');
    expect((await saved).status()).toBe(200);
    await page.waitForSelector('[data-testid="branding-saved"]', WAIT);
    // Saved through the existing API: the tracking page shows the new name.
    const delivery = await created('/api/v1/deliveries', DELIVERY);
    const tracking = await fetch(`${system.gatewayUrl}${new URL(String(delivery.tracking_url)).pathname}`);
    expect(await tracking.text()).toContain('<p class="sender" id="partner-name">West Area Parcels</p>');
    await expectAccessible('branding-saved');
  }, 120_000);
});
