/**
 * The template designer end to end: the real system behind its gateway (`pnpm start`), driven in
 * Debian's Chromium, axe-core run on the pages visited, no request leaving the gateway's origin. An owner signs up
 * through the mailed link, designs a template while the certificate service draws its preview, edits it into version
 * 2 (the preview of the edit drawn again), and issues a certificate picking the template by name. The designer with its
 * preview replaces docs/images/template-designer.png when UPDATE_DOCS_IMAGES=1; screenshots go to test-artifacts/dashboard-designer/.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, HTTPResponse, Page } from 'puppeteer-core';
import { axeViolations } from '../helpers/axe';
import { launchBrowser, refuseForeignRequests, screenshot, updateDocsImage } from '../helpers/browser';
import { mailedLink } from '../helpers/mail-inbox';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'dashboard-designer';
const WAIT = { timeout: 30_000 };
const OWNER = { name: 'Katherine Johnson', email: 'katherine@example.test', password: 'trajectories for everyone 1962', organization: 'Langley Flight Research' };
/** The designer's preview is drawn at the documents' size: A4 landscape at 144 dpi. */
const PREVIEW_WIDTH = 1684;

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];

beforeAll(async () => {
  [system, browser] = await startTogether([startSystem('e2e_dashboard_designer'), launchBrowser()]);
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  foreign = refuseForeignRequests(page, system.gatewayUrl);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

async function textOf(selector: string): Promise<string> {
  const element = await page.waitForSelector(selector, WAIT);
  return (await element!.evaluate((node) => (node as HTMLElement).innerText)).trim();
}

async function type(selector: string, value: string): Promise<void> {
  await (await page.waitForSelector(selector, WAIT))!.type(value);
}

async function open(pathname: string): Promise<void> {
  await page.goto(`${system.gatewayUrl}${pathname}`, { waitUntil: 'networkidle0' });
}

async function waitForHeading(heading: string): Promise<void> {
  await page.waitForFunction((text) => Array.from(document.querySelectorAll('main h1')).some((h1) => h1.textContent === text), WAIT, heading);
}

async function expectAccessible(name: string): Promise<void> {
  expect({ page: name, violations: await axeViolations(page) }).toEqual({ page: name, violations: [] });
}

/** The option of `select` whose text is `label`, chosen as a person would pick it by name. */
async function selectByLabel(select: string, label: string): Promise<void> {
  await page.waitForFunction((selector, text) => Array.from(document.querySelectorAll<HTMLOptionElement>(`${selector} option`)).some((option) => option.text === text), WAIT, select, label);
  const value = await page.$eval(select, (element, text) => Array.from((element as HTMLSelectElement).options).find((option) => option.text === text)!.value, label);
  await page.select(select, value);
}

/** Waits for the preview image to show a new drawing (another object URL than `before`), fully decoded. */
async function previewDrawn(before: string | null): Promise<string> {
  await page.waitForFunction(
    (previous, width) => {
      const image = document.querySelector<HTMLImageElement>('[data-testid="template-preview-image"]');
      return Boolean(image && image.getAttribute('src') !== previous && image.complete && image.naturalWidth === width);
    },
    WAIT,
    before,
    PREVIEW_WIDTH,
  );
  await page.waitForFunction(() => document.querySelector('[data-testid="template-preview-status"]')?.textContent === 'Preview up to date.', WAIT);
  return page.$eval('[data-testid="template-preview-image"]', (image) => image.getAttribute('src')!);
}

/**
 * A PNG drawn by the browser's own canvas (no image library in this package) on a blank page of its own (the
 * dashboard's CSP rightly refuses `new Function`), written to a temporary file.
 */
async function drawnPng(name: string, width: number, height: number, draw: string): Promise<string> {
  const blank = await browser.newPage();
  const data = await blank.evaluate(
    (w, h, script) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      new Function('context', 'w', 'h', script)(canvas.getContext('2d'), w, h);
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    width,
    height,
    draw,
  );
  await blank.close();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'designer-')), name);
  writeFileSync(file, Buffer.from(data, 'base64'));
  return file;
}

const LOGO = `context.fillStyle = '#1D4ED8'; context.beginPath(); context.arc(w / 2, h / 2, w / 2 - 4, 0, Math.PI * 2); context.fill();
  context.fillStyle = '#FFFFFF'; context.font = 'bold 120px sans-serif'; context.textAlign = 'center'; context.textBaseline = 'middle'; context.fillText('LFR', w / 2, h / 2);`;
const SIGNATURE = `context.strokeStyle = '#111827'; context.lineWidth = 6; context.beginPath(); context.moveTo(10, h * 0.7);
  for (let x = 10; x < w - 10; x += 20) context.quadraticCurveTo(x + 10, x % 40 ? h * 0.15 : h * 0.85, x + 20, h * 0.6);
  context.stroke();`;

const previewAnswer = (pathname: string, bodyHas: string) => (response: HTTPResponse) =>
  response.url().endsWith(pathname) && response.request().method() === 'POST' && (response.request().postData() ?? '').includes(bodyHas);

describe('the template designer, in Chromium', () => {
  let templateId = '';

  it('signs up an organization owner through the mailed link', async () => {
    await open('/dashboard/sign-up');
    await type('form[aria-label="Sign up"] input[name="name"]', OWNER.name);
    await type('form[aria-label="Sign up"] input[name="email"]', OWNER.email);
    await type('form[aria-label="Sign up"] input[name="password"]', OWNER.password);
    await type('form[aria-label="Sign up"] input[name="organization_name"]', OWNER.organization);
    await page.click('form[aria-label="Sign up"] button[type="submit"]');
    await page.waitForSelector('[data-testid="check-inbox"]', WAIT);
    await open(await mailedLink(system, OWNER.email, 'verify-email'));
    await type('form[aria-label="Confirm your email"] input[name="password"]', OWNER.password);
    await page.click('form[aria-label="Confirm your email"] button[type="submit"]');
    await page.waitForFunction((email) => document.querySelector('[data-testid="account-email"]')?.textContent === email, WAIT, OWNER.email);
  }, 120_000);

  it('designs a template while the service draws its preview, and creates version 1', async () => {
    await open('/dashboard/templates');
    await waitForHeading('Templates');
    const form = 'form[aria-label="Create a template"]';
    const first = await previewDrawn(null);
    const named = page.waitForResponse(previewAnswer('/dashboard/api/certificate/templates/preview', 'Orbital mechanics'), WAIT);
    await type(`${form} input[name="name"]`, 'Orbital mechanics');
    await type(`${form} input[name="issuer_name"]`, 'Flight Research Division');
    const answer = await named;
    expect([answer.status(), answer.headers()['content-type']]).toEqual([200, 'image/png']);
    await previewDrawn(first);
    await page.click(`${form} button[type="submit"]`);
    const link = await page.waitForSelector('main table a::-p-text(Orbital mechanics)', WAIT);
    templateId = (await link!.evaluate((anchor) => (anchor as HTMLAnchorElement).pathname)).split('/').at(-1)!;
    expect(templateId).toMatch(/^tpl_/);
    await expectAccessible('templates');
  }, 120_000);

  it('edits the template: the preview of the edit is drawn again, and saving makes version 2', async () => {
    await (await page.waitForSelector('main table a::-p-text(Orbital mechanics)', WAIT))!.click();
    await waitForHeading('Orbital mechanics');
    expect(await page.title()).toBe('Template · Partner dashboard');
    expect(await textOf('[data-testid="template-version"]')).toBe('version 1');
    const form = 'form[aria-label="Edit the template"]';
    const before = await previewDrawn(null);

    // A logo, a signature with its label, the border, the date format and the name change the drawing; the last
    // request (the name typed last) carries every change, and its answer is what the page shows.
    const last = page.waitForResponse(previewAnswer(`/dashboard/api/certificate/templates/${templateId}/preview`, 'Orbital mechanics (2027)'), WAIT);
    const logo = await page.waitForSelector(`${form} input[name="logo"]`, WAIT);
    await logo!.uploadFile(await drawnPng('logo.png', 400, 400, LOGO));
    const signature = await page.waitForSelector(`${form} input[name="signature_image"]`, WAIT);
    await signature!.uploadFile(await drawnPng('signature.png', 600, 200, SIGNATURE));
    await type(`${form} input[name="signature_label"]`, 'Mary Jackson, Head of Flight Research');
    await selectByLabel(`${form} select[name="frame"]`, 'Double line');
    await selectByLabel(`${form} select[name="date_format"]`, '03/01/2026');
    await (await page.waitForSelector(`${form} input[name="name"]`, WAIT))!.type(' (2027)');
    const answer = await last;
    expect(answer.status()).toBe(200);
    const sent = JSON.parse(answer.request().postData()!) as Record<string, unknown>;
    expect(sent).toMatchObject({ frame: { style: 'double' }, date_format: 'us_numeric', signature_label: 'Mary Jackson, Head of Flight Research', issuer_name: 'Flight Research Division' });
    expect(Object.keys(sent)).toEqual(expect.arrayContaining(['logo', 'signature_image']));
    await previewDrawn(before);
    // The object URL it replaced was revoked: it no longer loads.
    expect(await page.evaluate((url) => fetch(url).then(() => 'loaded', () => 'revoked'), before)).toBe('revoked');
    await expectAccessible('template-designer');
    updateDocsImage(await screenshot(page, SUITE, 'template-designer'), 'template-designer.png');

    const saved = page.waitForResponse((response) => response.url().endsWith(`/dashboard/api/certificate/templates/${templateId}`) && response.request().method() === 'PATCH', WAIT);
    await page.click(`${form} button[type="submit"]`);
    expect((await saved).status()).toBe(200);
    expect(await textOf('[data-testid="template-saved"]')).toContain('Saved as version 2');
    await waitForHeading('Orbital mechanics (2027)');
    expect(await textOf('[data-testid="template-version"]')).toBe('version 2');
    await page.waitForSelector('[data-testid="template-version-1"]', WAIT);
    expect(await textOf('[data-testid="template-version-2"]')).toContain('2 (current)');
    expect(await textOf('[data-testid="template-version-1"]')).toContain('Orbital mechanics');
    await expectAccessible('template-version-2');
    await screenshot(page, SUITE, 'template-version-2');
  }, 120_000);

  it('issues a certificate picking the template by name; it keeps version 2', async () => {
    await open('/dashboard/certificates');
    await waitForHeading('Certificates');
    const form = 'form[aria-label="Issue a certificate"]';
    await type(`${form} input[name="recipient_name"]`, 'Dorothy Vaughan');
    await type(`${form} input[name="program_title"]`, 'Orbital mechanics');
    await page.$eval(`${form} input[name="issue_date"]`, (input) => (input as HTMLInputElement).focus());
    await page.keyboard.type('03012026');
    await selectByLabel(`${form} select[name="template_id"]`, 'Orbital mechanics (2027) · version 2');
    await expectAccessible('certificates-with-template-picker');
    const issued = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/certificate/certificates') && response.request().method() === 'POST', WAIT);
    await page.click(`${form} button[type="submit"]`);
    const answer = await issued;
    expect(answer.status()).toBe(201);
    expect(await answer.json()).toMatchObject({ recipient_name: 'Dorothy Vaughan', issue_date: '2026-03-01', template_id: templateId, template_version: 2 });
    expect(await textOf('[data-testid="issued-certificate"]')).toContain('verification code');
    await screenshot(page, SUITE, 'certificate-issued-with-template');
  }, 120_000);
});
