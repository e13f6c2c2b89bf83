/**
 * What every dashboard end-to-end suite does to its page: open a dashboard path and wait for its heading, read and type
 * into elements, run axe-core, keep a screenshot for the docs, sign an owner up through the mailed link, and call the
 * gateway directly. Suites start their system and browser in `beforeAll`, so the helpers take the page and the gateway's
 * URL through `current()`, read at each call.
 */
import type { Browser, Page } from 'puppeteer-core';
import { axeViolations } from './axe';
import { refuseForeignRequests, screenshot, updateDocsImage } from './browser';
import { mailedLink } from './mail-inbox';
import type { StartedSystem } from './started-system';

export const WAIT = { timeout: 30_000 };

/** A new tab at desktop size, recording every request that leaves the gateway's origin. */
export async function openDashboardTab(browser: Browser, gatewayUrl: string): Promise<{ page: Page; foreign: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  return { page, foreign: refuseForeignRequests(page, gatewayUrl) };
}

/** A direct call to the gateway (as a partner's server or the payment gateway makes it); a JSON body is parsed. */
export async function gatewayFetch(gatewayUrl: string, pathname: string, init: RequestInit = {}) {
  const response = await fetch(`${gatewayUrl}${pathname}`, init);
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const body = text && /json/.test(contentType) ? (JSON.parse(text) as Record<string, unknown>) : {};
  return { status: response.status, headers: response.headers, contentType, body };
}

export interface Owner {
  name: string;
  email: string;
  password: string;
  organization: string;
}

export function dashboardPage(current: () => { page: Page; gatewayUrl: string }) {
  const page = () => current().page;
  const textOf = async (selector: string): Promise<string> => {
    const element = await page().waitForSelector(selector, WAIT);
    return (await element!.evaluate((node) => (node as HTMLElement).innerText)).trim();
  };
  const type = async (selector: string, value: string): Promise<void> => {
    await (await page().waitForSelector(selector, WAIT))!.type(value);
  };
  /** Empties a text field as a person would (select all, delete), so React sees the change. */
  const clear = async (selector: string): Promise<void> => {
    await page().$eval(selector, (input) => (input as HTMLInputElement).select());
    await page().keyboard.press('Backspace');
  };
  /** Opens a path of the gateway (not only the dashboard's) as a fresh load. */
  const open = async (pathname: string): Promise<void> => {
    // 60 s: on a loaded 2-core machine a first page with a live preview (a cold render) can take longer than the default 30.
    await page().goto(`${current().gatewayUrl}${pathname}`, { waitUntil: 'networkidle0', timeout: 60_000 });
  };
  const waitForHeading = async (heading: string | RegExp): Promise<void> => {
    const source = typeof heading === 'string' ? `^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` : heading.source;
    await page().waitForFunction((pattern) => Array.from(document.querySelectorAll('main h1')).some((h1) => new RegExp(pattern).test(h1.textContent ?? '')), WAIT, source);
  };
  /** Opens a dashboard path as a fresh load and waits for its heading. */
  const visit = async (pathname: string, heading: string | RegExp): Promise<void> => {
    await open(`/dashboard${pathname}`);
    await waitForHeading(heading);
  };
  /** axe-core finds nothing on the page as it is now. */
  const expectAccessible = async (name: string): Promise<void> => {
    expect({ page: name, violations: await axeViolations(page()) }).toEqual({ page: name, violations: [] });
  };
  /** A screenshot in test-artifacts/<suite>/, copied over docs/images/<docsFile> when UPDATE_DOCS_IMAGES=1. */
  const keepForDocs = async (suite: string, name: string, docsFile: string): Promise<void> => {
    updateDocsImage(await screenshot(page(), suite, name), docsFile);
  };
  /** Signs `owner` up with an organization and opens the mailed verification link: signed in as its owner. */
  const signUpOwner = async (system: StartedSystem, owner: Owner): Promise<void> => {
    await open('/dashboard/sign-up');
    await type('form[aria-label="Sign up"] input[name="name"]', owner.name);
    await type('form[aria-label="Sign up"] input[name="email"]', owner.email);
    await type('form[aria-label="Sign up"] input[name="password"]', owner.password);
    await type('form[aria-label="Sign up"] input[name="organization_name"]', owner.organization);
    await page().click('form[aria-label="Sign up"] button[type="submit"]');
    // The account exists once the mailed link is used (the local mail catcher of `pnpm start` holds it).
    await page().waitForSelector('[data-testid="check-inbox"]', WAIT);
    await open(await mailedLink(system, owner.email, 'verify-email'));
    // The link makes the account only with the password chosen at sign-up entered again (issue 35).
    await type('form[aria-label="Confirm your email"] input[name="password"]', owner.password);
    await page().click('form[aria-label="Confirm your email"] button[type="submit"]');
    await page().waitForFunction((email) => document.querySelector('[data-testid="account-email"]')?.textContent === email, WAIT, owner.email);
  };
  return {
    textOf,
    type,
    clear,
    open,
    waitForHeading,
    visit,
    expectAccessible,
    keepForDocs,
    signUpOwner,
    gatewayFetch: (pathname: string, init: RequestInit = {}) => gatewayFetch(current().gatewayUrl, pathname, init),
  };
}
