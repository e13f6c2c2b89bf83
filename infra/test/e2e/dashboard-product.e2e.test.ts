/**
 * The dashboard as the product organizations run their work in end to end: the real system
 * behind its gateway (`pnpm start`), driven in Debian's Chromium, axe-core run on every page visited, and no request
 * leaving the gateway's origin. One organization signs up through the mailed link; the tests run in order and build on it.
 * Screenshots go to test-artifacts/dashboard-product/; the billing page also to docs/images/ with UPDATE_DOCS_IMAGES=1.
 */
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startFakeGatewayA } from '../helpers/fake-gateway-a';
import { mailedLink } from '../helpers/mail-inbox';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'dashboard-product';
const OWNER = { name: 'Dorothy Vaughan', email: 'dorothy@example.test', password: 'fortran for everyone 1961', organization: 'West Computing' };
const NEW_PASSWORD = 'a brand new password 1958';
const PICKUP = { lat: 6.4541, lng: 3.3947 };
const RIDE = { pickup: PICKUP, dropoff: { lat: 6.4654, lng: 3.4064 }, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348020000000' } };

const GATEWAY_A_SECRET = 'sk_test_e2e_product_gateway_a';

let paymentGateway: Awaited<ReturnType<typeof startFakeGatewayA>>;
let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
const { textOf, type, clear, open, visit, waitForHeading, expectAccessible, keepForDocs, signUpOwner, gatewayFetch } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  paymentGateway = await startFakeGatewayA(GATEWAY_A_SECRET, 4099260517);
  [system, browser] = await startTogether([
    startSystem('e2e_dashboard_product', { GATEWAY_A_SECRET_KEY: GATEWAY_A_SECRET, GATEWAY_A_BASE_URL: paymentGateway.url, GATEWAY_A_DISPLAY_NAME: 'Paystack' }),
    launchBrowser(),
  ]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await paymentGateway?.close();
}, 60_000);

afterEach(() => {
  // Only the gateway's hosted payment page is another origin (the billing test visits it on purpose).
  expect(foreign.filter((url) => !url.startsWith(paymentGateway.url))).toEqual([]);
});

const json = (token?: string) => ({ 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) });
/** The accounts routes refuse writes from any origin but the dashboard's. */
const fromDashboard = () => ({ ...json(), Origin: system.gatewayUrl });

async function signOut(): Promise<void> {
  await (await page.waitForSelector('header.topbar button::-p-text(Sign out)', WAIT))!.click();
  await waitForHeading('Sign in');
}

async function signIn(password: string): Promise<void> {
  await type('form[aria-label="Sign in"] input[name="email"]', OWNER.email);
  await type('form[aria-label="Sign in"] input[name="password"]', password);
  await page.click('form[aria-label="Sign in"] button[type="submit"]');
}

describe('the dashboard as a product, in Chromium', () => {
  it('signs up an organization owner through the mailed link', async () => {
    await signUpOwner(system, OWNER);
  }, 120_000);

  describe('reset password (item 0)', () => {
    it('asks for the mail from sign-in, sets a new password through the mailed link and is signed in; the old password is refused', async () => {
      await signOut();
      await (await page.waitForSelector('main a::-p-text(Forgot password?)', WAIT))!.click();
      await waitForHeading('Reset your password');
      expect(await page.title()).toBe('Reset password · Partner dashboard');
      await expectAccessible('forgot-password');
      await type('form[aria-label="Request a password reset"] input[name="email"]', OWNER.email);
      await page.click('form[aria-label="Request a password reset"] button[type="submit"]');
      expect(await textOf('[data-testid="check-inbox"]')).toContain(OWNER.email);
      await expectAccessible('forgot-password-sent');

      const link = await mailedLink(system, OWNER.email, 'reset-password');
      await open(link);
      await waitForHeading('Choose a new password');
      expect(await page.title()).toBe('Choose a new password · Partner dashboard');
      await expectAccessible('reset-password');
      // Too short first: the field error, and nothing changed.
      await type('form[aria-label="Choose a new password"] input[name="password"]', 'short');
      await page.click('form[aria-label="Choose a new password"] button[type="submit"]');
      await page.waitForSelector('[data-testid="error-password"]', WAIT);
      await clear('form[aria-label="Choose a new password"] input[name="password"]');
      await type('form[aria-label="Choose a new password"] input[name="password"]', NEW_PASSWORD);
      await page.click('form[aria-label="Choose a new password"] button[type="submit"]');
      await page.waitForFunction((email) => document.querySelector('[data-testid="account-email"]')?.textContent === email, WAIT, OWNER.email);
      await waitForHeading(OWNER.organization);
      await screenshot(page, SUITE, 'signed-in-after-reset');

      // The link worked once.
      const again = await gatewayFetch('/dashboard/api/auth/password-reset/confirm', { method: 'POST', headers: fromDashboard(), body: JSON.stringify({ token: link.split('/').at(-1), password: 'yet another password 1' }) });
      expect([again.status, again.body.code]).toEqual([404, 'token_not_found']);

      const old = await gatewayFetch('/dashboard/api/auth/sessions', { method: 'POST', headers: fromDashboard(), body: JSON.stringify({ email: OWNER.email, password: OWNER.password }) });
      expect([old.status, old.body.code]).toEqual([401, 'invalid_credentials']);
      await signOut();
      await signIn(OWNER.password);
      await page.waitForSelector('form[aria-label="Sign in"] [data-testid="form-error"]', WAIT);
      await clear('form[aria-label="Sign in"] input[name="password"]');
      await clear('form[aria-label="Sign in"] input[name="email"]');
      await signIn(NEW_PASSWORD);
      await waitForHeading(OWNER.organization);
    }, 120_000);
  });

  describe('fleet (item 8)', () => {
    it("shows the driver's first sign-in code once, then its presence, last seen and the ride it is on", async () => {
      await visit('/drivers', 'Drivers');
      const form = 'form[aria-label="Register a driver"]';
      await type(`${form} input[name="name"]`, 'Musa Danjuma');
      await type(`${form} input[name="phone"]`, '+2348031112222');
      await type(`${form} input[name="vehicle.make"]`, 'Toyota');
      await type(`${form} input[name="vehicle.model"]`, 'Corolla');
      await type(`${form} input[name="vehicle.plate"]`, 'LND-123-XY');
      await type(`${form} input[name="vehicle.color"]`, 'Silver');
      await page.click(`${form} button[type="submit"]`);
      const code = await textOf('[data-testid="driver-sign-in-code"]');
      expect(code).toMatch(/^[A-Z0-9-]{8,}$/);
      await page.waitForSelector('[data-testid^="driver-drv_"] [data-testid="presence"]', WAIT);
      expect(await textOf('[data-testid^="driver-drv_"] [data-testid="presence"]')).toBe('Offline');
      expect(await textOf('[data-testid^="driver-drv_"] [data-testid="last-seen"]')).toBe('Never seen');
      await expectAccessible('drivers-registered');
      await screenshot(page, SUITE, 'drivers-first-code');

      // The driver app signs in with that code, reports a position and goes online.
      const session = await gatewayFetch('/driver/v1/sessions', { method: 'POST', headers: json(), body: JSON.stringify({ activation_code: code }) });
      expect(session.status).toBe(201);
      const driverToken = String(session.body.access_token);
      expect((await gatewayFetch('/driver/v1/location', { method: 'POST', headers: json(driverToken), body: JSON.stringify({ ...PICKUP, heading: 90, speed_kph: 0 }) })).status).toBe(200);
      expect((await gatewayFetch('/driver/v1/availability', { method: 'POST', headers: json(driverToken), body: JSON.stringify({ available: true }) })).status).toBe(200);

      // The code is not shown again after a reload.
      await visit('/drivers', 'Drivers');
      expect(await page.$('[data-testid="driver-sign-in-code"]')).toBeNull();
      await page.waitForFunction(() => document.querySelector('[data-testid="presence"]')?.textContent === 'Online', WAIT);
      expect(await textOf('[data-testid="last-seen"]')).toMatch(/^Last seen /);

      // A partner's ride is offered to the driver, who accepts it: the fleet page names the ride.
      await visit('/api-keys/mobility', 'Mobility API keys');
      await type('form[aria-label="Create an API key"] input[name="name"]', 'Dispatch');
      for (const scope of ['rides:write', 'rides:read']) await page.click(`form[aria-label="Create an API key"] input[name="scopes"][value="${scope}"]`);
      await page.select('form[aria-label="Create an API key"] select[name="mode"]', 'live'); // a test key's rides are never dispatched
      await page.click('form[aria-label="Create an API key"] button[type="submit"]');
      const key = await textOf('[data-testid="api-key-token"]');
      const ride = await gatewayFetch('/api/v1/rides', { method: 'POST', headers: json(key), body: JSON.stringify(RIDE) });
      expect(ride.status).toBe(201);
      let offers: Array<{ id: string; ride_id?: string }> = [];
      for (let polls = 0; offers.length === 0 && polls < 100; polls++) {
        offers = (await gatewayFetch('/driver/v1/offers', { headers: json(driverToken) })).body.data as typeof offers;
        if (offers.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(offers[0]!.ride_id).toBe(ride.body.id);
      expect((await gatewayFetch(`/driver/v1/offers/${offers[0]!.id}/accept`, { method: 'POST', headers: json(driverToken) })).status).toBe(200);

      await visit('/drivers', 'Drivers');
      await page.waitForSelector('[data-testid="current-job"]', WAIT);
      expect(await textOf('[data-testid="current-job"]')).toBe(`Ride ${String(ride.body.id)} · Accepted`);
      await expectAccessible('drivers-on-a-ride');
      await screenshot(page, SUITE, 'drivers-on-a-ride');
      await (await page.waitForSelector(`[data-testid="current-job"] a::-p-text(${String(ride.body.id)})`, WAIT))!.click();
      await page.waitForFunction(() => /^Ride /.test(document.querySelector('main h1')?.textContent ?? ''), WAIT);
    }, 180_000);
  });

  describe('audit log (item 7)', () => {
    it('shows who changed keys, roles, endpoints and drivers, when and from where, from both services; owners read it by API too', async () => {
      // One more change from each side: a webhook endpoint (mobility) and a certificate API key (certificate).
      await visit('/webhooks', 'Webhooks');
      await type('form[aria-label="Register a webhook endpoint"] input[name="url"]', 'http://127.0.0.1:9/audit-hooks');
      await page.click('form[aria-label="Register a webhook endpoint"] input[name="events"][value="ride.cancelled"]');
      await page.click('form[aria-label="Register a webhook endpoint"] button[type="submit"]');
      await page.waitForSelector('[data-testid="webhook-secret"]', WAIT);
      await visit('/api-keys/certificate', 'Certificate API keys');
      await type('form[aria-label="Create an API key"] input[name="name"]', 'Issuing robot');
      await page.click('form[aria-label="Create an API key"] button[type="submit"]');
      const token = await textOf('[data-testid="api-key-token"]');

      await (await page.waitForSelector('nav[aria-label="Sections"] a::-p-text(Audit log)', WAIT))!.click();
      await waitForHeading('Audit log');
      expect(await page.title()).toBe('Audit log · Partner dashboard');
      await page.waitForSelector('[data-testid="audit-entry"]', WAIT);
      // Mobility's entries carry the account id; the page names them once the members list has loaded.
      await page.waitForFunction((name) => Array.from(document.querySelectorAll('[data-testid="audit-entry"]')).every((row) => row.textContent?.includes(name)), WAIT, OWNER.name);
      const entries = await page.$$eval('[data-testid="audit-entry"]', (rows) => rows.map((row) => ({ action: row.getAttribute('data-action'), text: (row as HTMLElement).innerText })));
      expect(entries.map((entry) => entry.action)).toEqual(['api_key.created', 'webhook_endpoint.created', 'api_key.created', 'driver.registered']);
      expect(entries[0]!.text).toContain('API key created');
      expect(entries[0]!.text).toContain(OWNER.name);
      expect(entries[0]!.text).toContain('Issuing robot');
      expect(entries[0]!.text).not.toContain(token);
      expect(entries[1]!.text).toContain(OWNER.name); // a mobility entry, named from the members list
      expect(entries[1]!.text).toContain('http://127.0.0.1:9/audit-hooks');
      // From where: the browser's address as the gateway saw it.
      const addresses = await page.$$eval('[data-testid="audit-address"]', (cells) => cells.map((cell) => cell.textContent ?? ''));
      expect(addresses).toHaveLength(4);
      for (const address of addresses) expect(address).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      await expectAccessible('audit-log');
      await screenshot(page, SUITE, 'audit-log');

      // The API, for owners: the same entries through the gateway with the dashboard's token.
      const session = await gatewayFetch('/dashboard/api/auth/sessions', { method: 'POST', headers: fromDashboard(), body: JSON.stringify({ email: OWNER.email, password: NEW_PASSWORD }) });
      expect(session.status).toBe(200);
      const api = await gatewayFetch('/dashboard/api/certificate/audit-log', { headers: json(String(session.body.access_token)) });
      expect(api.status).toBe(200);
      expect((api.body.data as { action: string }[]).map((entry) => entry.action)).toEqual(['api_key.created']);
    }, 120_000);
  });

  describe('billing (item 6)', () => {
    it('marks the current plan, sends the user to the gateway\'s hosted page by its display name and back, and shows the plan activated', async () => {
      await visit('/billing', 'Credits & plan');
      await page.waitForSelector('[data-testid="plan-free"][aria-current="true"]', WAIT);
      expect(await textOf('[data-testid="plan-free"]')).toContain('Current plan');
      const offered = await page.$$eval('form[aria-label="Upgrade plan"] select[name="plan"] option', (options) => options.map((option) => (option as HTMLOptionElement).value));
      expect(offered).not.toContain('free');
      expect(offered).toContain('starter');
      const names = await page.$$eval('form[aria-label="Upgrade plan"] select[name="gateway"] option', (options) => options.map((option) => option.textContent));
      expect(names).toEqual(['Paystack', 'Gateway B (not set up)']);
      await expectAccessible('billing-plans');
      await screenshot(page, SUITE, 'billing-plans');

      await page.select('form[aria-label="Upgrade plan"] select[name="plan"]', 'starter');
      await page.select('form[aria-label="Upgrade plan"] select[name="gateway"]', 'gateway-a');
      const back = page.waitForNavigation({ waitUntil: 'networkidle0', timeout: 30_000 });
      await page.click('form[aria-label="Upgrade plan"] button[type="submit"]');
      await back;
      // Through the gateway's page (another origin) and back on the billing page, with the reference.
      await page.waitForFunction(() => location.pathname === '/dashboard/billing' && new URLSearchParams(location.search).has('reference'), WAIT);
      const reference = new URL(page.url()).searchParams.get('reference')!;
      expect(paymentGateway.visitedPaymentPages).toEqual([reference]);
      expect(foreign).toEqual([`${paymentGateway.url}/pay/${reference}`]);
      await waitForHeading('Credits & plan');
      expect(await textOf('[data-testid="checkout-reference"]')).toBe(reference);

      // The gateway's signed webhook activates the plan; the page shows it.
      const charge = paymentGateway.paid.get(reference)!;
      const body = JSON.stringify({ event: 'charge.success', data: { id: 4099260517, reference, amount: charge.amount, currency: charge.currency, status: 'success' } });
      const delivered = await fetch(`${system.gatewayUrl}/webhooks/payments/gateway-a`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Gateway-Signature': createHmac('sha512', GATEWAY_A_SECRET).update(body).digest('hex') },
        body,
      });
      expect(delivered.status).toBe(200);
      await page.waitForFunction(() => document.querySelector('[data-testid="current-plan"]')?.textContent === 'Starter', { timeout: 60_000 });
      await page.waitForSelector('[data-testid="plan-starter"][aria-current="true"]', WAIT);
      expect(await textOf('[data-testid="checkout-status"]')).toContain('is active');
      await expectAccessible('billing-activated');
      await screenshot(page, SUITE, 'billing-activated');
      foreign.length = 0;

      // The plan change is in the audit log.
      await visit('/audit-log', 'Audit log');
      await page.waitForSelector('[data-testid="audit-entry"][data-action="plan.changed"]', WAIT);
      expect(await textOf('[data-testid="audit-entry"][data-action="plan.changed"]')).toContain('to: starter');
    }, 180_000);

    it('buys a credit pack without a plan change: hosted page and back, the balance raised once, a PDF receipt', async () => {
      await visit('/billing', 'Credits & plan');
      await page.waitForSelector('[data-testid="plan-starter"][aria-current="true"]', WAIT);
      const before = Number(await textOf('[data-testid="credit-balance"]'));
      const renewal = await textOf('[data-testid="renewal"]');
      const form = 'form[aria-label="Buy credits"]';
      const packs = await page.$$eval(`${form} select[name="pack"] option`, (options) => options.map((option) => option.textContent));
      expect(packs).toEqual([expect.stringMatching(/^100 credits — /), expect.stringMatching(/^500 credits — /), expect.stringMatching(/^2,000 credits — /)]);
      await expectAccessible('billing-top-up-form');

      await page.select(`${form} select[name="pack"]`, 'credits_500');
      await page.select(`${form} select[name="gateway"]`, 'gateway-a');
      const back = page.waitForNavigation({ waitUntil: 'networkidle0', timeout: 30_000 });
      await page.click(`${form} button[type="submit"]`);
      await back;
      await page.waitForFunction(() => location.pathname === '/dashboard/billing' && new URLSearchParams(location.search).has('reference'), WAIT);
      const reference = new URL(page.url()).searchParams.get('reference')!;
      expect(paymentGateway.visitedPaymentPages.at(-1)).toBe(reference);
      expect(foreign).toEqual([`${paymentGateway.url}/pay/${reference}`]);
      await waitForHeading('Credits & plan');
      expect(await textOf('[data-testid="checkout-status"]')).toContain('for 500 credits');

      // The gateway's signed webhook, sent twice (gateways retry): the credits are added once.
      const charge = paymentGateway.paid.get(reference)!;
      const body = JSON.stringify({ event: 'charge.success', data: { id: 4099260518, reference, amount: charge.amount, currency: charge.currency, status: 'success' } });
      for (let copy = 0; copy < 2; copy++) {
        const delivered = await gatewayFetch('/webhooks/payments/gateway-a', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Gateway-Signature': createHmac('sha512', GATEWAY_A_SECRET).update(body).digest('hex') },
          body,
        });
        expect([delivered.status, delivered.body]).toEqual([200, { received: true }]);
      }
      await page.waitForFunction(() => /500 credits added to the balance/.test(document.querySelector('[data-testid="checkout-status"]')?.textContent ?? ''), { timeout: 60_000 });
      await page.waitForFunction((expected) => document.querySelector('[data-testid="credit-balance"]')?.textContent === expected, WAIT, String(before + 500));
      // The plan and its renewal date are as they were; the ledger and billing history show the top-up.
      expect(await textOf('[data-testid="current-plan"]')).toBe('Starter');
      expect(await textOf('[data-testid="renewal"]')).toBe(renewal);
      await page.waitForFunction(() => Array.from(document.querySelectorAll('main tr')).some((row) => /\+500/.test(row.textContent ?? '') && /credit top up/.test(row.textContent ?? '')), WAIT);
      const row = `[data-testid="payment-${reference}"]`;
      expect(await textOf(row)).toContain('Credit top-up: 500 credits');
      expect(await textOf(row)).toContain('via Paystack');

      // The receipt button fetches a PDF with the session's token (and saves it; the browser keeps no body to read back).
      const receipt = page.waitForResponse((response) => response.url().endsWith(`/dashboard/api/certificate/payments/${reference}/receipt`), WAIT);
      await page.click(`${row} button`);
      const answer = await receipt;
      expect([answer.status(), answer.headers()['content-type']]).toEqual([200, 'application/pdf']);
      const session = await gatewayFetch('/dashboard/api/auth/sessions', { method: 'POST', headers: fromDashboard(), body: JSON.stringify({ email: OWNER.email, password: NEW_PASSWORD }) });
      const pdf = await fetch(`${system.gatewayUrl}/dashboard/api/certificate/payments/${reference}/receipt`, { headers: json(String(session.body.access_token)) });
      expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
      expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

      await expectAccessible('billing-topped-up');
      await keepForDocs(SUITE, 'billing-topped-up', 'dashboard-billing.png');
      foreign.length = 0;
    }, 180_000);
  });

  describe('template designer (item 5, part)', () => {
    it('shows a live preview drawn by the service while the template is edited', async () => {
      await visit('/templates', 'Templates');
      const form = 'form[aria-label="Create a template"]';
      const first = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/certificate/templates/preview') && response.status() === 200, WAIT);
      await type(`${form} input[name="name"]`, 'Orbital mechanics');
      expect((await first).headers()['content-type']).toBe('image/png');
      await page.waitForFunction(() => (document.querySelector('[data-testid="template-preview-image"]') as HTMLImageElement | null)?.naturalWidth === 1684, WAIT);
      // Editing a line asks for a new drawing (debounced: one answer for the whole word typed).
      const next = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/certificate/templates/preview') && response.request().postData()?.includes('Diploma') === true, WAIT);
      await page.$eval(`${form} input[name="text_blocks.0.text"]`, (input) => (input as HTMLInputElement).select());
      await page.keyboard.type('Diploma');
      expect((await next).status()).toBe(200);
      await expectAccessible('template-designer');
      await screenshot(page, SUITE, 'template-designer');
    }, 120_000);
  });
});
