/**
 * Audit log, members and templates end to end (dashboard issue 37, defects 9, 8 and 4): the real system behind its
 * gateway, driven in Debian's Chromium, axe-core run on every page visited, and no page wider than 1280 px. An owner
 * signs up first; the tests run in order and build on it. Screenshots go to test-artifacts/audit-members/; the audit
 * log's also to docs/images/dashboard-audit-log.png with UPDATE_DOCS_IMAGES=1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'audit-members';
const OWNER = { name: 'Dorothy Vaughan', email: 'dorothy@example.test', password: 'fortran for everyone 1961', organization: 'Langley Computing' };
const INVITEE = { name: 'Mary Jackson', email: 'mary@example.test', password: 'wind tunnel notes 1958' };
/** A 1×1 PNG: a template's logo. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
let files: string;
const { textOf, type, visit, open, expectAccessible, keepForDocs, signUpOwner } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));

beforeAll(async () => {
  files = mkdtempSync(path.join(os.tmpdir(), 'audit-members-'));
  [system, browser] = await startTogether([startSystem('e2e_audit_members'), launchBrowser()]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
}, 60_000);

afterEach(() => {
  expect(foreign).toEqual([]);
});

/** Every mail the local mail catcher of `pnpm start` holds for `to`, oldest first. */
async function mailsTo(to: string): Promise<Array<{ subject?: string; text: string }>> {
  const inbox = /mail inbox\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(system.output())?.[1];
  if (!inbox) throw new Error('pnpm start printed no mail inbox');
  const messages = (await (await fetch(`${inbox}messages`)).json()) as Array<{ to: string[]; subject?: string; text: string }>;
  return messages.filter((message) => message.to.includes(to));
}

/** Axe finds nothing, and nothing makes the page scroll sideways at 1280 px. */
async function expectSound(name: string): Promise<void> {
  await expectAccessible(name);
  const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth }));
  expect({ page: name, overflow: widths.document > widths.viewport }).toEqual({ page: name, overflow: false });
}

describe('audit log, members and templates in Chromium', () => {
  let inviteLink = '';

  it('signs up an organization owner', async () => {
    await signUpOwner(system, OWNER);
  }, 120_000);

  it('starts the invite form at member (least privilege), the first role offered, and mails the invitation', async () => {
    await visit('/members', 'Members');
    const role = await page.waitForSelector('form[aria-label="Invite a member"] select[name="role"]', WAIT);
    const shown = await role!.evaluate((select) => {
      const element = select as HTMLSelectElement;
      return { value: element.value, selected: element.selectedOptions[0]?.textContent, first: element.options[0]?.value };
    });
    expect(shown).toEqual({ value: 'member', selected: 'member', first: 'member' });
    // A reload (the browser may restore a form) still shows member.
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('form[aria-label="Invite a member"] select[name="role"]', WAIT);
    expect(await page.$eval('form[aria-label="Invite a member"] select[name="role"]', (select) => (select as HTMLSelectElement).value)).toBe('member');
    await expectSound('members');

    await type('form[aria-label="Invite a member"] input[name="email"]', INVITEE.email);
    await page.click('form[aria-label="Invite a member"] button[type="submit"]');
    await page.waitForSelector('[data-testid="invite-url"]', WAIT);
    expect(await page.$eval('form[aria-label="Invite a member"] select[name="role"]', (select) => (select as HTMLSelectElement).value)).toBe('member');
    const mails = await mailsTo(INVITEE.email);
    expect(mails).toHaveLength(1);
    inviteLink = /\/dashboard\/invite\/[A-Za-z0-9_-]+/.exec(mails[0]!.text)![0];
    await screenshot(page, SUITE, 'members-invited');
  }, 120_000);

  it('accepting the mailed invitation prefills the email (read-only) and joins at once, with no second confirmation mail', async () => {
    // The invitee has no session: a separate browser context.
    const context = await browser.createBrowserContext();
    const invitee = await context.newPage();
    await invitee.setViewport({ width: 1280, height: 900 });
    const main = page;
    page = invitee;
    try {
      await open(inviteLink);
      await page.waitForSelector('form[aria-label="Sign up"]', WAIT);
      const email = await page.$eval('form[aria-label="Sign up"] input[name="email"]', (input) => ({ value: (input as HTMLInputElement).value, readOnly: (input as HTMLInputElement).readOnly }));
      expect(email).toEqual({ value: INVITEE.email, readOnly: true });
      await expectSound('invitation');
      await type('form[aria-label="Sign up"] input[name="name"]', INVITEE.name);
      await type('form[aria-label="Sign up"] input[name="password"]', INVITEE.password);
      await page.click('form[aria-label="Sign up"] button[type="submit"]');
      // Signed in straight away, in the inviting organization: no "check your inbox".
      await page.waitForFunction((address) => document.querySelector('[data-testid="account-email"]')?.textContent === address, WAIT, INVITEE.email);
      expect(await page.$('[data-testid="check-inbox"]')).toBeNull();
      expect(await page.evaluate(() => document.body.innerText)).toContain(OWNER.organization);
      expect((await mailsTo(INVITEE.email)).length).toBe(1); // the invitation only
      await screenshot(page, SUITE, 'invitation-joined');
    } finally {
      page = main;
      await context.close();
    }
  }, 120_000);

  it('creating a template starts the form over (no file left chosen) and says so, with a link to the new template', async () => {
    const logo = path.join(files, 'logo.png');
    writeFileSync(logo, PNG);
    await visit('/templates', 'Templates');
    await type('form[aria-label="Create a template"] input[name="name"]', 'Orbit course');
    await type('form[aria-label="Create a template"] input[name="issuer_name"]', 'Langley Training Office');
    const file = await page.waitForSelector('form[aria-label="Create a template"] input[name="logo"]', WAIT);
    await file!.uploadFile(logo);
    await page.waitForFunction(() => (document.querySelector('form[aria-label="Create a template"] input[name="logo"]') as HTMLInputElement).files?.length === 1, WAIT);
    await page.click('form[aria-label="Create a template"] button[type="submit"]');
    const notice = await textOf('[data-testid="template-created"]');
    expect(notice).toContain('Created Orbit course');
    const form = await page.$eval('form[aria-label="Create a template"]', (element) => ({
      name: (element.querySelector('input[name="name"]') as HTMLInputElement).value,
      issuer: (element.querySelector('input[name="issuer_name"]') as HTMLInputElement).value,
      files: (element.querySelector('input[name="logo"]') as HTMLInputElement).files?.length,
    }));
    expect(form).toEqual({ name: '', issuer: '', files: 0 });
    await expectSound('templates-created');
    await screenshot(page, SUITE, 'template-created');
    await page.click('[data-testid="template-created"] a');
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Orbit course', WAIT);
  }, 180_000);

  it('the audit log shows certificate issue and revoke with their mode, and the revoke before and after', async () => {
    await visit('/certificates', 'Certificates');
    await type('form[aria-label="Issue a certificate"] input[name="recipient_name"]', 'Katherine Coleman');
    await type('form[aria-label="Issue a certificate"] input[name="program_title"]', 'Orbits 101');
    await type('form[aria-label="Issue a certificate"] input[name="issue_date"]', '05012026'); // Chromium's en-US date field: mm dd yyyy
    expect(await page.$eval('form[aria-label="Issue a certificate"] input[name="issue_date"]', (input) => (input as HTMLInputElement).value)).toBe('2026-05-01');
    const issued = page.waitForResponse((response) => response.url().endsWith('/dashboard/api/certificate/certificates') && response.request().method() === 'POST', WAIT);
    await page.click('form[aria-label="Issue a certificate"] button[type="submit"]');
    expect((await issued).status()).toBe(201);
    page.once('dialog', (dialog) => void dialog.accept());
    const revoke = await page.waitForSelector('[data-testid^="certificate-"] button.danger', WAIT);
    const revoked = page.waitForResponse((response) => /\/certificates\/[^/]+\/revoke$/.test(response.url()), WAIT);
    await revoke!.click();
    expect((await revoked).status()).toBe(200);

    await visit('/audit-log', 'Audit log');
    await page.waitForSelector('[data-testid="audit-entry"][data-action="certificate.revoked"]', WAIT);
    const entries = await page.$$eval('[data-testid="audit-entry"]', (rows) =>
      rows.map((row) => ({
        action: row.getAttribute('data-action'),
        mode: row.querySelector('[data-testid="audit-mode"]')?.textContent,
        // Each changed field as a screen reader reads it (the visually hidden "before:"/"after:" included), spaces collapsed.
        diff: row.querySelector('[data-testid="audit-diff"]')
          ? Array.from(row.querySelectorAll('[data-testid="audit-diff"] li')).map((item) => item.textContent!.replace(/\s+/g, ' ').trim())
          : null,
      })),
    );
    const revokedEntry = entries.find((entry) => entry.action === 'certificate.revoked')!;
    const issuedEntry = entries.find((entry) => entry.action === 'certificate.issued')!;
    expect(revokedEntry.mode).toBe('Live');
    expect(revokedEntry.diff).toEqual(['status before: valid → after: revoked', expect.stringMatching(/^revoked at before: — → after: \S.*\d/)]);
    expect(issuedEntry).toMatchObject({ mode: 'Live', diff: null });
    expect(entries.map((entry) => entry.action)).toEqual(expect.arrayContaining(['member.invited', 'member.joined', 'template.created']));
    await expectSound('audit-log');
    await keepForDocs(SUITE, 'audit-log', 'dashboard-audit-log.png');
  }, 180_000);
});
