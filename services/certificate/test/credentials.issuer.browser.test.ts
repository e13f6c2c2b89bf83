import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { issueCertificate, type TestOrg } from './factories/admin';
import { ARTIFACTS, BROWSER_TEST_TIMEOUT_MS, cspErrors, outsideOrigin, startBrowserSetup, type BrowserSetup } from './helpers/browser-page';
import type { TestContext } from './helpers/context';

/**
 * The issuer's identity as a person sees it (Debian's chromium): the credential page and the verifier say "issuer
 * identity not verified" beside the name until the organization proves a domain, then "verified domain <domain>".
 * Screenshots go to test/artifacts/ (git-ignored), and over docs/images/credential-page-unverified.png and
 * credential-page-verified.png only when UPDATE_DOCS_IMAGES=1.
 */
interface Shown {
  innerText: string;
  hidden: boolean;
  getAttribute(name: string): string | null;
}
declare const document: { getElementById(id: string): Shown | null };
jest.setTimeout(BROWSER_TEST_TIMEOUT_MS);

const DOCS_IMAGES = path.join(__dirname, '..', '..', '..', 'docs', 'images');
const DOMAIN = 'ibadan-film.example.org';
let setup: BrowserSetup;
let ctx: TestContext;
let org: TestOrg;
let origin: string;

beforeAll(async () => {
  setup = await startBrowserSetup('Ibadan Film Academy');
  ({ ctx, org, origin } = setup);
}, BROWSER_TEST_TIMEOUT_MS);
afterAll(() => setup?.close());

const visibleText = (page: Page) => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);

/** A screenshot in test/artifacts/, copied over docs/images/<name> when UPDATE_DOCS_IMAGES=1. */
async function keepForDocs(page: Page, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
  if (process.env.UPDATE_DOCS_IMAGES === '1') copyFileSync(path.join(ARTIFACTS, name), path.join(DOCS_IMAGES, name));
}

/** The verifier's answer to a typed code (`?code=` checks it on load): its status line and its details. */
async function verifierAnswer(code: string) {
  const { page, requested, consoleErrors } = await setup.visit(`${origin}/credentials/verify?code=${code}`);
  await page.waitForFunction(() => {
    const result = document.getElementById('result');
    return result && !result.hidden && !['none', 'pending'].includes(result.getAttribute('data-status') ?? '');
  });
  const result = await page.$eval('#result', (element) => (element as unknown as Shown).innerText);
  const details = await page.$eval('#result-details', (element) => (element as unknown as Shown).innerText);
  expect(outsideOrigin(origin, requested)).toEqual([]);
  expect(cspErrors(consoleErrors)).toEqual([]);
  await page.close();
  return { result, details };
}

describe("the issuer's identity on the credential page and the verifier", () => {
  it('says "issuer identity not verified" until a domain is verified, then "verified domain <domain>"', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Tunde Bakare', program_title: 'Documentary Film' });
    const before = await setup.visit(`${origin}/credentials/${certificate.verification_code}`, { width: 1100, height: 1400 });
    const unverified = await visibleText(before.page);
    expect(unverified).toContain('Ibadan Film Academy (name not verified) · issuer identity not verified');
    expect(unverified).toContain('Ibadan Film Academy: issuer identity not verified (the issuer has not proved a domain).');
    expect(await before.page.$eval('.issuer-identity', (element) => element.getAttribute('data-issuer-domain'))).toBe('');
    await keepForDocs(before.page, 'credential-page-unverified.png');
    expect(outsideOrigin(origin, before.requested)).toEqual([]);
    expect(cspErrors(before.consoleErrors)).toEqual([]);
    await before.page.close();
    const checkedBefore = await verifierAnswer(certificate.verification_code);
    expect(checkedBefore.result).toContain('Ibadan Film Academy (issuer identity not verified) issued this certificate');
    expect(checkedBefore.details).toContain('Ibadan Film Academy (issuer identity not verified)');

    await ctx.services.issuers.markDomainVerified(org.org, DOMAIN);
    const after = await setup.visit(`${origin}/credentials/${certificate.verification_code}`, { width: 1100, height: 1400 });
    // The document preview was drawn again; this browser kept the earlier one (public, max-age=60): ask past its cache.
    await after.page.setCacheEnabled(false);
    await after.page.reload({ waitUntil: 'networkidle0' });
    const verified = await visibleText(after.page);
    expect(verified).toContain(`Ibadan Film Academy (name not verified) · verified domain ${DOMAIN}`);
    expect(verified).not.toContain('issuer identity not verified');
    expect(await after.page.$eval('.issuer-identity', (element) => element.getAttribute('data-issuer-domain'))).toBe(DOMAIN);
    await keepForDocs(after.page, 'credential-page-verified.png');
    await after.page.close();
    const checkedAfter = await verifierAnswer(certificate.verification_code);
    expect(checkedAfter.result).toContain(`Ibadan Film Academy (verified domain ${DOMAIN}) issued this certificate`);
    expect(checkedAfter.details).toContain(`Ibadan Film Academy (verified domain ${DOMAIN})`);
  });
});
