/**
 * The set-up the certificate service's browser tests share: the app listening on a loopback port (so its pages load
 * their own assets from it), one organization, and Debian's chromium (`CHROMIUM_PATH` to override). `visit` opens a page
 * recording every request it makes and every console error (CSP violations are reported there). Screenshots go to
 * test/artifacts/ (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { newOrg, type TestOrg } from '../factories/admin';
import { createTestContext, type TestContext } from './context';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(__dirname, '..', 'artifacts');
/** A first visit renders the document (seconds on a busy machine) and the browser starts cold: generous, not a timing claim. */
export const BROWSER_TEST_TIMEOUT_MS = 120_000;

export interface VisitedPage {
  page: Page;
  requested: string[];
  consoleErrors: string[];
}

export interface BrowserSetup {
  ctx: TestContext;
  org: TestOrg;
  /** `http://127.0.0.1:<port>`: the app's PUBLIC_BASE_URL. */
  origin: string;
  browser: Browser;
  visit(url: string, viewport?: { width: number; height: number }): Promise<VisitedPage>;
  close(): Promise<void>;
}

export async function startBrowserSetup(orgName: string): Promise<BrowserSetup> {
  const server = await new Promise<Server>((resolve) => {
    const listening = createServer();
    listening.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ctx = createTestContext({ PUBLIC_BASE_URL: origin });
  server.on('request', ctx.app);
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    ctx,
    org: newOrg(ctx, { orgName }),
    origin,
    browser,
    async visit(url, viewport = { width: 1100, height: 1400 }) {
      const page = await browser.newPage();
      const requested: string[] = [];
      const consoleErrors: string[] = [];
      page.on('request', (req) => requested.push(req.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.setDefaultTimeout(BROWSER_TEST_TIMEOUT_MS);
      page.setDefaultNavigationTimeout(BROWSER_TEST_TIMEOUT_MS);
      await page.setViewport(viewport);
      await page.goto(url, { waitUntil: 'networkidle0' });
      return { page, requested, consoleErrors };
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      await ctx.close();
    },
  };
}

/** The URLs of `requested` outside `origin` (a page of the service loads nothing from anywhere else). */
export function outsideOrigin(origin: string, requested: string[]): string[] {
  return requested.filter((url) => !url.startsWith(`${origin}/`));
}

/** Console messages that report a Content Security Policy violation. */
export function cspErrors(messages: string[]): string[] {
  return messages.filter((message) => /Content Security Policy/i.test(message));
}
