/**
 * The Issuer identity page end to end: the real system behind its gateway, driven in Debian's Chromium, with axe-core
 * run on every page state visited. An owner signs up, sees the organization's DID and that its identity is not
 * verified, starts a domain verification and gets the exact file URL and token, sees a check refused in words while the
 * file holds something else, serves the token and checks the domain verified, and rotates the signing key (the keys
 * shown are the did.json's). The domain is a loopback server's (ISSUER_DOMAIN_ALLOW_HTTP / _PRIVATE, tests only).
 * No page scrolls sideways at 1280 px. Screenshots go to test-artifacts/issuer/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'issuer';
const OWNER = { name: 'Grace Hopper', email: 'grace@example.test', password: 'compiler cobol 1959 navy', organization: 'Harvard Mark Academy' };
const PROOF_PATH = '/.well-known/partner-platform-issuer.txt';

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
/** What the organization's own web server serves at the proof path. */
let proofFile = 'nothing here yet\n';
const proofServer = http.createServer((req, res) => {
  if (req.url === PROOF_PATH) res.writeHead(200, { 'content-type': 'text/plain' }).end(proofFile);
  else res.writeHead(404).end();
});
let domain = '';
const { textOf, type, visit, expectAccessible, signUpOwner, gatewayFetch } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  await new Promise<void>((resolve) => proofServer.listen(0, '127.0.0.1', resolve));
  domain = `127.0.0.1:${(proofServer.address() as AddressInfo).port}`;
  [system, browser] = await startTogether([startSystem('e2e_issuer', { ISSUER_DOMAIN_ALLOW_HTTP: 'true', ISSUER_DOMAIN_ALLOW_PRIVATE: 'true' }), launchBrowser()]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await new Promise((resolve) => proofServer.close(resolve));
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

/** The page fits 1280 px: nothing scrolls sideways. */
async function expectNoSidewaysScroll(name: string): Promise<void> {
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect({ page: name, overflow: width.scroll - width.client }).toEqual({ page: name, overflow: 0 });
}

async function checkNow(): Promise<void> {
  const checked = page.waitForResponse((response) => response.url().includes('/issuer/domain-verification/check'), WAIT);
  await page.click('[data-testid="domain-proof"] button::-p-text(Check now)');
  await checked;
}

describe('the Issuer identity page in Chromium', () => {
  let token = '';

  it('shows the DID and an unverified identity to a new owner', async () => {
    await signUpOwner(system, OWNER);
    await visit('/issuer', 'Issuer identity');
    expect(await textOf('[data-testid="issuer-identity"]')).toContain('Issuer identity not verified');
    expect(await textOf('[data-testid="issuer-did"]')).toMatch(/^did:web:.+:issuers:.+$/);
    expect(await textOf('main [data-testid="data-mode-label"]')).toBe('Same in live and test');
    expect(await page.title()).toBe('Issuer identity · Partner dashboard');
    await expectAccessible('issuer-unverified');
    await expectNoSidewaysScroll('issuer-unverified');
  }, 120_000);

  it('starts a domain verification: the exact file URL and the token to serve', async () => {
    const form = 'form[aria-label="Verify a domain"]';
    await type(`${form} input[name="domain"]`, domain);
    const started = page.waitForResponse((response) => response.url().endsWith('/issuer/domain-verification') && response.request().method() === 'POST', WAIT);
    await page.click(`${form} button[type="submit"]`);
    expect((await started).status()).toBe(201);
    token = await textOf('[data-testid="domain-proof-token"]');
    expect(token).toMatch(/^ppi-/);
    expect(await textOf('[data-testid="domain-proof-url"]')).toBe(`http://${domain}${PROOF_PATH}`);
    await screenshot(page, SUITE, 'domain-started');
    await expectAccessible('issuer-domain-started');
    await expectNoSidewaysScroll('issuer-domain-started');
  }, 60_000);

  it('says in words why a check failed while the file does not hold the token, and changes nothing', async () => {
    await checkNow();
    expect(await textOf('[data-testid="domain-check-error"]')).toContain("does not hold this verification's token");
    expect(await textOf('[data-testid="domain-check-advice"]')).toContain('exactly as shown');
    expect(await textOf('[data-testid="issuer-identity"]')).toContain('Issuer identity not verified');
    await expectAccessible('issuer-check-refused');
  }, 60_000);

  it('verifies the domain once the file holds the token, also after a reload', async () => {
    proofFile = `${token}\n`;
    await checkNow();
    expect(await textOf('[data-testid="domain-verified"]')).toContain(`Verified domain ${domain}`);
    expect(await textOf('[data-testid="issuer-identity"]')).toContain(`Verified domain ${domain}, since`);
    await visit('/issuer', 'Issuer identity');
    expect(await textOf('[data-testid="issuer-identity"]')).toContain(`Verified domain ${domain}, since`);
    expect(await page.$('[data-testid="domain-proof"]')).toBeNull();
    await expectAccessible('issuer-verified');
    await expectNoSidewaysScroll('issuer-verified');
  }, 60_000);

  it('rotates the signing key after a confirmation; the keys shown are the DID document’s', async () => {
    page.on('dialog', (dialog) => void dialog.accept());
    for (const expected of [1, 2]) {
      const rotated = page.waitForResponse((response) => response.url().endsWith('/issuer/keys/rotate'), WAIT);
      await page.evaluate(() => Array.from(document.querySelectorAll('button')).find((button) => button.textContent === 'Rotate signing key')!.click());
      expect((await rotated).status()).toBe(200);
      await page.waitForFunction((count) => document.querySelectorAll('[data-testid="issuer-key"]').length === count, WAIT, expected);
    }
    const rows = await page.$$eval('[data-testid="issuer-key"]', (trs) => trs.map((tr) => ({ id: tr.querySelector('code')!.textContent!, state: tr.lastElementChild!.textContent! })));
    expect(rows.map((row) => row.state.startsWith('Current'))).toEqual([false, true]);
    expect(rows[0]!.state).toMatch(/^Retired/);
    const did = await textOf('[data-testid="issuer-did"]');
    const href = await page.$eval('main a[href$="/did.json"]', (link) => new URL((link as HTMLAnchorElement).href).pathname);
    const didDocument = await gatewayFetch(href);
    expect(didDocument.status).toBe(200);
    expect(didDocument.body.id).toBe(did);
    const published = (didDocument.body.verificationMethod as { id: string }[]).map((method) => method.id);
    for (const row of rows) expect(published).toContain(row.id);
    await screenshot(page, SUITE, 'rotated');
    await expectAccessible('issuer-rotated');
    await expectNoSidewaysScroll('issuer-rotated');
  }, 60_000);
});
