/**
 * The dashboard issue's defects 5, 7, 11 and 12 (fixed in an earlier round) in a browser: the real system behind its
 * gateway, driven in Debian's Chromium, with axe-core on every page visited and no sideways scrolling at 1280 px
 * (dashboard pages) or 390 px (public pages). One organization signs up first; the tests run in order and build on it.
 * Defect 5: a revoked credential's page keeps its REVOKED band clear of the issuer's logo and says when it was revoked;
 * the verifier's result fits a phone. Defect 7: a pass row shows its code once, rows are newest first (a batch by
 * attendee reference), and issuing one pass empties the attendee fields. Defect 11: key hints have one ellipsis, and a
 * certificate key says what it may do instead of "—". Defect 12: the sign-up notice says "Check your inbox" once, the
 * tracking page says what is expected where while the courier is on the way to collect, and tiers and areas are words.
 * Screenshots go to test-artifacts/dashboard-round3/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { axeViolations } from '../helpers/axe';
import { launchBrowser, refuseForeignRequests, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { mailedLink } from '../helpers/mail-inbox';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'dashboard-round3';
const OWNER = { name: 'Annie Easley', email: 'annie@example.test', password: 'centaur upper stage 1963', organization: 'Lewis Field Training' };
const VENUE = { lat: 6.4654, lng: 3.4064 };
const DELIVERY = {
  pickup: { lat: 6.4541, lng: 3.3947, address: '12 Marina Road, Lagos Island' },
  dropoff: { lat: 6.4654, lng: 3.4064, address: '3 Awolowo Road, Ikoyi' },
  sender: { name: 'Ada Obi', phone: '+2348020000000' },
  recipient: { name: 'Tunde Bello', phone: '+2348098765432' },
  weight_tier: 'small',
};
const CERTIFICATE_KEY_CAN = 'Read credits, verify certificates (every certificate key)';

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
let files: string;
let testKey = '';
const { textOf, type, open, visit, expectAccessible } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  files = mkdtempSync(path.join(os.tmpdir(), 'dashboard-round3-'));
  [system, browser] = await startTogether([startSystem('e2e_dashboard_round3'), launchBrowser()]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
  page.on('dialog', (dialog) => void dialog.accept());
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

/** Nothing scrolls sideways: the page is no wider than the window. */
async function expectNoHorizontalOverflow(on: Page = page): Promise<void> {
  const widths = await on.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

/** A public page of the gateway in a tab of its own at phone width (390 px), refusing requests to any other origin. */
async function openPublic(pathname: string): Promise<{ tab: Page; offOrigin: string[] }> {
  const tab = await browser.newPage();
  const offOrigin = refuseForeignRequests(tab, system.gatewayUrl);
  await tab.setViewport({ width: 390, height: 844 });
  await tab.goto(`${system.gatewayUrl}${pathname}`, { waitUntil: 'networkidle0', timeout: 60_000 });
  return { tab, offOrigin };
}

async function expectPublicAccessible(tab: Page, name: string): Promise<void> {
  expect({ page: name, violations: await axeViolations(tab) }).toEqual({ page: name, violations: [] });
}

/** A wide logo (320×120) drawn by the browser's own canvas on a blank tab, written to a temporary file. */
async function drawnLogo(): Promise<string> {
  const blank = await browser.newPage();
  const data = await blank.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 120;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#0F766E';
    context.fillRect(0, 0, 320, 120);
    context.fillStyle = '#FFFFFF';
    context.font = 'bold 64px sans-serif';
    context.fillText('LFT', 90, 84);
    return canvas.toDataURL('image/png').split(',')[1]!;
  });
  await blank.close();
  const file = path.join(files, 'logo.png');
  writeFileSync(file, Buffer.from(data, 'base64'));
  return file;
}

/** Creates a key on /api-keys/<service> and returns the token shown once. */
async function createKey(service: 'certificate' | 'mobility', name: string, scopes: string[] = [], mode?: 'live' | 'test'): Promise<string> {
  await visit(`/api-keys/${service}`, service === 'certificate' ? 'Certificate API keys' : 'Mobility API keys');
  await type('form[aria-label="Create an API key"] input[name="name"]', name);
  for (const scope of scopes) await page.click(`form[aria-label="Create an API key"] input[name="scopes"][value="${scope}"]`);
  if (mode) await page.select('form[aria-label="Create an API key"] select[name="mode"]', mode);
  await page.click('form[aria-label="Create an API key"] button[type="submit"]');
  const token = await textOf('[data-testid="api-key-token"]');
  await page.waitForFunction((text) => document.querySelector('main table')?.textContent?.includes(text), WAIT, name);
  return token;
}

/** The key row named `name`: its hint, its scopes cell and its whole text. */
async function keyRow(name: string): Promise<{ hint: string; scopes: string; text: string }> {
  return page.$$eval(
    'main tbody tr[data-testid^="api-key-"]',
    (rows, wanted) => {
      const row = rows.find((candidate) => candidate.querySelector('strong')?.textContent === wanted)!;
      return {
        hint: (row.querySelector('td:first-child .muted') as HTMLElement).innerText.trim(),
        scopes: (row.querySelector('td:nth-child(3)') as HTMLElement).innerText.trim(),
        text: (row as HTMLElement).innerText,
      };
    },
    name,
  );
}

async function api(pathname: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${system.gatewayUrl}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${testKey}`, 'Content-Type': 'application/json' },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the dashboard, round 3 (defects 5, 7, 11 and 12), in Chromium', () => {
  it('defect 12: the sign-up notice says "Check your inbox" once, then the mailed link signs the owner in', async () => {
    await open('/dashboard/sign-up');
    await type('form[aria-label="Sign up"] input[name="name"]', OWNER.name);
    await type('form[aria-label="Sign up"] input[name="email"]', OWNER.email);
    await type('form[aria-label="Sign up"] input[name="password"]', OWNER.password);
    await type('form[aria-label="Sign up"] input[name="organization_name"]', OWNER.organization);
    await page.click('form[aria-label="Sign up"] button[type="submit"]');
    const notice = await textOf('[data-testid="check-inbox"]');
    expect(notice.match(/check your inbox/gi)).toHaveLength(1);
    expect(notice).toContain(OWNER.email);
    const whole = await page.evaluate(() => document.body.innerText);
    expect(whole.match(/check your inbox/gi)).toHaveLength(1);
    await expectNoHorizontalOverflow();
    await expectAccessible('sign-up-check-inbox');
    await screenshot(page, SUITE, 'sign-up-check-inbox');

    await open(await mailedLink(system, OWNER.email, 'verify-email'));
    await type('form[aria-label="Confirm your email"] input[name="password"]', OWNER.password);
    await page.click('form[aria-label="Confirm your email"] button[type="submit"]');
    await page.waitForFunction((email) => document.querySelector('[data-testid="account-email"]')?.textContent === email, WAIT, OWNER.email);
  }, 120_000);

  it('defect 11: key hints have one ellipsis; a certificate key shows what it may do, not "Scopes —"', async () => {
    const certificateToken = await createKey('certificate', 'Issuing robot');
    expect(certificateToken).toMatch(/^ck_/);
    const certificate = await keyRow('Issuing robot');
    expect(certificate.hint).toBe(`${certificateToken.slice(0, 7)}…${certificateToken.slice(-4)}`);
    expect(certificate.hint).not.toContain('……');
    expect(certificate.hint.match(/…/g)).toHaveLength(1);
    expect(certificate.hint).not.toMatch(/…\s*ck_/);
    expect(certificate.scopes).toBe(CERTIFICATE_KEY_CAN);
    expect(certificate.text).not.toMatch(/Scopes\s*—/);
    expect(certificate.text).not.toContain('—');
    await expectNoHorizontalOverflow();
    await expectAccessible('api-keys-certificate');
    await screenshot(page, SUITE, 'api-keys-certificate');

    testKey = await createKey('mobility', 'Parcel sandbox', ['deliveries:write', 'deliveries:read'], 'test');
    expect(testKey).toMatch(/^mk_test_/);
    const mobility = await keyRow('Parcel sandbox');
    expect(mobility.hint).toBe(`${testKey.slice(0, 7)}…${testKey.slice(-4)}`);
    expect(mobility.hint.match(/…/g)).toHaveLength(1);
    expect(mobility.hint).not.toMatch(/…\s*mk_/);
    expect(mobility.scopes).toBe('deliveries:write, deliveries:read');
    await expectNoHorizontalOverflow();
    await expectAccessible('api-keys-mobility');
  }, 120_000);

  it("defect 5: a revoked certificate's page keeps the REVOKED band off the logo and shows the revocation date; the verifier's result fits 390 px", async () => {
    // A template with a logo: the credential page is branded with it.
    const logo = await drawnLogo();
    await visit('/templates', 'Templates');
    await type('form[aria-label="Create a template"] input[name="name"]', 'Lewis course');
    await type('form[aria-label="Create a template"] input[name="issuer_name"]', 'Lewis Field Training Office');
    await (await page.waitForSelector('form[aria-label="Create a template"] input[name="logo"]', WAIT))!.uploadFile(logo);
    await page.waitForFunction(() => (document.querySelector('form[aria-label="Create a template"] input[name="logo"]') as HTMLInputElement).files?.length === 1, WAIT);
    await page.click('form[aria-label="Create a template"] button[type="submit"]');
    expect(await textOf('[data-testid="template-created"]')).toContain('Created Lewis course');
    await expectNoHorizontalOverflow();
    await expectAccessible('templates-created');

    // One certificate with that template, revoked from its row.
    await visit('/certificates', 'Certificates');
    const form = 'form[aria-label="Issue a certificate"]';
    await type(`${form} input[name="recipient_name"]`, 'Mary Winston Jackson');
    await type(`${form} input[name="program_title"]`, 'Rocket Propulsion 101');
    await type(`${form} input[name="issue_date"]`, '05012026'); // Chromium's en-US date field: mm dd yyyy
    await page.waitForFunction((selector) => Array.from(document.querySelectorAll(`${selector} select[name="template_id"] option`)).some((option) => option.textContent?.startsWith('Lewis course')), WAIT, form);
    const templateId = await page.$eval(`${form} select[name="template_id"]`, (select) => Array.from((select as HTMLSelectElement).options).find((option) => option.text.startsWith('Lewis course'))!.value);
    await page.select(`${form} select[name="template_id"]`, templateId);
    const issued = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/certificate/certificates') && response.request().method() === 'POST', WAIT);
    await page.click(`${form} button[type="submit"]`);
    expect((await issued).status()).toBe(201);
    const revoke = await page.waitForSelector('[data-testid^="certificate-"] button.danger', WAIT);
    const revoked = page.waitForResponse((response) => /\/certificates\/[^/]+\/revoke$/.test(response.url()), WAIT);
    await revoke!.click();
    expect((await revoked).status()).toBe(200);
    const publicUrl = await page.$eval('[data-testid^="certificate-"] a[target="_blank"]', (link) => (link as HTMLAnchorElement).href);
    const credentialPath = new URL(publicUrl).pathname;
    expect(credentialPath).toMatch(/^\/credentials\/[^/]+$/);
    const code = decodeURIComponent(credentialPath.split('/')[2]!);
    await expectNoHorizontalOverflow();
    await expectAccessible('certificates-revoked');

    // The public page, at phone width and at desktop width: the band sits below the logo, never over it.
    const { tab, offOrigin } = await openPublic(credentialPath);
    try {
      for (const width of [390, 1280]) {
        await tab.setViewport({ width, height: 844 });
        await tab.waitForFunction(() => {
          const image = document.querySelector('header.brand img.logo') as HTMLImageElement | null;
          return image?.complete && image.naturalWidth > 0;
        }, WAIT);
        const boxes = await tab.evaluate(() => {
          const box = (selector: string) => {
            const rect = document.querySelector(selector)!.getBoundingClientRect();
            return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right, width: rect.width, height: rect.height };
          };
          return { band: box('[data-band="revoked"]'), logo: box('header.brand img.logo') };
        });
        expect(boxes.logo.width).toBeGreaterThan(0);
        expect(boxes.logo.height).toBeGreaterThan(0);
        const overlaps = boxes.band.left < boxes.logo.right && boxes.logo.left < boxes.band.right && boxes.band.top < boxes.logo.bottom && boxes.logo.top < boxes.band.bottom;
        expect({ width, overlaps }).toEqual({ width, overlaps: false });
        // The logo is visible: the element drawn at its centre is the logo itself.
        const onTop = await tab.evaluate(() => {
          const rect = document.querySelector('header.brand img.logo')!.getBoundingClientRect();
          return document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2)?.matches('header.brand img.logo');
        });
        expect(onTop).toBe(true);
      }
      expect(await tab.$eval('[data-band="revoked"]', (band) => (band as HTMLElement).innerText.trim())).toBe('REVOKED');
      const terms = await tab.$$eval('main dl dt', (items) => items.map((item) => item.textContent));
      expect(terms).toContain('Revoked on');
      const revokedOn = await tab.$eval('main dl', (list) => {
        const term = Array.from(list.querySelectorAll('dt')).find((item) => item.textContent === 'Revoked on')!;
        return (term.nextElementSibling as HTMLElement).innerText.trim();
      });
      expect(revokedOn).toMatch(/\d/);
      expect(await tab.$eval('main .status', (status) => (status as HTMLElement).innerText)).toContain(`on ${revokedOn}`);
      await tab.setViewport({ width: 390, height: 844 });
      await expectNoHorizontalOverflow(tab);
      await expectPublicAccessible(tab, 'credential-revoked');
      await screenshot(tab, SUITE, 'credential-revoked-390');

      // The verifier (/credentials/verify?code=…) checks the code and shows the result, within 390 px.
      await tab.goto(`${system.gatewayUrl}/credentials/verify?code=${encodeURIComponent(code)}`, { waitUntil: 'networkidle0', timeout: 60_000 });
      await tab.waitForFunction(() => document.querySelector('#result')?.getAttribute('data-status') === 'revoked', WAIT);
      expect(await tab.$eval('#result', (result) => (result as HTMLElement).hidden)).toBe(false);
      await expectNoHorizontalOverflow(tab);
      const inside = await tab.evaluate(() =>
        Array.from(document.querySelectorAll('#result, #result-details, #result-details *')).every((element) => element.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5),
      );
      expect(inside).toBe(true);
      await expectPublicAccessible(tab, 'verifier-revoked');
      await screenshot(tab, SUITE, 'verifier-revoked-390');
      expect(offOrigin).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 180_000);

  describe('event passes', () => {
    let programPath = '';

    it('defect 12: the program form names tiers and areas in words (no "Xl", no "(Both)")', async () => {
      await visit('/event-passes', 'Event pass programs');
      const form = 'form[aria-label="Create a program"]';
      const tiers = await page.$$eval(`${form} fieldset label.checkbox`, (labels) => labels.map((label) => (label as HTMLElement).innerText.trim()));
      expect(tiers).toEqual(['Moto', 'Economy', 'Comfort', 'XL']);
      const areas = await page.$$eval(`${form} select[name="applies_to"] option`, (options) => options.map((option) => option.textContent));
      expect(areas).toEqual(['To or from the venue', 'To the venue', 'From the venue']);
      const formText = await page.$eval(form, (element) => (element as HTMLElement).innerText);
      expect(formText).not.toMatch(/\bXl\b|\(Both\)|\bboth\b/);
      await expectNoHorizontalOverflow();
      await expectAccessible('event-passes');

      await type(`${form} input[name="name"]`, 'Lagos Book Fair');
      await type(`${form} input[name="budget"]`, '5000');
      await type(`${form} input[name="max_fare_per_ride"]`, '3000');
      await type(`${form} input[name="lat"]`, String(VENUE.lat));
      await type(`${form} input[name="lng"]`, String(VENUE.lng));
      await type(`${form} input[name="address"]`, 'Freedom Park');
      await page.click(`${form} input[name="tiers"][value="xl"]`);
      const local = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
      await page.$eval(`${form} input[name="valid_from"]`, (input, value) => ((input as HTMLInputElement).value = value), local(new Date(Date.now() - 3_600_000)));
      await page.$eval(`${form} input[name="valid_until"]`, (input, value) => ((input as HTMLInputElement).value = value), local(new Date(Date.now() + 86_400_000)));
      await page.click(`${form} button[type="submit"]`);
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Lagos Book Fair', WAIT);
      programPath = new URL(page.url()).pathname.replace('/dashboard', '');
      expect(programPath).toMatch(/^\/event-passes\/evp_/);

      const area = await page.$eval('main dl.details', (list) => {
        const term = Array.from(list.querySelectorAll('dt')).find((item) => item.textContent === 'Area')!;
        return (term.nextElementSibling as HTMLElement).innerText.trim();
      });
      expect(area).toBe(`Freedom Park, within 500 m of ${VENUE.lat}, ${VENUE.lng} (pick-up or drop-off)`);
      const main = await page.$eval('main', (element) => (element as HTMLElement).innerText);
      expect(main).not.toMatch(/\bXl\b|\(Both\)|\(both\)/);
      await expectNoHorizontalOverflow();
      await expectAccessible('event-pass-program');
    }, 120_000);

    it('defect 7: issuing one pass empties the attendee fields; each row shows its code once, newest first and a batch by reference', async () => {
      await visit(programPath, 'Lagos Book Fair');
      await type('#pass-reference', 'FAIR-0001');
      await type('#pass-name', 'Ada Obi');
      await page.click('form[aria-label="Issue passes"] button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="issued"]')?.textContent === 'Issued 1 pass.', WAIT);
      const fields = await page.$eval('form[aria-label="Issue passes"]', (element) => ({
        reference: (element.querySelector('#pass-reference') as HTMLInputElement).value,
        name: (element.querySelector('#pass-name') as HTMLInputElement).value,
        count: (element.querySelector('#pass-count') as HTMLInputElement).value,
      }));
      expect(fields).toEqual({ reference: '', name: '', count: '1' });
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="pass-evpass_"]').length === 1, WAIT);

      // A batch, its rows out of reference order in the file: one insert, one creation time.
      const csv = path.join(files, 'attendees.csv');
      writeFileSync(csv, 'reference,name\nFAIR-0003,Chidi Okafor\nFAIR-0002,Bola Ade\n');
      await (await page.waitForSelector('input[data-testid="pass-csv"]', WAIT))!.uploadFile(csv);
      await page.click('form[aria-label="Upload attendees CSV"] button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="issued"]')?.textContent === 'Issued 2 passes.', WAIT);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="pass-evpass_"]').length === 3, WAIT);

      const rows = await page.$$eval('[data-testid^="pass-evpass_"]', (items) =>
        items.map((row) => ({
          code: row.querySelector('[data-testid="pass-code"]')!.textContent!,
          attendee: (row.querySelector('td:nth-child(2)') as HTMLElement).innerText.trim(),
          text: (row as HTMLElement).innerText,
        })),
      );
      expect(rows.map((row) => row.attendee)).toEqual(['FAIR-0002 · Bola Ade', 'FAIR-0003 · Chidi Okafor', 'FAIR-0001 · Ada Obi']);
      for (const row of rows) {
        expect(row.code).toMatch(/\S/);
        expect({ code: row.code, times: row.text.split(row.code).length - 1 }).toEqual({ code: row.code, times: 1 });
      }
      expect(new Set(rows.map((row) => row.code)).size).toBe(3);
      // Still so after a fresh load (the order is the page's, not the order the answers came in).
      await visit(programPath, 'Lagos Book Fair');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid^="pass-evpass_"]').length === 3, WAIT);
      const again = await page.$$eval('[data-testid^="pass-evpass_"] [data-testid="pass-code"]', (codes) => codes.map((code) => code.textContent));
      expect(again).toEqual(rows.map((row) => row.code));
      await expectNoHorizontalOverflow();
      await expectAccessible('event-pass-program-passes');
      await screenshot(page, SUITE, 'event-pass-program');
    }, 120_000);
  });

  it('defect 12: while the courier is on the way to collect, the tracking page says the parcel is expected at the drop-off (390 px)', async () => {
    const created = await api('/api/v1/deliveries', { method: 'POST', body: DELIVERY });
    expect(created.status).toBe(201);
    const advanced = await api(`/api/v1/sandbox/deliveries/${encodeURIComponent(String(created.body.id))}/advance`, { method: 'POST', body: { to: 'courier_assigned' } });
    expect(advanced.status).toBe(200);
    const { tab, offOrigin } = await openPublic(new URL(String(created.body.tracking_url)).pathname);
    try {
      const text = (selector: string) => tab.$eval(selector, (element) => (element as HTMLElement).innerText.trim());
      expect(await text('#status')).toBe('A courier is on the way to collect your parcel.');
      expect(await text('#eta')).toMatch(/^Parcel expected at the drop-off in about \d+ minutes?$/);
      await expectNoHorizontalOverflow(tab);
      await expectPublicAccessible(tab, 'tracking-courier-assigned');
      await screenshot(tab, SUITE, 'tracking-courier-assigned-390');
      expect(offOrigin).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 120_000);
});
