import { copyFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import request from 'supertest';
import { createApp as createGateway } from '@platform/gateway';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey } from './factories/auth';
import { deliveryBody, onlineCourier } from './factories/deliveries';
import { offset, randomCentre } from './factories/fleet';
import { dataUrl, logoPng, photoPng, signaturePng } from './factories/images';
import { partnerApi } from './factories/rides';

/**
 * The tracking page in a real browser (Debian's chromium, driven by puppeteer-core), through the real gateway in front
 * of the real mobility app, both on ephemeral loopback ports: the courier moves through the driver API and the open
 * page follows without a reload, loading nothing from anywhere but the gateway. Screenshots go to test/artifacts/
 * (git-ignored).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, 'artifacts');
/** The tracking page's screenshot in the documentation: rewritten from this test's only when UPDATE_DOCS_IMAGES=1. */
const DOCS_SCREENSHOT = path.join(__dirname, '..', '..', '..', 'docs', 'images', 'tracking-page.png');
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
const dotOf = (page: Page) => page.$eval('#courier-dot', (dot) => ({ cx: Number(dot.getAttribute('cx')), cy: Number(dot.getAttribute('cy')), visibility: dot.getAttribute('visibility') }));
const pointOf = (page: Page, selector: string) => page.$eval(selector, (dot) => ({ x: Number(dot.getAttribute('cx')), y: Number(dot.getAttribute('cy')) }));
/** Whether the rendered `<img>` loaded and decoded (its natural width is known only then). */
const imageLoaded = (page: Page, selector: string) => page.$eval(selector, (img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0);
const offOrigin = (requested: Array<{ url: string }>) => requested.filter((r) => !r.url.startsWith(`${origin}/`));

/**
 * A pick-up and a drop-off about 2.5 km apart whose rounding to about 100 m (the ends of the page's route line) moves
 * each about 50 m away from the other, so the drawn line is longer than the real one: a courier placed along the real
 * line would show a few per cent off on the drawn one.
 */
function routeRoundedApart() {
  const centre = randomCentre();
  const grid = (value: number) => Math.floor(value * 1000) / 1000;
  const exact = (value: number) => Math.round(value * 1e6) / 1e6;
  const lat = grid(centre.lat);
  const lng = grid(centre.lng);
  return { pickup: { lat: exact(lat + 0.00049), lng: exact(lng + 0.00049) }, dropoff: { lat: exact(lat + 0.01851), lng: exact(lng + 0.01451) } };
}

describe('the public tracking page in a browser', () => {
  it('follows a branded delivery from creation to expiry without a reload, at 360 px, loading nothing from elsewhere', async () => {
    const spot = randomCentre();
    const key = await createPartnerKey(ctx);
    await request(ctx.app)
      .patch('/admin/v1/partner/branding')
      .set('Authorization', `Bearer ${adminToken(ctx, key.owner)}`)
      .send({ display_name: 'Mama Put Kitchen', brand_color: '#0b6e4f', logo: dataUrl(logoPng()) })
      .expect(200);
    const partner = partnerApi(ctx, key.token);
    const courier = await onlineCourier(ctx, offset(spot, 300, 0), { name: 'Musa Ibrahim', phone: '+234 809 555 0199' });
    const created = await partner.post('/api/v1/deliveries', deliveryBody(spot, { security_pin: '90817263' })).expect(201);
    const id = created.body.id as string;
    const trackingUrl = created.body.tracking_url as string;
    expect(trackingUrl.startsWith(`${origin}/track/`)).toBe(true);

    // Created: the partner's name and logo (from this origin), the route with no courier, no ETA, no TEST marker.
    const { page, requested, consoleErrors } = await visit(trackingUrl);
    expect(await textOf(page, '#status')).toBe('We are finding a courier for your parcel.');
    expect(await textOf(page, '#courier')).toBe('No courier yet.');
    expect(await textOf(page, '#partner-name')).toBe('Mama Put Kitchen');
    expect(await imageLoaded(page, '#partner-logo')).toBe(true);
    expect(await page.$('#test-marker')).toBeNull();
    expect(await dotOf(page)).toMatchObject({ visibility: 'hidden' });
    expect(await textOf(page, '#eta')).toBe('');
    const pickupDot = await pointOf(page, '#pickup-dot');
    const dropoffDot = await pointOf(page, '#dropoff-dot');
    // North up: the drop-off is north-east of the pick-up.
    expect(dropoffDot.x).toBeGreaterThan(pickupDot.x);
    expect(dropoffDot.y).toBeLessThan(pickupDot.y);
    // Landmarks, a live region for the status, a text alternative for the drawing, no horizontal scrolling.
    expect(await page.$$eval('header, main, footer', (elements) => elements.map((element) => element.tagName))).toEqual(['HEADER', 'MAIN', 'FOOTER']);
    expect(await page.$eval('#status', (element) => [element.getAttribute('role'), element.getAttribute('aria-live')])).toEqual(['status', 'polite']);
    expect(await page.$eval('#map', (map) => [map.getAttribute('role'), map.getAttribute('aria-label')])).toEqual(['img', 'Route from the pick-up to the drop-off; no courier position shown']);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-pending.png'), fullPage: true });

    // The courier accepts: the open page shows it and an ETA (to the pick-up and on), but not where the courier is.
    const offer = (await courier.app.offers()).find((o) => o.delivery_id === id);
    await courier.app.post(`/offers/${offer!.id}/accept`).expect(200);
    await waitForText(page, '#status', 'A courier is on the way to collect your parcel.');
    expect(await textOf(page, '#courier')).toMatch(/^Musa · red Honda CG125 \(Motorbike\) · MC-/);
    expect(await textOf(page, '#eta')).toMatch(/^Parcel expected at the drop-off in about \d+ minutes?$/);
    expect((await dotOf(page)).visibility).toBe('hidden');
    expect(await textOf(page, '#distance')).toBe('Position not available yet.');

    // Picked up, the courier halfway along: the dot is on the line between the pick-up and the drop-off.
    await courier.app.post(`/deliveries/${id}/pickup`).expect(200);
    const halfway = offset(spot, 1000, 750);
    await courier.app.post('/location', { ...halfway, heading: 35, speed_kph: 30 }).expect(200);
    await waitForText(page, '#status', 'Your parcel is on its way.');
    await waitForText(page, '#distance', ' km from the drop-off area');
    expect(await textOf(page, '#distance')).toMatch(/^1\.[23] km from the drop-off area$/);
    const dot = await dotOf(page);
    expect(dot.visibility).toBe('visible');
    const along = (dot.cx - pickupDot.x) / (dropoffDot.x - pickupDot.x);
    expect(along).toBeGreaterThan(0.4);
    expect(along).toBeLessThan(0.6);
    expect(dot.cy).toBeCloseTo(pickupDot.y + (dropoffDot.y - pickupDot.y) * along, 0);
    expect(await page.$eval('#map', (map) => map.getAttribute('aria-label'))).toMatch(/^Route from the pick-up to the drop-off; the courier is (4\d|5\d|60)% of the way, 1\.[23] km from the drop-off area$/);
    expect(await textOf(page, '#eta')).toMatch(/^Parcel expected at the drop-off in about \d+ minutes?$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-page.png'), fullPage: true });
    if (process.env.UPDATE_DOCS_IMAGES === '1') copyFileSync(path.join(ARTIFACTS, 'tracking-page.png'), DOCS_SCREENSHOT);

    // Delivered with a photo and a signature: the open page shows them, fetched from this origin.
    await courier.app.post(`/deliveries/${id}/deliver`, { pin: '90817263', received_by: 'Chidi', photo: dataUrl(photoPng()), signature: dataUrl(signaturePng()) }).expect(200);
    await waitForText(page, '#status', 'Your parcel has been delivered.');
    await page.waitForFunction(`(() => { const i = document.getElementById('proof-signature'); return i && i.complete && i.naturalWidth > 0; })()`);
    expect(await imageLoaded(page, '#proof-photo')).toBe(true);
    expect(await page.$eval('#proof', (section) => (section as unknown as { hidden: boolean }).hidden)).toBe(false);
    expect(await textOf(page, '#received-by')).toBe('Received by Chidi');
    expect(await dotOf(page)).toMatchObject({ visibility: 'hidden' });
    expect(await textOf(page, '#timeline')).toContain('Delivered');
    // The open page switches to the ended state by itself: the time it was delivered, no promise of refreshing.
    await waitForText(page, '#refresh-note', 'This delivery has ended; this page no longer refreshes.');
    expect(await textOf(page, '#ended')).toMatch(/^Delivered at \d/);
    expect(await page.$eval('#tracking', (main) => main.getAttribute('data-final'))).toBe('true');
    const shown = await page.content();
    for (const secret of ['90817263', '+234 809 555 0199', '+234 803 111 1111', '+234 804 222 2222', '5 Warehouse Lane', 'Ibrahim', id]) expect(shown).not.toContain(secret);
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-delivered.png'), fullPage: true });

    // One document load (never reloaded), the script, the status polls and the images, every one to the gateway.
    expect(requested.filter((r) => r.type === 'document').map((r) => r.url)).toEqual([trackingUrl]);
    expect(requested.some((r) => r.url === `${origin}/track/assets/tracking.js`)).toBe(true);
    expect(requested.filter((r) => r.url.endsWith('/status')).length).toBeGreaterThanOrEqual(3);
    expect(requested.filter((r) => r.type === 'image').map((r) => r.url.slice(r.url.lastIndexOf('/') + 1)).sort()).toEqual(['logo', 'photo', 'signature']);
    expect(offOrigin(requested)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();

    // TRACKING_LINK_TTL_S after delivery the link shows only that the delivery has ended.
    await ctx.db('deliveries').where({ id }).update({ updated_at: ctx.db.raw("now() - interval '25 hours'") });
    const expired = await visit(trackingUrl);
    expect(await textOf(expired.page, 'h1')).toBe('This delivery has ended');
    expect(await expired.page.$('#proof, #courier, img')).toBeNull();
    expect(offOrigin(expired.requested)).toEqual([]);
    await expired.page.close();
  });

  it('marks a sandbox delivery TEST, and its courier moves along the route as the sandbox advances it', async () => {
    const { pickup, dropoff } = routeRoundedApart();
    const partner = partnerApi(ctx, (await createPartnerKey(ctx, { mode: 'test' })).token);
    const created = await partner.post('/api/v1/deliveries', deliveryBody(pickup, { dropoff: { ...dropoff, address: '12 Recipient Close' } })).expect(201);
    const id = created.body.id as string;
    const { page, requested, consoleErrors } = await visit(created.body.tracking_url as string);
    expect(await textOf(page, '#test-marker')).toMatch(/^TEST\s+delivery: made with a test key in the sandbox/);

    await partner.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'courier_assigned' }).expect(200);
    await waitForText(page, '#eta', 'Parcel expected at the drop-off in about');
    expect((await dotOf(page)).visibility).toBe('hidden');

    const pickupDot = await pointOf(page, '#pickup-dot');
    const dropoffDot = await pointOf(page, '#dropoff-dot');
    let previous = -1;
    for (const progress of [0.25, 0.75]) {
      await partner.post(`/api/v1/sandbox/deliveries/${id}/advance`, { to: 'picked_up', courier_progress: progress }).expect(200);
      await page.waitForFunction(`document.getElementById('map').getAttribute('aria-label').includes('the courier is ${progress * 100}% of the way')`);
      const dot = await dotOf(page);
      const along = (dot.cx - pickupDot.x) / (dropoffDot.x - pickupDot.x);
      expect(along).toBeGreaterThan(previous);
      expect(along).toBeCloseTo(progress, 1);
      previous = along;
    }
    expect(await textOf(page, '#courier')).toBe('Sandbox courier');
    await page.screenshot({ path: path.join(ARTIFACTS, 'tracking-sandbox.png'), fullPage: true });
    expect(offOrigin(requested)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('an unknown token is a page saying so', async () => {
    const { page, requested } = await visit(`${origin}/track/AAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(await textOf(page, 'h1')).toBe('Tracking link not found');
    expect(offOrigin(requested)).toEqual([]);
    expect((await request(origin).get('/track/AAAAAAAAAAAAAAAAAAAAAAAA/status')).status).toBe(404);
    await page.close();
  });
});
