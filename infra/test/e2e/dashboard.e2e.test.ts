/**
 * The partner dashboard end to end: the real system (`pnpm start`, compiled, fresh database and Redis prefix) behind its
 * gateway, driven in Debian's Chromium. One system for the file; the tests run in order, each a user's flow, and build on
 * the previous ones (the organization signed up first is used throughout). Every page is kept as a screenshot at
 * desktop width and at 360 px in test-artifacts/dashboard/.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { sendJson, startFakeServer, type RecordedRequest } from '@platform/test-kit';
import { verifyStandardWebhook } from '@platform/webhook-signature';
import { launchBrowser, refuseForeignRequests, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { mailedLink } from '../helpers/mail-inbox';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'dashboard';
const GATEWAY_A_SECRET = 'sk_test_e2e_gateway_a_secret';
const OWNER = { name: 'Ada Lovelace', email: 'ada@example.test', password: 'correct horse battery', organization: 'Analytical Engines Ltd' };
const INVITEE = { name: 'Grace Hopper', email: 'grace@example.test', password: 'compilers all the way' };

/** Gateway A's initialise and verify-transaction APIs as a real HTTP server on loopback: it knows the charges the test says were paid. */
const charges = new Map<string, { amount: number; currency: string }>();
/** The checkouts the dashboard opened through the initialise API: reference → the amount asked for. */
const initialised = new Map<string, { amount: number; currency: string }>();
async function startFakePaymentGateway() {
  return startFakeServer((request, res) => {
    // Its initialise API: the "hosted page" sends the payer straight back to the dashboard (the payment itself is the
    // charge the test records and the webhook it sends).
    if (request.method === 'POST' && request.url === '/transaction/initialize' && request.headers.authorization === `Bearer ${GATEWAY_A_SECRET}`) {
      const body = JSON.parse(request.body.toString('utf8')) as { reference: string; amount: number; currency: string; callback_url: string };
      initialised.set(body.reference, { amount: body.amount, currency: body.currency });
      return sendJson(res, 200, { status: true, data: { authorization_url: body.callback_url } });
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(request.url);
    if (!verify || request.headers.authorization !== `Bearer ${GATEWAY_A_SECRET}`) return sendJson(res, 401, { status: false });
    const reference = decodeURIComponent(verify[1]!);
    const charge = charges.get(reference);
    if (!charge) return sendJson(res, 404, { status: false, message: 'Transaction reference not found' });
    sendJson(res, 200, { status: true, data: { id: 4099260516, status: 'success', reference, amount: charge.amount, currency: charge.currency } });
  });
}

/** Signs Gateway A's webhook as the gateway does (HMAC-SHA512 of the raw body with the secret key). */
function signGatewayA(body: string): string {
  return createHmac('sha512', GATEWAY_A_SECRET).update(body).digest('hex');
}

/** The partner's webhook receiver: a loopback HTTP server answering 200; `receivedOne` resolves with the first POST. */
let waiting: ((request: RecordedRequest) => void) | undefined;
const received: RecordedRequest[] = [];
async function startReceiver() {
  return startFakeServer((request, res) => {
    received.push(request);
    waiting?.(request);
    sendJson(res, 200, { ok: true });
  });
}
function receivedOne(): Promise<RecordedRequest> {
  if (received.length > 0) return Promise.resolve(received[0]!);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no webhook delivery arrived within 60 s')), 60_000);
    waiting = (request) => {
      clearTimeout(timer);
      resolve(request);
    };
  });
}

let system: StartedSystem;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser;
let paymentGateway: Awaited<ReturnType<typeof startFakePaymentGateway>>;
let page: Page;
let foreign: string[];
let files: string;
const { textOf, type, gatewayFetch } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  paymentGateway = await startFakePaymentGateway();
  receiver = await startReceiver();
  files = mkdtempSync(path.join(os.tmpdir(), 'dashboard-e2e-'));
  [system, browser] = await startTogether([
    startSystem('e2e_dashboard', { GATEWAY_A_SECRET_KEY: GATEWAY_A_SECRET, GATEWAY_A_BASE_URL: paymentGateway.url }),
    launchBrowser(),
  ]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await paymentGateway?.close();
  await receiver?.close();
  if (files) rmSync(files, { recursive: true, force: true });
}, 60_000);

afterEach(() => {
  // No page of the dashboard asks any host but the gateway (no CDN, fonts, trackers, or direct service ports).
  expect(foreign).toEqual([]);
});

/** Full-page screenshots of what is on screen now: desktop width, then 360 px wide (and back). */
async function snap(name: string, on: Page = page): Promise<void> {
  const viewport = on.viewport() ?? { width: 1280, height: 900 };
  await screenshot(on, SUITE, `${name}-desktop`);
  await on.setViewport({ width: 360, height: 740 });
  await on.waitForFunction(() => window.innerWidth === 360, WAIT);
  await screenshot(on, SUITE, `${name}-360`);
  // The layout works from 360 px: nothing makes the page scroll sideways (wide tables scroll inside their own box).
  expect({ page: name, width: await on.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ page: name, width: 360 });
  await on.setViewport(viewport);
  await on.waitForFunction((width) => window.innerWidth === width, WAIT, viewport.width);
}

/** Follows a link of the section navigation (client-side, as a user clicks it) and waits for the page's heading. */
async function openSection(href: string, heading: string): Promise<void> {
  await (await page.waitForSelector(`nav[aria-label="Sections"] a[href="/dashboard${href}"]`, WAIT))!.click();
  await page.waitForFunction((text) => Array.from(document.querySelectorAll('main h1')).some((h1) => h1.textContent === text), WAIT, heading);
}

let certificateKey = '';

describe('the partner dashboard through the gateway, in Chromium', () => {
  it('signs up with an organization, confirms the mailed link and lands on the overview as its owner', async () => {
    const answer = await page.goto(`${system.gatewayUrl}/dashboard/sign-up`, { waitUntil: 'networkidle0' });
    expect(answer?.status()).toBe(200);
    await page.waitForSelector('form[aria-label="Sign up"]', WAIT);
    await snap('sign-up');
    await type('form[aria-label="Sign up"] input[name="name"]', OWNER.name);
    await type('form[aria-label="Sign up"] input[name="email"]', OWNER.email);
    await type('form[aria-label="Sign up"] input[name="password"]', OWNER.password);
    await type('form[aria-label="Sign up"] input[name="organization_name"]', OWNER.organization);
    await page.click('form[aria-label="Sign up"] button[type="submit"]');
    // No account yet: the dashboard says to check the inbox (and links development's local one); the mailed link makes it.
    await page.waitForSelector('[data-testid="check-inbox"]', WAIT);
    expect(await page.$('[data-testid="mail-inbox-link"]')).not.toBeNull();
    await snap('sign-up-check-inbox');
    await page.goto(`${system.gatewayUrl}${await mailedLink(system, OWNER.email, 'verify-email')}`, { waitUntil: 'networkidle0' });
    // The link makes the account only with the password chosen at sign-up entered again (issue 35).
    await page.waitForSelector('form[aria-label="Confirm your email"] input[name="password"]', WAIT);
    await page.type('form[aria-label="Confirm your email"] input[name="password"]', OWNER.password);
    await page.click('form[aria-label="Confirm your email"] button[type="submit"]');

    await page.waitForSelector('[data-testid="account-email"]', WAIT);
    expect(await textOf('[data-testid="account-email"]')).toBe(OWNER.email);
    expect(await textOf('[data-testid="organization-switcher"]')).toContain(OWNER.organization);
    expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/?$/);
    await snap('overview');

    // The session survives a reload: the refresh cookie (HttpOnly, path-scoped) gives a new access token.
    const cookies = await page.cookies(`${system.gatewayUrl}/dashboard/api/auth/sessions/refresh`);
    expect(cookies.find((cookie) => cookie.name === 'pp_refresh')).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/dashboard/api/auth' });
    await page.reload({ waitUntil: 'networkidle0' });
    expect(await textOf('[data-testid="account-email"]')).toBe(OWNER.email);
  }, 120_000);

  it('creates a certificate API key, shows its token once, and the token works against GET /api/v1/credits', async () => {
    await openSection('/api-keys/certificate', 'Certificate API keys');
    await snap('api-keys-certificate-empty');
    await type('form[aria-label="Create an API key"] input[name="name"]', 'Issuing robot');
    await page.click('form[aria-label="Create an API key"] button[type="submit"]');
    certificateKey = await textOf('[data-testid="api-key-token"]');
    expect(certificateKey).toMatch(/\S{20,}/);
    await page.waitForFunction(() => document.querySelector('main table')?.textContent?.includes('Issuing robot'), WAIT);
    await snap('api-keys-certificate-created');

    const credits = await gatewayFetch('/api/v1/credits', { headers: { Authorization: `Bearer ${certificateKey}` } });
    expect(credits.status).toBe(200);
    expect(credits.contentType).toMatch(/^application\/json/);
    expect(credits.body).toMatchObject({ organization: OWNER.organization, plan: 'free' });
    expect(typeof credits.body.balance).toBe('number');

    // Shown once: after "Done" and on a fresh visit the token is nowhere on the page.
    await page.click('section[aria-label="Token of Issuing robot"] .actions button:last-child');
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForFunction(() => document.querySelector('main table')?.textContent?.includes('Issuing robot'), WAIT);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(certificateKey);
  }, 120_000);

  it('uploads a CSV with a bad row, shows the error beside that row, then issues the fixed file', async () => {
    await openSection('/certificates', 'Certificates');
    const bad = path.join(files, 'bad.csv');
    const good = path.join(files, 'good.csv');
    writeFileSync(bad, 'recipient_name,program_title,issue_date\nAda Lovelace,Engines 101,2026-05-01\nGrace Hopper,Compilers,not-a-date\n');
    writeFileSync(good, 'recipient_name,program_title,issue_date\nAda Lovelace,Engines 101,2026-05-01\nGrace Hopper,Compilers,2026-05-02\n');

    const input = await page.waitForSelector('input[data-testid="batch-file"]', WAIT);
    await input!.uploadFile(bad);
    await page.click('form[aria-label="Upload certificates CSV"] button[type="submit"]');
    const row = await textOf('[data-testid="batch-errors"] [data-testid="rejected-row-3"]');
    expect(row).toContain('Grace Hopper');
    expect(row).toContain('not-a-date');
    expect(row).toContain('issue_date');
    expect(await page.$('[data-testid="rejected-row-2"]')).toBeNull();
    await snap('certificates-batch-rejected');
    // All or nothing: the rejected upload issued nothing.
    expect(await page.evaluate(() => document.querySelectorAll('[data-testid^="certificate-"]').length)).toBe(0);

    const again = await page.waitForSelector('input[data-testid="batch-file"]', WAIT);
    await again!.uploadFile(good);
    await page.click('form[aria-label="Upload certificates CSV"] button[type="submit"]');
    expect(await textOf('[data-testid="batch-result"]')).toContain('Issued 2 certificates');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="certificate-"]').length === 2, WAIT);
    const listed = await page.evaluate(() => Array.from(document.querySelectorAll('[data-testid^="certificate-"]')).map((row) => (row as HTMLElement).innerText).join('\n'));
    expect(listed).toContain('Ada Lovelace');
    expect(listed).toContain('Grace Hopper');
    expect(await page.$('[data-testid="batch-errors"]')).toBeNull();
    await snap('certificates-issued');
  }, 120_000);

  it('upgrades the plan through Gateway A: checkout in the page, the signed payment webhook, the activation shown', async () => {
    await openSection('/billing', 'Credits & plan');
    expect(await textOf('[data-testid="current-plan"]')).toBe('Free');
    const before = Number(await textOf('[data-testid="credit-balance"]'));
    await page.waitForSelector('form[aria-label="Upgrade plan"] select[name="plan"] option[value="starter"]', WAIT);
    await snap('billing');
    await page.select('form[aria-label="Upgrade plan"] select[name="plan"]', 'starter');
    await page.select('form[aria-label="Upgrade plan"] select[name="gateway"]', 'gateway-a');
    await page.click('form[aria-label="Upgrade plan"] button[type="submit"]');
    // The checkout opens the gateway's hosted page, which (in this fake) sends the payer straight back with the reference.
    await page.waitForFunction(() => location.pathname === '/dashboard/billing' && new URLSearchParams(location.search).has('reference'), WAIT);
    const reference = new URL(page.url()).searchParams.get('reference')!;
    const asked = initialised.get(reference);
    expect(asked).toBeDefined();
    const payment = { reference, amount: asked! };
    expect(await textOf('[data-testid="checkout-reference"]')).toBe(payment.reference);
    await snap('billing-checkout-pending');

    // The customer pays on the gateway's page (the fake gateway now knows the charge), and the gateway calls the webhook.
    charges.set(payment.reference, { amount: payment.amount.amount, currency: payment.amount.currency });
    const body = JSON.stringify({
      event: 'charge.success',
      data: { id: 4099260516, reference: payment.reference, amount: payment.amount.amount, currency: payment.amount.currency, status: 'success', paid_at: new Date().toISOString() },
    });
    const forged = await fetch(`${system.gatewayUrl}/webhooks/payments/gateway-a`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Gateway-Signature': 'ab'.repeat(64) },
      body,
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    const delivered = await fetch(`${system.gatewayUrl}/webhooks/payments/gateway-a`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Gateway-Signature': signGatewayA(body) },
      body,
    });
    expect(delivered.status).toBe(200);
    expect(await delivered.json()).toEqual({ received: true });

    // The page polls the plan until the payment is confirmed (or "Check now").
    await page.waitForFunction(() => document.querySelector('[data-testid="current-plan"]')?.textContent === 'Starter', { timeout: 60_000 });
    expect(await textOf('[data-testid="checkout-status"]')).toContain('is active');
    expect(Number(await textOf('[data-testid="credit-balance"]'))).toBe(before + 100);
    // The ledger shows the upgrade's grant (and the two certificates issued above).
    await page.waitForFunction(() => Array.from(document.querySelectorAll('main tr')).some((row) => /\+100/.test(row.textContent ?? '') && /plan.upgrade/.test(row.textContent ?? '')), WAIT);
    await snap('billing-activated');
    const credits = await gatewayFetch('/api/v1/credits', { headers: { Authorization: `Bearer ${certificateKey}` } });
    expect(credits.body).toMatchObject({ plan: 'starter', balance: Number(await textOf('[data-testid="credit-balance"]')) });
  }, 120_000);

  it('creates a mobility key, registers a webhook endpoint, and a ride cancelled with the key shows as a delivery in its log', async () => {
    await openSection('/api-keys/mobility', 'Mobility API keys');
    await type('form[aria-label="Create an API key"] input[name="name"]', 'Dispatch server');
    for (const scope of ['rides:write', 'rides:read']) await page.click(`form[aria-label="Create an API key"] input[name="scopes"][value="${scope}"]`);
    // Live: the dashboard's rides and webhook pages show live data (a test key's rides and events are the sandbox's).
    await page.select('form[aria-label="Create an API key"] select[name="mode"]', 'live');
    await page.click('form[aria-label="Create an API key"] button[type="submit"]');
    const mobilityKey = await textOf('[data-testid="api-key-token"]');
    expect(mobilityKey).toMatch(/^mk_/);
    expect(mobilityKey).not.toMatch(/^mk_test_/);
    await page.waitForFunction(() => document.querySelector('main table')?.textContent?.includes('Dispatch server'), WAIT);
    await snap('api-keys-mobility-created');

    await openSection('/webhooks', 'Webhooks');
    await snap('webhooks');
    const url = `${receiver.url}/hooks/rides`;
    await type('form[aria-label="Register a webhook endpoint"] input[name="url"]', url);
    await type('form[aria-label="Register a webhook endpoint"] input[name="description"]', 'Our dispatch server');
    await page.click('form[aria-label="Register a webhook endpoint"] input[name="events"][value="ride.cancelled"]');
    await page.click('form[aria-label="Register a webhook endpoint"] button[type="submit"]');
    const secret = await textOf('[data-testid="webhook-secret"]');
    expect(secret).toMatch(/^whsec_/);
    await page.waitForFunction((text) => document.querySelector('main table')?.textContent?.includes(text), WAIT, url);
    await snap('webhooks-registered');

    // The partner's server uses the key: a ride, then its cancellation.
    const ride = await gatewayFetch('/api/v1/rides', {
      method: 'POST',
      headers: { Authorization: `Bearer ${mobilityKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4654, lng: 3.4064 }, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+2348020000000' } }),
    });
    expect(ride.status).toBe(201);
    const rideId = String(ride.body.id);
    const cancelled = await gatewayFetch(`/api/v1/rides/${encodeURIComponent(rideId)}/cancel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${mobilityKey}` },
    });
    expect(cancelled.status).toBe(200);

    // The receiver gets the signed ride.cancelled event.
    const delivery = await receivedOne();
    expect(delivery.url).toBe('/hooks/rides');
    expect(verifyStandardWebhook(delivery.body, delivery.headers, secret)).toBe(true);
    const event = JSON.parse(delivery.body.toString('utf8')) as { type: string; data: unknown };
    expect(event.type).toBe('ride.cancelled');
    expect(JSON.stringify(event.data)).toContain(rideId);

    // The endpoint's page: its delivery log lists that delivery as succeeded (refreshed until the worker has recorded it).
    await (await page.waitForSelector(`main table a::-p-text("${url}")`, WAIT))!.click();
    await page.waitForSelector('[data-testid="delivery-log"]', WAIT);
    const succeeded = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('[data-testid^="delivery-"]:not([data-testid="delivery-log"])')).some(
          (row) => (row as HTMLElement).innerText.includes('ride.cancelled') && (row as HTMLElement).innerText.includes('Succeeded'),
        ),
      );
    for (let attempt = 0; attempt < 60 && !(await succeeded()); attempt++) {
      const refreshed = page.waitForResponse((response) => /\/dashboard\/api\/mobility\/webhooks\/[^/]+\/deliveries/.test(response.url()), WAIT);
      await (await page.waitForSelector('main button::-p-text(Refresh)', WAIT))!.click();
      await refreshed;
    }
    expect(await succeeded()).toBe(true);
    expect(await textOf('[data-testid="delivery-log"]')).toContain('200');
    await snap('webhook-endpoint-delivery-log');

    // The rides page lists the ride, cancelled.
    await openSection('/rides', 'Rides');
    await page.waitForFunction((id) => document.querySelector('main')?.textContent?.includes(id), WAIT, rideId);
    expect(await page.evaluate((id) => Array.from(document.querySelectorAll('main tr')).find((row) => row.textContent?.includes(id))?.textContent, rideId)).toContain('Cancelled');
    await snap('rides');
  }, 180_000);

  it('invites a member through a link, who signs up with it in another browser and confirms the mailed link; roles change; the last owner stays', async () => {
    await openSection('/members', 'Members');
    await page.waitForSelector(`[data-testid="member-${OWNER.email}"]`, WAIT);
    await snap('members');
    await page.select('form[aria-label="Invite a member"] select[name="role"]', 'member');
    await page.click('form[aria-label="Invite a member"] button[type="submit"]');
    const inviteUrl = await textOf('[data-testid="invite-url"]');
    expect(inviteUrl).toMatch(new RegExp(`/dashboard/invite/\\S+$`));
    await snap('members-invitation-link');

    // The invitee: a separate browser context (no cookies of the owner), opening the link on the gateway's origin.
    const invitation = new URL(inviteUrl);
    const context: BrowserContext = await browser.createBrowserContext();
    try {
      const guest = await context.newPage();
      await guest.setViewport({ width: 1280, height: 900 });
      const guestForeign = refuseForeignRequests(guest, system.gatewayUrl);
      const asGuest = dashboardPage(() => ({ page: guest, gatewayUrl: system.gatewayUrl }));
      await guest.goto(`${system.gatewayUrl}${invitation.pathname}`, { waitUntil: 'networkidle0' });
      expect(await asGuest.textOf('[data-testid="invitation-summary"]')).toContain(OWNER.organization);
      await snap('invitation', guest);
      await asGuest.type('form[aria-label="Sign up"] input[name="name"]', INVITEE.name);
      await asGuest.type('form[aria-label="Sign up"] input[name="email"]', INVITEE.email);
      await asGuest.type('form[aria-label="Sign up"] input[name="password"]', INVITEE.password);
      expect(await guest.$('form[aria-label="Sign up"] input[name="organization_name"]')).toBeNull();
      await guest.click('form[aria-label="Sign up"] button[type="submit"]');
      await guest.waitForSelector('[data-testid="check-inbox"]', WAIT);
      await guest.goto(`${system.gatewayUrl}${await mailedLink(system, INVITEE.email, 'verify-email')}`, { waitUntil: 'networkidle0' });
      await guest.waitForSelector('form[aria-label="Confirm your email"] input[name="password"]', WAIT);
      await guest.type('form[aria-label="Confirm your email"] input[name="password"]', INVITEE.password);
      await guest.click('form[aria-label="Confirm your email"] button[type="submit"]');
      await guest.waitForFunction((email) => document.querySelector('[data-testid="account-email"]')?.textContent === email, WAIT, INVITEE.email);
      expect(await asGuest.textOf('[data-testid="organization-switcher"]')).toContain(OWNER.organization);
      // A member reads keys but cannot create them.
      await (await guest.waitForSelector('nav[aria-label="Sections"] a[href="/dashboard/api-keys/certificate"]', WAIT))!.click();
      await guest.waitForFunction(() => document.querySelector('main table')?.textContent?.includes('Issuing robot'), WAIT);
      expect(await guest.$('form[aria-label="Create an API key"]')).toBeNull();
      await snap('api-keys-as-member', guest);
      expect(guestForeign).toEqual([]);
    } finally {
      await context.close();
    }

    // Back to the owner: the invitee is listed (after a reload of the list) with the invited role.
    await page.reload({ waitUntil: 'networkidle0' });
    const inviteeRow = `[data-testid="member-${INVITEE.email}"]`;
    await page.waitForSelector(inviteeRow, WAIT);
    expect(await page.$eval(`${inviteeRow} select`, (select) => (select as HTMLSelectElement).value)).toBe('member');

    await page.select(`${inviteeRow} select`, 'operator');
    await page.waitForFunction((selector) => (document.querySelector(selector) as HTMLSelectElement | null)?.value === 'operator', WAIT, `${inviteeRow} select`);
    const afterChange = await gatewayFetch('/dashboard/api/auth/sessions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: system.gatewayUrl },
      body: JSON.stringify({ email: INVITEE.email, password: INVITEE.password }),
    });
    expect(afterChange.status).toBe(200);
    expect(afterChange.body.organization).toMatchObject({ name: OWNER.organization, role: 'operator' });

    // The owner is the only owner: demoting or leaving is refused with last_owner, shown beside the owner's row.
    const ownerRow = `[data-testid="member-${OWNER.email}"]`;
    const memberAnswer = (method: string) =>
      page.waitForResponse((response) => response.request().method() === method && /\/dashboard\/api\/certificate\/members\/acc_/.test(response.url()), WAIT);
    page.once('dialog', (dialog) => void dialog.accept());
    const leaving = memberAnswer('DELETE');
    await page.click(`${ownerRow} button.danger`);
    const left = await leaving;
    expect(left.status()).toBe(409);
    expect(await left.json()).toMatchObject({ code: 'last_owner' });
    const refusal = await textOf(`${ownerRow} [role="alert"]`);
    expect(refusal).toMatch(/owner/i);
    const demoting = memberAnswer('PATCH');
    await page.select(`${ownerRow} select`, 'member');
    const demoted = await demoting;
    expect(demoted.status()).toBe(409);
    expect(await demoted.json()).toMatchObject({ code: 'last_owner' });
    await page.waitForFunction((selector) => (document.querySelector(selector) as HTMLElement | null)?.innerText.match(/owner/i), WAIT, `${ownerRow} [role="alert"]`);
    await snap('members-last-owner');
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector(ownerRow, WAIT);
    expect(await page.$eval(`${ownerRow} select`, (select) => (select as HTMLSelectElement).value)).toBe('owner');
    expect(await textOf('[data-testid="account-email"]')).toBe(OWNER.email);
  }, 180_000);
});

describe('the admin API through the gateway', () => {
  it('refuses every /dashboard/api/certificate|mobility request without a dashboard token, and /admin/v1 is not routed', async () => {
    const attempts: { path: string; headers?: Record<string, string>; code: string }[] = [
      { path: '/dashboard/api/certificate/api-keys', code: 'missing_token' },
      { path: '/dashboard/api/certificate/members', code: 'missing_token' },
      { path: '/dashboard/api/mobility/api-keys', code: 'missing_token' },
      { path: '/dashboard/api/mobility/drivers', code: 'missing_token' },
      { path: '/dashboard/api/mobility/webhooks', code: 'missing_token' },
      { path: '/dashboard/api/mobility/rides', code: 'missing_token' },
      { path: '/dashboard/api/certificate/credits/ledger', code: 'missing_token' },
      { path: '/dashboard/api/certificate/api-keys', headers: { Authorization: 'Bearer not-a-jwt' }, code: 'invalid_token' },
      // A partner API key is no dashboard token.
      { path: '/dashboard/api/certificate/api-keys', headers: { Authorization: `Bearer ${certificateKey}` }, code: 'invalid_token' },
    ];
    for (const attempt of attempts) {
      const answer = await gatewayFetch(attempt.path, { headers: attempt.headers });
      expect({ path: attempt.path, status: answer.status, type: answer.contentType, code: answer.body.code }).toEqual({
        path: attempt.path,
        status: 401,
        type: expect.stringMatching(/^application\/problem\+json/),
        code: attempt.code,
      });
    }
    for (const direct of ['/admin/v1/api-keys', '/admin/v1/members', '/admin/v1/drivers', '/admin/v1/webhooks', '/admin/v1/credits']) {
      const answer = await gatewayFetch(direct);
      expect(answer.status).toBe(404);
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
    }
  }, 60_000);
});
