/**
 * Dragging blocks in the template designer and the certificates' bulk ZIP, end to end: the real system behind its
 * gateway (`pnpm start`), driven in Debian's Chromium with the mouse, axe-core run on the pages visited, no request
 * leaving the gateway's origin. An owner signs up, drags the title line on the preview (a guide shows the snap to the
 * page's centre line) and creates the template: the saved template has the line where it was dropped. Then two
 * certificates are issued by CSV, selected, and downloaded as one ZIP holding both PDFs. The designer mid-drag replaces
 * docs/images/template-designer-dragging.png when UPDATE_DOCS_IMAGES=1; screenshots go to test-artifacts/designer-drag/.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT, type Owner } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'designer-drag';
const OWNER: Owner = { name: 'Mae Jemison', email: 'mae@example.test', password: 'endeavour sts-47 science 1992', organization: 'Jemison Foundation' };

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
const ui = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  [system, browser] = await startTogether([startSystem('e2e_designer_drag'), launchBrowser()]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

/** Nothing on the page is wider than the window (no sideways scrolling at 1280 px). */
async function expectNoHorizontalOverflow(): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

const label = (selector: string) => page.$eval(selector, (element) => element.getAttribute('aria-label'));

describe('dragging blocks in the template designer, in Chromium', () => {
  it('signs up an organization owner through the mailed link', async () => {
    await ui.signUpOwner(system, OWNER);
  }, 120_000);

  it('drags the title line with the mouse (the centre guide shown), and the saved template has it where it was dropped', async () => {
    await ui.visit('/templates', 'Templates');
    const form = 'form[aria-label="Create a template"]';
    await page.waitForFunction(() => document.querySelector('[data-testid="template-preview-status"]')?.textContent === 'Preview up to date.', { timeout: 60_000 });
    await ui.type(`${form} input[name="name"]`, 'Space science');
    const title = '[data-testid="designer-block-title"]';
    expect(await label(title)).toBe('Title line: x 10 %, y 30 %, width 80 %');

    const stage = (await (await page.$('[data-testid="designer-overlay"]'))!.boundingBox())!;
    const box = (await (await page.$(title))!.boundingBox())!;
    const start = { x: box.x + box.width / 3, y: box.y + box.height / 2 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    // 12 % of the page down, and a few pixels to the right: the line's centre snaps back onto the page's centre line.
    await page.mouse.move(start.x + 4, start.y + stage.height * 0.06, { steps: 5 });
    await page.mouse.move(start.x + 4, start.y + stage.height * 0.12, { steps: 5 });
    await page.waitForSelector('[data-testid="designer-guide"][data-axis="x"][data-at="0.5"]', WAIT);
    expect(await label(title)).toBe('Title line: x 10 %, y 42 %, width 80 %');
    await ui.keepForDocs(SUITE, 'template-designer-dragging', 'template-designer-dragging.png');
    await page.mouse.up();
    expect(await page.$('[data-testid="designer-guide"]')).toBeNull();

    // The preview is drawn again with the line where it was dropped.
    const redrawn = await page.waitForResponse(
      (response) => response.url().endsWith('/dashboard/api/certificate/templates/preview') && (response.request().postData() ?? '').includes('"y":0.42'),
      WAIT,
    );
    expect(redrawn.status()).toBe(200);
    await page.waitForFunction(() => document.querySelector('[data-testid="template-preview-status"]')?.textContent === 'Preview up to date.', { timeout: 60_000 });
    await ui.expectAccessible('template-designer-dragged');
    await expectNoHorizontalOverflow();

    const created = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/certificate/templates') && response.request().method() === 'POST', WAIT);
    await page.click(`${form} button[type="submit"]`);
    const answer = await created;
    expect(answer.status()).toBe(201);
    const template = (await answer.json()) as { id: string; text_blocks: { x: number; y: number; width: number }[] };
    expect(template.text_blocks.map(({ x, y, width }) => ({ x, y, width }))).toEqual([
      { x: 0.1, y: 0.42, width: 0.8 },
      { x: 0.1, y: 0.47, width: 0.8 },
      { x: 0.1, y: 0.62, width: 0.8 },
    ]);

    // As stored: the template's page shows the line's handle where it was dropped.
    await ui.visit(`/templates/${template.id}`, 'Space science');
    await page.waitForSelector(`${title}[aria-label="Title line: x 10 %, y 42 %, width 80 %"]`, WAIT);
    await ui.expectAccessible('template-page-dragged');
    await expectNoHorizontalOverflow();
  }, 180_000);

  it('selects two certificates and downloads their PDFs as one ZIP', async () => {
    await ui.visit('/certificates', 'Certificates');
    const csv = path.join(mkdtempSync(path.join(tmpdir(), 'designer-drag-')), 'crew.csv');
    writeFileSync(csv, 'recipient_name,program_title,issue_date\nMae Jemison,Space science,2026-05-01\nSally Ride,Space science,2026-05-01\n');
    await (await page.waitForSelector('input[type="file"][data-testid="batch-file"]', WAIT))!.uploadFile(csv);
    await page.click('form[aria-label="Upload certificates CSV"] button[type="submit"]');
    expect(await ui.textOf('[data-testid="batch-result"]')).toBe('Issued 2 certificates.');
    await page.waitForFunction(() => document.querySelectorAll('main tbody input[type="checkbox"]').length === 2, WAIT);

    const downloads = mkdtempSync(path.join(tmpdir(), 'designer-drag-zip-'));
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
    await page.click('input[aria-label="Select all certificates on this page"]');
    expect(await ui.textOf('[data-testid="bulk-count"]')).toBe('2 certificates selected');
    await ui.expectAccessible('certificates-selected');
    await expectNoHorizontalOverflow();
    await page.click('[data-testid="bulk-bar"] button::-p-text(Download ZIP)');
    await page.waitForFunction(() => /^Saved 2 PDFs in certificates-\d{4}-\d{2}-\d{2}\.zip\.$/.test(document.querySelector('[data-testid="bulk-report"]')?.textContent ?? ''), { timeout: 90_000 });

    let zips: string[] = [];
    for (let waited = 0; waited < 100 && zips.length === 0; waited++) {
      zips = readdirSync(downloads).filter((name) => /^certificates-\d{4}-\d{2}-\d{2}\.zip$/.test(name));
      if (zips.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(zips).toHaveLength(1);
    const zip = readFileSync(path.join(downloads, zips[0]!));
    // A ZIP (stored entries: each PDF's bytes appear as they are) holding two PDFs, one per certificate number.
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(zip.toString('latin1').split('%PDF-').length - 1).toBe(2);
    const numbers = await page.$$eval('main tbody tr td:nth-child(2)', (cells) => cells.map((cell) => cell.textContent!.trim()));
    for (const number of numbers) expect(zip.toString('latin1')).toContain(`${number}.pdf`);
    await screenshot(page, SUITE, 'certificates-bulk');
  }, 180_000);
});
