/**
 * Test mode end to end (issue 36, item 6): the real system behind its gateway, driven in Debian's Chromium, with
 * axe-core run on every page visited. One organization signed up first; the tests run in order and build on it.
 * A test-mode page opened in a new tab stays in test mode; a certificate issued in test mode spends no credit and its
 * public verification answers `test`; the home counts test certificates in test mode; event passes are live only;
 * a ride opened in the wrong mode links to the right one. Screenshots go to test-artifacts/test-mode/; the test-mode
 * certificates page's also to docs/images/dashboard-test-mode.png with UPDATE_DOCS_IMAGES=1.
 */
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'test-mode';
const OWNER = { name: 'Mary Jackson', email: 'mary@example.test', password: 'wind tunnel 1958 langley', organization: 'Supersonic Studies' };
const RIDE = { pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4654, lng: 3.4064 }, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348020000000' } };

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
const { textOf, type, open, visit, waitForHeading, expectAccessible, keepForDocs, signUpOwner, gatewayFetch } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  [system, browser] = await startTogether([startSystem('e2e_test_mode'), launchBrowser()]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

const isTestBanner = () => page.$('[data-testid="test-mode-banner"]');
const creditBalance = async (): Promise<string> => {
  await visit('/billing', 'Credits & plan');
  return textOf('[data-testid="credit-balance"]');
};

async function createMobilityKey(name: string, mode: 'live' | 'test', scopes: string[]): Promise<string> {
  await visit('/api-keys/mobility', 'Mobility API keys');
  const form = 'form[aria-label="Create an API key"]';
  await type(`${form} input[name="name"]`, name);
  for (const scope of scopes) await page.click(`${form} input[name="scopes"][value="${scope}"]`);
  await page.select(`${form} select[name="mode"]`, mode);
  await page.click(`${form} button[type="submit"]`);
  const token = await textOf('[data-testid="api-key-token"]');
  await page.waitForFunction((text) => document.querySelector('main table')?.textContent?.includes(text), WAIT, name);
  return token;
}

async function createRide(token: string): Promise<string> {
  const created = await gatewayFetch('/api/v1/rides', { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(RIDE) });
  expect(created.status).toBe(201);
  return String(created.body.id);
}

describe('test mode in Chromium', () => {
  let freeCredits = '';
  let verificationCode = '';

  it('signs up an organization owner', async () => {
    await signUpOwner(system, OWNER);
    freeCredits = await creditBalance();
    expect(freeCredits).toMatch(/^[1-9]\d*$/);
    await expectAccessible('billing-live');
  }, 120_000);

  it('keeps a test-mode session in a new tab: /dashboard/test/… opens in test mode with its banner', async () => {
    await visit('/test/certificates', 'Certificates');
    expect(await isTestBanner()).not.toBeNull();
    await expectAccessible('certificates-test-mode');

    const first = page;
    const second = await openDashboardTab(browser, system.gatewayUrl);
    page = second.page;
    try {
      await visit('/test/rides', 'Rides');
      expect(new URL(page.url()).pathname).toBe('/dashboard/test/rides');
      expect(await textOf('[data-testid="test-mode-banner"]')).toMatch(/test mode/i);
      expect(await page.$eval('[data-testid="mode-switch"]', (input) => (input as HTMLInputElement).checked)).toBe(true);
      expect(await textOf('[data-testid="data-mode-label"]')).toBe('Test data');
      expect(await page.title()).toBe('Rides (test) · Partner dashboard');
      await expectAccessible('rides-test-mode-new-tab');
      expect(second.foreign).toEqual([]);
    } finally {
      await page.close();
      page = first;
    }
  }, 120_000);

  it('issues a certificate in test mode for nothing: the balance is unchanged and its public verification answers test', async () => {
    await visit('/test/certificates', 'Certificates');
    const form = 'form[aria-label="Issue a certificate"]';
    expect(await textOf(`${form} [data-testid="data-mode-label"]`)).toBe('Test data');
    await type(`${form} input[name="recipient_name"]`, 'Christine Darden');
    await type(`${form} input[name="program_title"]`, 'Sonic boom minimisation');
    await page.$eval(`${form} input[name="issue_date"]`, (input) => (input as HTMLInputElement).focus());
    await page.keyboard.type('05012026');
    const issued = page.waitForResponse((response) => response.url().includes('/dashboard/api/certificate/certificates') && response.request().method() === 'POST', WAIT);
    await page.click(`${form} button[type="submit"]`);
    const answer = await issued;
    expect(new URL(answer.url()).searchParams.get('mode')).toBe('test');
    expect(answer.status()).toBe(201);
    const certificate = (await answer.json()) as { verification_code: string; livemode: boolean };
    expect(certificate.livemode).toBe(false);
    verificationCode = certificate.verification_code;
    expect(await textOf('[data-testid="issued-certificate"]')).toContain(verificationCode);
    await page.waitForFunction(() => document.querySelector('main table')?.textContent?.includes('Christine Darden'), WAIT);
    expect(await textOf('main tbody tr [data-testid="certificate-test-badge"]')).toBe('Test');
    await expectAccessible('certificate-issued-test-mode');
    await keepForDocs(SUITE, 'certificates-test-mode', 'dashboard-test-mode.png');

    // The live certificates list does not have it.
    await visit('/certificates', 'Certificates');
    await page.waitForFunction(() => !document.querySelector('main')!.textContent!.includes('Loading'), WAIT);
    expect(await page.evaluate(() => document.querySelector('main')!.textContent)).not.toContain('Christine Darden');

    expect(await creditBalance()).toBe(freeCredits);

    const verified = await gatewayFetch('/credentials/verify', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: verificationCode }) });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'test', valid: false });
    await open(`/credentials/${verificationCode}`);
    expect(await page.evaluate(() => document.body.innerText)).toContain('Test certificate — not a real credential');
    await expectAccessible('credential-page-test');
  }, 120_000);

  it("shows the test certificates' numbers on the home page in test mode, and the live ones live", async () => {
    await visit('/test', OWNER.organization);
    await page.waitForFunction(() => document.querySelector('[data-testid="certificates-issued"]')?.textContent === '1', WAIT);
    expect(await textOf('[data-testid="credits-used"]')).toBe('0');
    expect(await textOf('[data-testid="credits-left"]')).toBe(freeCredits);
    expect(await isTestBanner()).not.toBeNull();
    await expectAccessible('home-test-mode');
    await screenshot(page, SUITE, 'home-test-mode');

    await page.click('[data-testid="mode-switch"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="test-mode-banner"]'), WAIT);
    await page.waitForFunction(() => document.querySelector('[data-testid="certificates-issued"]')?.textContent === '0', WAIT);
    expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/?$/);
    await expectAccessible('home-live');
  }, 120_000);

  describe('with rides in both modes', () => {
    let liveRide = '';
    let testRide = '';
    let testKey = '';

    it('makes a live and a test ride through the public API', async () => {
      const liveKey = await createMobilityKey('Live dispatch', 'live', ['rides:write', 'rides:read']);
      testKey = await createMobilityKey('Staging dispatch', 'test', ['rides:write', 'rides:read', 'event_passes:read']);
      expect(testKey).toMatch(/^mk_test_/);
      await expectAccessible('api-keys-mobility');
      liveRide = await createRide(liveKey);
      testRide = await createRide(testKey);
    }, 120_000);

    it('says event passes are live only in test mode: the form is off and the API refuses a test key', async () => {
      await visit('/test/event-passes', 'Event pass programs');
      const form = 'form[aria-label="Create a program"]';
      expect(await textOf(`${form} [data-testid="live-only-notice"]`)).toBe('Event passes are live only, so it is off in test mode: switch to live.');
      expect(await page.$eval(`${form} button[type="submit"]`, (button) => (button as HTMLButtonElement).matches(':disabled'))).toBe(true);
      await expectAccessible('event-passes-test-mode');
      await screenshot(page, SUITE, 'event-passes-test-mode');

      const refused = await gatewayFetch('/api/v1/event-pass-programs', { headers: { Authorization: `Bearer ${testKey}` } });
      expect(refused.status).toBe(403);
      expect(refused.contentType).toMatch(/application\/problem\+json/);
      expect(refused.body.code).toBe('test_mode_not_supported');

      await page.click(`${form} [data-testid="live-only-notice"] a`);
      await waitForHeading('Event pass programs');
      expect(new URL(page.url()).pathname).toBe('/dashboard/event-passes');
      expect(await page.$(`${form} [data-testid="live-only-notice"]`)).toBeNull();
      expect(await page.$eval(`${form} button[type="submit"]`, (button) => (button as HTMLButtonElement).matches(':disabled'))).toBe(false);
      await expectAccessible('event-passes-live');
    }, 120_000);

    it('links a live ride opened in test mode to live, and a test ride opened live to test', async () => {
      await visit(`/test/rides/${liveRide}`, `Ride ${liveRide}`);
      expect(await textOf('[data-testid="other-mode-notice"]')).toBe('This ride is live: switch to live.');
      expect(await page.$('main [role="alert"]')).toBeNull();
      expect(await page.$('[data-testid="status-history"]')).toBeNull();
      await expectAccessible('live-ride-in-test-mode');
      await screenshot(page, SUITE, 'live-ride-in-test-mode');
      await page.click('[data-testid="other-mode-notice"] a');
      await page.waitForSelector('[data-testid="trip-details"]', WAIT);
      expect(new URL(page.url()).pathname).toBe(`/dashboard/rides/${liveRide}`);
      expect(await isTestBanner()).toBeNull();
      expect(await page.$('[data-testid="other-mode-notice"]')).toBeNull();
      await expectAccessible('live-ride');

      await visit(`/rides/${testRide}`, `Ride ${testRide}`);
      expect(await textOf('[data-testid="other-mode-notice"]')).toBe('This ride is in test mode: switch to test.');
      await expectAccessible('test-ride-live');
      await page.click('[data-testid="other-mode-notice"] a');
      await page.waitForSelector('[data-testid="trip-details"]', WAIT);
      expect(new URL(page.url()).pathname).toBe(`/dashboard/test/rides/${testRide}`);
      expect(await isTestBanner()).not.toBeNull();
      await expectAccessible('test-ride-test-mode');
    }, 120_000);
  });
});
