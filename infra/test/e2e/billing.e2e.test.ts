/**
 * Billing and invoices end to end (dashboard issue 37, defect 6): the real system behind its gateway (`pnpm start`),
 * driven in Debian's Chromium, axe-core run on every page visited. An owner signs up, sets the organization's billing
 * details, tops up credits through a fake gateway's hosted page, sees "Payment received — invoice INV-…" once the
 * signed webhook has confirmed the payment, finds the invoice in the list and downloads it. The plan cards keep their
 * prices inside at 1280 px and 390 px. Screenshots go to test-artifacts/billing/; the invoice's first page also to
 * docs/images/invoice.png with UPDATE_DOCS_IMAGES=1.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser, screenshot, updateDocsImage } from '../helpers/browser';
import { dashboardPage, openDashboardTab, WAIT } from '../helpers/dashboard-page';
import { startFakeGatewayA } from '../helpers/fake-gateway-a';
import { firstPageAsPng } from '../helpers/pdf-image';
import { startSystem, startTogether, type StartedSystem } from '../helpers/started-system';

const SUITE = 'billing';
const OWNER = { name: 'Mary Jackson', email: 'mary@example.test', password: 'wind tunnel engineer 1958', organization: 'Supersonic Pressure' };
const BUYER = { legal_name: 'Supersonic Pressure Tunnel Ltd', address: '12 Marina Road\nLagos 101241\nNigeria', tax_id: 'TIN-12345678', email: 'accounts@supersonic.example' };
const SELLER = { INVOICE_SELLER_NAME: 'Partner Platform Ltd', INVOICE_SELLER_ADDRESS: '3 Broad Street\\nLagos 100001\\nNigeria', INVOICE_SELLER_TAX_ID: 'TIN-09876543', INVOICE_VAT_RATE: '7.5' };
const GATEWAY_A_SECRET = 'sk_test_e2e_billing_gateway_a';

let paymentGateway: Awaited<ReturnType<typeof startFakeGatewayA>>;
let system: StartedSystem;
let browser: Browser;
let page: Page;
let foreign: string[];
const { textOf, type, visit, waitForHeading, expectAccessible, signUpOwner, gatewayFetch } = dashboardPage(() => ({ page, gatewayUrl: system.gatewayUrl }));
const json = (token?: string) => ({ 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) });

beforeAll(async () => {
  paymentGateway = await startFakeGatewayA(GATEWAY_A_SECRET, 4099260599);
  [system, browser] = await startTogether([
    startSystem('e2e_billing', { GATEWAY_A_SECRET_KEY: GATEWAY_A_SECRET, GATEWAY_A_BASE_URL: paymentGateway.url, GATEWAY_A_DISPLAY_NAME: 'Paystack', ...SELLER }),
    launchBrowser(),
  ]);
  ({ page, foreign } = await openDashboardTab(browser, system.gatewayUrl));
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await system?.stop();
  await paymentGateway?.close();
}, 60_000);

afterEach(() => {
  // Only the gateway's hosted payment page is another origin (the top-up visits it on purpose).
  expect(foreign.filter((url) => !url.startsWith(paymentGateway.url))).toEqual([]);
});

/** Nothing on the page is wider than the window, and every plan's price stays inside its card. */
async function overflowOf(): Promise<{ page: number; window: number; prices: string[] }> {
  return page.evaluate(() => {
    const prices = Array.from(document.querySelectorAll('.plan-card')).flatMap((card) => {
      const price = card.querySelector('.plan-price') as HTMLElement;
      const box = card.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(price);
      const text = range.getBoundingClientRect();
      const inside = text.left >= box.left - 0.5 && text.right <= box.right + 0.5 && price.scrollWidth <= price.clientWidth;
      return inside ? [] : [`${card.getAttribute('data-testid')}: text ${Math.round(text.width)} px in a card of ${Math.round(box.width)} px`];
    });
    return { page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth, prices };
  });
}

describe('billing and invoices in Chromium', () => {
  it('signs up an organization owner', async () => {
    await signUpOwner(system, OWNER);
  }, 120_000);

  it('keeps every plan price inside its card, with no horizontal overflow, at 1280 px and at 390 px', async () => {
    try {
      for (const width of [1280, 390]) {
        await page.setViewport({ width, height: 900 });
        await visit('/billing', 'Credits & plan');
        await page.waitForSelector('[data-testid="plan-business"]', WAIT);
        await screenshot(page, SUITE, `plans-${width}`);
        const overflow = await overflowOf();
        expect(overflow.prices).toEqual([]);
        expect(overflow.page).toBeLessThanOrEqual(overflow.window);
        await expectAccessible(`billing-${width}`);
      }
    } finally {
      await page.setViewport({ width: 1280, height: 900 });
    }
  }, 120_000);

  it('saves the organization\'s billing details', async () => {
    await visit('/billing', 'Credits & plan');
    const form = 'form[aria-label="Billing details"]';
    await page.waitForSelector(form, WAIT);
    await type(`${form} input[name="legal_name"]`, BUYER.legal_name);
    await type(`${form} textarea[name="address"]`, BUYER.address);
    await type(`${form} input[name="tax_id"]`, BUYER.tax_id);
    await type(`${form} input[name="email"]`, BUYER.email);
    await page.click(`${form} button[type="submit"]`);
    await page.waitForSelector('[data-testid="billing-details-saved"]', WAIT);
    await expectAccessible('billing-details');
  }, 60_000);

  it('tops up through the hosted page, shows "Payment received — invoice INV-…", lists the invoice and downloads it', async () => {
    await visit('/billing', 'Credits & plan');
    const form = 'form[aria-label="Buy credits"]';
    await page.waitForSelector(form, WAIT);
    await page.select(`${form} select[name="pack"]`, 'credits_500');
    await page.select(`${form} select[name="gateway"]`, 'gateway-a');
    const back = page.waitForNavigation({ waitUntil: 'networkidle0', timeout: 30_000 });
    await page.click(`${form} button[type="submit"]`);
    await back;
    await page.waitForFunction(() => location.pathname === '/dashboard/billing' && new URLSearchParams(location.search).has('reference'), WAIT);
    const reference = new URL(page.url()).searchParams.get('reference')!;
    expect(foreign).toEqual([`${paymentGateway.url}/pay/${reference}`]);
    foreign.length = 0;
    await waitForHeading('Credits & plan');
    // Back from the payment page: it waits for the gateway, it no longer asks to complete the payment.
    await page.waitForFunction(() => /Waiting for Paystack to confirm the payment/.test(document.querySelector('[data-testid="checkout-status"]')?.textContent ?? ''), WAIT);
    expect(await textOf('[data-testid="checkout-status"]')).not.toMatch(/Complete the payment/i);
    await expectAccessible('billing-returned');

    // The gateway's signed webhook confirms the payment; the page polls and shows the invoice number.
    const charge = paymentGateway.paid.get(reference)!;
    const body = JSON.stringify({ event: 'charge.success', data: { id: 4099260599, reference, amount: charge.amount, currency: charge.currency, status: 'success' } });
    const delivered = await gatewayFetch('/webhooks/payments/gateway-a', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Gateway-Signature': createHmac('sha512', GATEWAY_A_SECRET).update(body).digest('hex') },
      body,
    });
    expect([delivered.status, delivered.body]).toEqual([200, { received: true }]);
    await page.waitForFunction(() => /Payment received — invoice INV-\d{4}-\d{6}/.test(document.querySelector('[data-testid="checkout-status"]')?.textContent ?? ''), { timeout: 60_000 });
    const number = await textOf('[data-testid="checkout-invoice"]');
    expect(number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`));
    expect(await textOf('[data-testid="checkout-status"]')).toContain('500 credits added to the balance');

    // The invoice in the list: number, description, total with its VAT.
    const row = `[data-testid="invoice-${number}"]`;
    await page.waitForSelector(row, WAIT);
    const text = await textOf(row);
    expect(text).toContain('Credit pack: 500 certificate credits');
    expect(text).toMatch(/25,000\.00/);
    expect(text).toMatch(/1,744\.19 VAT/);
    expect(await textOf(`[data-testid="payment-${reference}"]`)).toContain(`invoice ${number}`);
    const overflow = await overflowOf();
    expect(overflow.page).toBeLessThanOrEqual(overflow.window);
    await expectAccessible('billing-invoice-listed');
    await screenshot(page, SUITE, 'invoice-listed');

    // Download: the button fetches the PDF with the session's token.
    const download = page.waitForResponse((response) => /\/dashboard\/api\/certificate\/invoices\/in_[0-9a-z]{20}\/pdf$/.test(response.url()), WAIT);
    await page.click(`${row} button`);
    const answer = await download;
    expect([answer.status(), answer.headers()['content-type'], answer.headers()['content-disposition']]).toEqual([200, 'application/pdf', `attachment; filename="${number}.pdf"`]);

    // The same PDF through the gateway: seller, buyer, VAT, number, amounts with separators.
    const session = await gatewayFetch('/dashboard/api/auth/sessions', { method: 'POST', headers: { ...json(), Origin: system.gatewayUrl }, body: JSON.stringify({ email: OWNER.email, password: OWNER.password }) });
    expect(session.status).toBe(200);
    const list = await gatewayFetch('/dashboard/api/certificate/invoices', { headers: json(String(session.body.access_token)) });
    const invoice = (list.body.data as { id: string; number: string; seller: { name: string }; buyer: { name: string }; vat: { rate: number } }[])[0]!;
    expect(invoice).toMatchObject({ number, seller: { name: SELLER.INVOICE_SELLER_NAME }, buyer: { name: BUYER.legal_name }, vat: { rate: 7.5 } });
    const pdf = await fetch(`${system.gatewayUrl}/dashboard/api/certificate/invoices/${invoice.id}/pdf`, { headers: json(String(session.body.access_token)) });
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The invoice for the docs: its first page as an image, else the list.
    const image = firstPageAsPng(bytes);
    const artifact = image ? path.join(path.dirname(await screenshot(page, SUITE, 'invoice-listed')), 'invoice.png') : await screenshot(page, SUITE, 'invoice-listed');
    if (image) writeFileSync(artifact, image);
    updateDocsImage(artifact, 'invoice.png');
  }, 240_000);
});
