/**
 * The dashboard's operations pages end to end: the real system behind its gateway, driven in
 * Debian's Chromium with axe-core on every page. An organization signs up through the mailed link; then an event pass
 * program is run from the dashboard (create, issue by form and CSV, copy, a covered ride, revoke, close), the webhook
 * message log is read as in Svix (payload, both sides of each attempt, filters, replay, success chart, event catalog),
 * and the home page charts rides and webhook success. Screenshots: test-artifacts/dashboard-ops/ and, for the docs
 * with UPDATE_DOCS_IMAGES=1, docs/images/dashboard-event-pass-program.png and docs/images/dashboard-webhook-message.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { startFakeServer, type RecordedRequest } from '@platform/test-kit';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'dashboard-ops';
const OWNER = { name: 'Mary Jackson', email: 'mary@example.test', password: 'wind tunnel hampton 1958', organization: 'Festival Rides' };
const VENUE = { lat: 6.4654, lng: 3.4064 };
const RIDE = { pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: VENUE, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348020000000' } };

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
let files: string;
let mobilityKey = '';
let passRide = '';
const hooks: RecordedRequest[] = [];
let receiver: Awaited<ReturnType<typeof startFakeServer>>;
const { textOf, type, visit, expectAccessible, keepForDocs, signUpOwner } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

/** The partner's receiver: the first POST is refused with a 503, later ones answered 200, each with a header of its own. */
function reply(request: RecordedRequest, res: ServerResponse) {
  hooks.push(request);
  const first = hooks.length === 1;
  res.writeHead(first ? 503 : 200, { 'Content-Type': 'text/plain', 'X-Receiver': `festival-${hooks.length}` });
  res.end(first ? 'busy, try again later' : 'thanks');
}

beforeAll(async () => {
  files = mkdtempSync(path.join(os.tmpdir(), 'dashboard-ops-'));
  [system, browser, receiver] = await startTogether([startSystem('e2e_dashboard_ops'), launchBrowser(), startFakeServer(reply)]);
  await browser.defaultBrowserContext().overridePermissions(system.gatewayUrl, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
  page.on('dialog', (dialog) => void dialog.accept());
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

async function api(pathname: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${system.gatewayUrl}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${mobilityKey}`, 'Content-Type': 'application/json' },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The pass row whose attendee cell holds `text`. */
async function passRow(text: string) {
  const handle = await page.waitForFunction((wanted) => Array.from(document.querySelectorAll('[data-testid^="pass-evpass_"]')).find((row) => row.textContent!.includes(wanted)), WAIT, text);
  return handle.asElement() as Awaited<ReturnType<Page['$']>> & object;
}

/** Clicks Refresh on the message log until `done` holds in the page. */
async function refreshUntil(done: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 90 && !(await page.evaluate(done)); attempt++) {
    const refreshed = page.waitForResponse((response) => /\/webhooks\/[^/]+\/deliveries/.test(response.url()), WAIT);
    await (await page.waitForSelector('main button::-p-text(Refresh)', WAIT))!.click();
    await refreshed;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(await page.evaluate(done)).toBe(true);
}

describe('the dashboard operations pages in Chromium', () => {
  it('signs up an organization owner and creates a live mobility key', async () => {
    await signUpOwner(system, OWNER);

    await visit('/api-keys/mobility', 'Mobility API keys');
    await type('form[aria-label="Create an API key"] input[name="name"]', 'Festival app');
    for (const scope of ['rides:write', 'rides:read']) await page.click(`form[aria-label="Create an API key"] input[name="scopes"][value="${scope}"]`);
    await page.select('form[aria-label="Create an API key"] select[name="mode"]', 'live');
    await page.click('form[aria-label="Create an API key"] button[type="submit"]');
    mobilityKey = await textOf('[data-testid="api-key-token"]');
    expect(mobilityKey).toMatch(/^mk_/);
  }, 120_000);

  describe('event passes (item 3)', () => {
    let programPath = '';

    it('creates a program, issues passes by form and by CSV, copies a code', async () => {
      await visit('/event-passes', 'Event pass programs');
      const form = 'form[aria-label="Create a program"]';
      await type(`${form} input[name="name"]`, 'Lagos Jazz Weekend');
      await type(`${form} input[name="budget"]`, '5000');
      await type(`${form} input[name="max_fare_per_ride"]`, '3000');
      await type(`${form} input[name="lat"]`, String(VENUE.lat));
      await type(`${form} input[name="lng"]`, String(VENUE.lng));
      await type(`${form} input[name="address"]`, 'Eko Atlantic Pavilion');
      const local = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      await page.$eval(`${form} input[name="valid_from"]`, (input, value) => ((input as HTMLInputElement).value = value), local(new Date(Date.now() - 3_600_000)));
      await page.$eval(`${form} input[name="valid_until"]`, (input, value) => ((input as HTMLInputElement).value = value), local(new Date(Date.now() + 86_400_000)));
      await expectAccessible('event-passes');
      await page.click(`${form} button[type="submit"]`);
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Lagos Jazz Weekend', WAIT);
      programPath = new URL(page.url()).pathname.replace('/dashboard', '');
      expect(programPath).toMatch(/^\/event-passes\/evp_/);
      expect(await page.title()).toBe('Event pass program · Partner dashboard');
      expect(await textOf('[data-testid="spend-left"]')).toContain('5,000');

      await type('#pass-reference', 'TICKET-0001');
      await type('#pass-name', 'Ada Obi');
      await page.click('form[aria-label="Issue passes"] button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="issued"]')?.textContent === 'Issued 1 pass.', WAIT);

      const csv = path.join(files, 'attendees.csv');
      writeFileSync(csv, 'reference,name\nTICKET-0002,Bola Ade\nTICKET-0003,"Chidi, Jr."\n');
      const passCsv = await page.waitForSelector('input[data-testid="pass-csv"]', WAIT);
      await passCsv!.uploadFile(csv);
      await page.click('form[aria-label="Upload attendees CSV"] button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="issued"]')?.textContent === 'Issued 2 passes.', WAIT);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="pass-evpass_"]').length === 3, WAIT);
      const attendees = await page.$$eval('[data-testid^="pass-evpass_"] td:nth-child(2)', (cells) => cells.map((cell) => cell.textContent).sort());
      expect(attendees).toEqual(['TICKET-0001 · Ada Obi', 'TICKET-0002 · Bola Ade', 'TICKET-0003 · Chidi, Jr.']);

      const row = await passRow('TICKET-0001');
      const code = await row.$eval('[data-testid="pass-code"]', (node) => node.textContent!);
      await (await row.$('button[aria-label^="Copy code"]'))!.click();
      await page.waitForFunction((cell) => cell.querySelector('.copy-status')?.textContent === 'Copied', WAIT, row);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

      // A ride to the venue with that pass: the pass covers up to the program's cap.
      const ride = await api('/api/v1/rides', { method: 'POST', body: { ...RIDE, event_pass: code } });
      expect({ status: ride.status, body: ride.status === 201 ? {} : ride.body }).toEqual({ status: 201, body: {} });
      passRide = String(ride.body.id);
      expect((ride.body.fare as { covered_by_pass: number }).covered_by_pass).toBeGreaterThan(0);
    }, 120_000);

    it('shows the spend bar, revokes a pass and closes the program; the ride page shows what the pass covered', async () => {
      await visit(programPath, 'Lagos Jazz Weekend');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="pass-evpass_"]').length === 3, WAIT);
      expect(await textOf('[data-testid="spend-total"]')).toContain('5,000');
      expect(await textOf('[data-testid="spend-reserved"]')).not.toMatch(/^\D*0\.00$/);
      const label = await page.$eval('[data-testid="spend-bar"] [role="img"]', (bar) => bar.getAttribute('aria-label'));
      expect(label).toMatch(/^Spent .+, reserved .+, left .+ of .+5,000/);
      await expectAccessible('event-pass-program');
      await keepForDocs(SUITE, 'event-pass-program', 'dashboard-event-pass-program.png');

      await (await (await passRow('TICKET-0003')).$('button.danger'))!.click();
      await page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid^="pass-evpass_"]')).some((row) => row.textContent!.includes('TICKET-0003') && row.querySelector('[data-testid="pass-status"]')!.textContent === 'Revoked'), WAIT);

      await (await page.waitForSelector('main button::-p-text(Close program)', WAIT))!.click();
      await page.waitForFunction(() => document.querySelector('[data-testid="program-status"]')?.textContent === 'Closed', WAIT);
      await expectAccessible('event-pass-program-closed');

      await visit(`/rides/${passRide}`, `Ride ${passRide}`);
      expect(await textOf('[data-testid="pass-covered"]')).toMatch(/the rider pays/);
      await expectAccessible('ride-with-pass');
    }, 120_000);
  });

  describe('webhook messages (item 4)', () => {
    it('shows a message with its payload and both sides of each attempt, filters, replays, charts success; lists the event catalog', async () => {
      await visit('/webhooks', 'Webhooks');
      const url = `${receiver.url}/hooks/festival`;
      await type('form[aria-label="Register a webhook endpoint"] input[name="url"]', url);
      await page.click('form[aria-label="Register a webhook endpoint"] input[name="events"][value="ride.cancelled"]');
      await page.click('form[aria-label="Register a webhook endpoint"] button[type="submit"]');
      await page.waitForSelector('[data-testid="webhook-secret"]', WAIT);
      const cancelled = await api(`/api/v1/rides/${encodeURIComponent(passRide)}/cancel`, { method: 'POST' });
      expect(cancelled.status).toBe(200);

      await visit('/webhooks', 'Webhooks');
      await (await page.waitForSelector(`main table a::-p-text("${url}")`, WAIT))!.click();
      await page.waitForSelector('[data-testid="delivery-log"]', WAIT);
      // The first attempt is answered 503, the retry (after 5 s) 200.
      await refreshUntil(() => Array.from(document.querySelectorAll('[data-testid^="delivery-whd_"]')).some((row) => row.textContent!.includes('Succeeded')));
      const message = await page.waitForSelector('[data-testid^="delivery-whd_"]', WAIT);
      await (await message!.$('button.disclosure'))!.click();
      const payload = JSON.parse(await textOf('[data-testid="message-payload"]')) as { type: string; data: { id: string } };
      expect(payload).toMatchObject({ type: 'ride.cancelled', data: { id: passRide } });
      const first = await textOf('[data-testid="attempt-1"]');
      expect(first).toContain('503');
      expect(first).toContain('busy, try again later');
      expect(first).toMatch(/webhook-signature: v1,/);
      expect(first).toMatch(/x-receiver: festival-1/);
      expect(first).toMatch(/\d+ ms/);
      expect(await textOf('[data-testid="attempt-2"] [data-testid="attempt-status"]')).toBe('200');
      await page.waitForSelector('[data-testid="chart-endpoint-success"] svg .recharts-bar-rectangle', WAIT);
      await expectAccessible('webhook-message-open');
      await keepForDocs(SUITE, 'webhook-message', 'dashboard-webhook-message.png');

      // Filters: no failed message; the cancelled ride's message by its type.
      await page.select('form[aria-label="Filter messages"] select[name="status"]', 'failed');
      await page.click('form[aria-label="Filter messages"] button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="delivery-log"]')?.textContent?.includes('No messages match these filters'), WAIT);
      await page.select('form[aria-label="Filter messages"] select[name="status"]', '');
      await page.select('form[aria-label="Filter messages"] select[name="event_type"]', 'ride.cancelled');
      await page.$eval('form[aria-label="Filter messages"] input[name="from"]', (input) => ((input as HTMLInputElement).value = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)));
      await page.click('form[aria-label="Filter messages"] button[type="submit"]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="delivery-whd_"]').length === 1, WAIT);

      // Replay: the receiver gets the event once more.
      const before = hooks.length;
      await (await page.waitForSelector('[data-testid^="delivery-whd_"] button::-p-text(Replay)', WAIT))!.click();
      await page.waitForFunction(() => document.querySelector('main [role="status"]')?.textContent?.includes('queued'), WAIT);
      await refreshUntil(() => Array.from(document.querySelectorAll('[data-testid^="delivery-whd_"] td:nth-child(3)')).some((cell) => cell.textContent === '3'));
      expect(hooks.length).toBe(before + 1);
      expect(hooks.at(-1)!.headers['x-service-event-id']).toBe(hooks[0]!.headers['x-service-event-id']);

      await visit('/webhooks/event-types', 'Event catalog');
      expect(await page.title()).toBe('Event catalog · Partner dashboard');
      await page.waitForSelector('[data-testid="event-ride.location_updated"]', WAIT);
      expect(await textOf('[data-testid="event-ride.location_updated"] h2')).toContain('Opt-in');
      expect(await textOf('[data-testid="event-delivery.courier_location_updated"] h2')).toContain('Opt-in');
      expect(await textOf('[data-testid="event-ride.completed"] h2')).not.toContain('Opt-in');
      const example = await page.$eval('[data-testid="event-ride.completed"] [data-testid="example-payload"]', (node) => JSON.parse(node.textContent!) as { type: string; data: { status: string; id: string } });
      expect(example).toMatchObject({ type: 'ride.completed', data: { status: 'completed', id: expect.stringMatching(/^ride_/) } });
      await expectAccessible('event-catalog');
    }, 180_000);
  });

  describe('home (item 2)', () => {
    it('charts rides and deliveries per day and the webhook success rate per day', async () => {
      await visit('/', OWNER.organization);
      await page.waitForSelector('[data-testid="chart-trips"] svg .recharts-bar-rectangle', WAIT);
      await page.waitForSelector('[data-testid="chart-webhooks"] svg .recharts-bar-rectangle', WAIT);
      const today = new Date().toISOString().slice(0, 10);
      const cells = await page.$$eval(`[data-testid="chart-trips"] table tr`, (rows, day) => rows.find((row) => row.querySelector('th')?.textContent === day)?.textContent, today);
      expect(cells).toBe(`${today}10`);
      const rate = await page.$$eval(`[data-testid="chart-webhooks"] table tr`, (rows, day) => rows.find((row) => row.querySelector('th')?.textContent === day)?.querySelector('td')?.textContent, today);
      expect(rate).toBe('67%');
      await expectAccessible('home-charts');
      await screenshot(page, SUITE, 'home-charts');
    }, 60_000);
  });
});
