import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import request from 'supertest';
import { createApp as createGateway } from '@platform/gateway';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { deliveryBody, onlineCourier } from './factories/deliveries';
import { offset, randomCentre } from './factories/fleet';
import { partnerApi } from './factories/rides';

/**
 * The tracking page in a real browser (Debian's chromium, driven by puppeteer-core), through the real gateway in front
 * of the real mobility app, both on ephemeral loopback ports: the courier moves through the driver API and the open
 * page follows without a reload, loading nothing from anywhere but the gateway. Screenshots go to test/artifacts/
 * (git-ignored).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, 'artifacts');
/** A cold browser on a busy machine, and a page polling every 3 s: generous waits, never a timing claim. */
const BROWSER_TEST_TIMEOUT_MS = 120_000;
jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

let ctx: TestContext;
let service: Server;
let gateway: Server;
let origin: string;
let browser: Browser;

function listening(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const close = (server: Server | undefined) => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));

beforeAll(async () => {
  // Both ports first: the service's tracking links name the gateway's origin, and the gateway the service's.
  [service, gateway] = await Promise.all([listening(), listening()]);
  origin = urlOf(gateway);
  ctx = createTestContext({ PUBLIC_BASE_URL: origin });
  service.on('request', ctx.app);
  gateway.on(
    'request',
    createGateway({ config: { CERTIFICATE_URL: 'http://127.0.0.1:9', MOBILITY_URL: urlOf(service), UPSTREAM_TIMEOUT_MS: 10_000 }, logger: pino({ level: 'silent' }) }),
  );
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-extensions', '--no-first-run', '--disable-sync'],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
}, BROWSER_TEST_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  gateway?.closeAllConnections();
  service?.closeAllConnections();
  await close(gateway);
  await close(service);
  await ctx?.close();
});

/** Opens a page at a phone's width and records every request it makes and every console error (CSP reports land there). */
async function visit(url: string): Promise<{ page: Page; requested: Array<{ url: string; type: string }>; consoleErrors: string[] }> {
  const page = await browser.newPage();
  const requested: Array<{ url: string; type: string }> = [];
  const consoleErrors: string[] = [];
  page.on('request', (req) => requested.push({ url: req.url(), type: req.resourceType() }));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(BROWSER_TEST_TIMEOUT_MS);
  await page.setViewport({ width: 360, height: 740 });
  await page.goto(url, { waitUntil: 'load' });
  return { page, requested, consoleErrors };
}

const textOf = (page: Page, selector: string) => page.$eval(selector, (element) => (element as unknown as { innerText: string }).innerText);
/** Waits until the page, by itself, shows `text` in `selector`. */
const waitForText = (page: Page, selector: string, text: string) =>
  page.waitForFunction(`document.querySelector(${JSON.stringify(selector)})?.innerText.includes(${JSON.stringify(text)})`);
const dotOf = (page: Page) => page.$eval('#courier-dot', (dot) => ({ cx: dot.getAttribute('cx'), cy: dot.getAttribute('cy'), visibility: dot.getAttribute('visibility') }));

describe('the public tracking page in a browser', () => {
  it('follows the courier from assignment to hand-over without a reload, at 360 px, loading nothing from elsewhere', async () => {
    const spot = randomCentre();
    const partner = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const courier = await onlineCourier(ctx, offset(spot, 300, 0), { name: 'Musa Ibrahim', phone: '+234 809 555 0199' });
    const created = await partner.post('/api/v1/deliveries', deliveryBody(spot, { security_pin: '90817263' })).expect(201);
    const id = created.body.id as string;
    const trackingUrl = created.body.tracking_url as string;
    expect(trackingUrl.startsWith(`${origin}/track/`)).toBe(true);

    const { page, requested, consoleErrors } = await visit(trackingUrl);
    expect(await textOf(page, '#status')).toBe('We are finding a courier for your parcel.');
    expect(await textOf(page, '#courier')).toBe('No courier yet.');
    expect(await dotOf(page)).toMatchObject({ visibility: 'hidden' });
    // Landmarks and a live region for the status.
    expect(await page.$$eval('header, main, footer', (elements) => elements.map((element) => element.tagName))).toEqual(['HEADER', 'MAIN', 'FOOTER']);
    expect(await page.$eval('#status', (element) => [element.getAttribute('role'), element.getAttribute('aria-live')])).toEqual(['status', 'polite']);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-pending.png'), fullPage: true });

    // The courier accepts: the open page shows it on its next poll.
    const offer = (await courier.app.offers()).find((o) => o.delivery_id === id);
    await courier.app.post(`/offers/${offer!.id}/accept`).expect(200);
    await waitForText(page, '#status', 'A courier is on the way to collect your parcel.');
    expect(await textOf(page, '#courier')).toMatch(/^Musa · red Honda CG125 \(Motorbike\) · MC-/);
    // On the way to the pick-up the courier's position is not shown: it would disclose the pick-up point (issue 25).
    const assignedDot = await dotOf(page);
    expect(assignedDot.visibility).toBe('hidden');
    expect(await textOf(page, '#distance')).toBe('Position not available yet.');

    // Picked up, then the courier reports a position 400 m from the drop-off.
    await courier.app.post(`/deliveries/${id}/pickup`).expect(200);
    const near = offset(offset(spot, 2000, 1500), 400, 0);
    await courier.app.post('/location', { ...near, heading: 180, speed_kph: 30 }).expect(200);
    await waitForText(page, '#status', 'Your parcel is on its way.');
    await waitForText(page, '#distance', '400 m from the drop-off area');
    expect(await textOf(page, '#eta')).toMatch(/^Arriving in about \d+ minutes?$/);
    const nearDot = await dotOf(page);
    expect(nearDot.visibility).toBe('visible');
    expect(nearDot).not.toEqual(assignedDot);
    expect(await page.$eval('#map', (map) => map.getAttribute('aria-label'))).toBe('Courier 400 m from the drop-off area');
    expect(await page.$$eval('#timeline li', (items) => items.map((item) => (item as unknown as { innerText: string }).innerText.replace(/^\S+\s*(AM|PM)?\s*/, '')))).toEqual([
      'Order placed',
      'Courier assigned',
      'Picked up',
    ]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-picked-up.png'), fullPage: true });

    await courier.app.post(`/deliveries/${id}/deliver`, { pin: '90817263' }).expect(200);
    await waitForText(page, '#status', 'Your parcel has been delivered.');
    expect(await dotOf(page)).toMatchObject({ visibility: 'hidden' });
    expect(await textOf(page, '#timeline')).toContain('Delivered');
    const shown = await page.content();
    for (const secret of ['90817263', '+234 809 555 0199', '+234 803 111 1111', '+234 804 222 2222', '5 Warehouse Lane', 'Ibrahim', id]) expect(shown).not.toContain(secret);
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-delivered.png'), fullPage: true });

    // One document load (never reloaded), the script and the status polls, every one to the gateway on loopback.
    expect(requested.filter((r) => r.type === 'document').map((r) => r.url)).toEqual([trackingUrl]);
    expect(requested.some((r) => r.url === `${origin}/track/assets/tracking.js`)).toBe(true);
    expect(requested.filter((r) => r.url.endsWith('/status')).length).toBeGreaterThanOrEqual(3);
    expect(requested.filter((r) => !r.url.startsWith(`${origin}/`))).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('an unknown token is a page saying so', async () => {
    const { page, requested } = await visit(`${origin}/track/AAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(await textOf(page, 'h1')).toBe('Tracking link not found');
    expect(requested.filter((r) => !r.url.startsWith(`${origin}/`))).toEqual([]);
    expect((await request(origin).get('/track/AAAAAAAAAAAAAAAAAAAAAAAA/status')).status).toBe(404);
    await page.close();
  });
});
