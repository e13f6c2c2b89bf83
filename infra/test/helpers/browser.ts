import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { repositoryRoot } from './started-system';

/** Debian's chromium: `pnpm test` exports CHROMIUM_PATH (scripts/ensure-chromium.sh gets it when missing). Never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Screenshots end-to-end tests keep (git-ignored; CI keeps the folder as its artifacts). */
export const ARTIFACTS_DIR = path.join(repositoryRoot, 'test-artifacts');

/**
 * Copies a screenshot over the tracked docs/images/<docsFile> only when asked (UPDATE_DOCS_IMAGES=1): no two runs draw
 * the same pixels, so a plain test run leaves the tracked images alone and the working tree clean.
 */
export function updateDocsImage(screenshotFile: string, docsFile: string): void {
  if (process.env.UPDATE_DOCS_IMAGES !== '1') return;
  copyFileSync(screenshotFile, path.join(repositoryRoot, 'docs', 'images', docsFile));
}

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Saves a full-page screenshot as test-artifacts/<suite>/<name>.png and returns its path. */
export async function screenshot(page: Page, suite: string, name: string): Promise<string> {
  const dir = path.join(ARTIFACTS_DIR, suite);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Fails the test when the page asks for anything outside `origin` (no CDN, no external fonts, no trackers). */
export function refuseForeignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  return foreign;
}
