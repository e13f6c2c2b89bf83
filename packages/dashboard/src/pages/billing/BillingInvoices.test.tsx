import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, problem, type FakeRoute } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const gateways = { data: [{ id: 'gateway-a', name: 'Paystack', available: true }, { id: 'gateway-b', name: 'Flutterwave', available: true }] };
const page = <T,>(data: T[]) => ({ data, has_more: false, next_cursor: null });
const plans = page([
  { id: 'free', name: 'Free', price: { amount: 0, currency: 'NGN' }, credits: 10 },
  { id: 'business', name: 'Business', price: { amount: 7500000, currency: 'NGN' }, credits: 2500 },
]);
const packs = page([{ id: 'credits_500', name: '500 credits', credits: 500, price: { amount: 2500000, currency: 'NGN' } }]);
const invoice = {
  id: 'in_00000000000000000007',
  number: 'INV-2026-000007',
  issued_at: '2026-11-27T10:05:00Z',
  payment_reference: 'pay_top',
  seller: { name: 'Partner Platform Ltd', address: '3 Broad Street', tax_id: 'TIN-1' },
  buyer: { name: 'Acme Learning Ltd', address: '12 Marina Road', tax_id: null, email: 'accounts@acme.example' },
  lines: [{ description: 'Credit pack: 500 certificate credits', quantity: 1, unit_price: { amount: 2325581, currency: 'NGN' }, amount: { amount: 2325581, currency: 'NGN' } }],
  subtotal: { amount: 2325581, currency: 'NGN' },
  vat: { rate: 7.5, amount: { amount: 174419, currency: 'NGN' } },
  total: { amount: 2500000, currency: 'NGN' },
  gateway_name: 'Paystack',
};
const topUp = { reference: 'pay_top', kind: 'credit_top_up', plan: null, credit_pack: 'credits_500', credits: 500, amount: { amount: 2500000, currency: 'NGN' }, gateway: 'gateway-a', gateway_name: 'Paystack', failure_reason: null, created_at: '2026-11-27T10:00:00Z', period: null, renews_at: null };
const pendingTopUp = { ...topUp, status: 'pending', activated_at: null, invoice: null };
const paidTopUp = { ...topUp, status: 'succeeded', activated_at: '2026-11-27T10:05:00Z', invoice: { id: invoice.id, number: invoice.number } };
const noDetails = { legal_name: null, address: null, tax_id: null, email: null, updated_at: null };

function billingApi(overrides: Record<string, FakeRoute> = {}) {
  return fakeApi({
    'POST /dashboard/api/auth/sessions/refresh': { body: session() },
    'GET /dashboard/api/certificate/credits': { body: { organization: 'Acme Learning', balance: 10, plan: 'free' } },
    'GET /dashboard/api/certificate/credits/ledger': { body: { data: [] } },
    'GET /dashboard/api/certificate/plans': { body: plans },
    'GET /dashboard/api/certificate/credit-packs': { body: packs },
    'GET /dashboard/api/certificate/payment-gateways': { body: gateways },
    'GET /dashboard/api/certificate/payments': { body: page([]) },
    'GET /dashboard/api/certificate/invoices': { body: page([]) },
    'GET /dashboard/api/certificate/billing-details': { body: noDetails },
    ...overrides,
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('the checkout notice after the payment page', () => {
  it('says it waits for the gateway (not "complete the payment"), then "Payment received — invoice INV-…" once the webhook has paid it', async () => {
    sessionStorage.setItem('dashboard.pending-checkout', JSON.stringify({ reference: 'pay_top', kind: 'credit_top_up', purchase: '500 credits' }));
    let paid = false;
    const api = billingApi({
      'GET /dashboard/api/certificate/payments': () => ({ body: page([paid ? paidTopUp : pendingTopUp]) }),
      'GET /dashboard/api/certificate/invoices': () => ({ body: page(paid ? [invoice] : []) }),
    });
    const { user } = renderApp('/billing?reference=pay_top');
    const notice = await screen.findByTestId('checkout-status');
    await waitFor(() => expect(notice.textContent).toContain('Waiting for Paystack to confirm the payment'));
    expect(notice.textContent).not.toMatch(/Complete the payment/i);

    paid = true; // the payment webhook arrived
    await user.click(within(notice).getByRole('button', { name: 'Check now' }));
    await waitFor(() => expect(screen.getByTestId('checkout-status').textContent).toContain('Payment received — invoice INV-2026-000007'));
    expect(screen.getByTestId('checkout-status').textContent).toContain('500 credits added to the balance');
    // The invoice list is read again and shows the new invoice.
    expect(await screen.findByTestId('invoice-INV-2026-000007')).toBeTruthy();
    expect(api.calls('GET /dashboard/api/certificate/invoices').length).toBeGreaterThanOrEqual(2);
  });

  it('follows the payment the payment page returned with even when this tab did not start it', async () => {
    billingApi({ 'GET /dashboard/api/certificate/payments': { body: page([paidTopUp]) } });
    renderApp('/billing?reference=pay_top');
    await waitFor(() => expect(screen.getByTestId('checkout-status').textContent).toMatch(/^Payment received — invoice INV-2026-000007: 500 credits added to the balance/));
  });

  it('before the trip to the payment page still asks to complete the payment', async () => {
    sessionStorage.setItem('dashboard.pending-checkout', JSON.stringify({ reference: 'pay_top', kind: 'credit_top_up', purchase: '500 credits' }));
    billingApi({ 'GET /dashboard/api/certificate/payments': { body: page([pendingTopUp]) } });
    renderApp('/billing');
    await waitFor(() => expect(screen.getByTestId('checkout-status').textContent).toContain('Complete the payment with the gateway'));
  });
});

describe('invoices', () => {
  it('lists each invoice with its number, description and total incl. VAT, and downloads its PDF', async () => {
    const api = billingApi({
      'GET /dashboard/api/certificate/invoices': { body: page([invoice]) },
      'GET /dashboard/api/certificate/invoices/in_00000000000000000007/pdf': { body: '%PDF-1.3', headers: { 'content-type': 'application/pdf' } },
    });
    const created = vi.fn(() => 'blob:invoice');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { user } = renderApp('/billing');
    const row = await screen.findByTestId('invoice-INV-2026-000007');
    expect(row.textContent).toContain('Credit pack: 500 certificate credits');
    expect(row.textContent).toMatch(/25,000\.00/);
    expect(row.textContent).toMatch(/incl\. .*1,744\.19 VAT/);
    await user.click(within(row).getByRole('button', { name: 'Download invoice INV-2026-000007 (PDF)' }));
    await waitFor(() => expect(saved).toEqual(['INV-2026-000007.pdf']));
    expect(api.calls('GET /dashboard/api/certificate/invoices/in_00000000000000000007/pdf')).toHaveLength(1);
    expect(created).toHaveBeenCalledTimes(1);
  });

  it('says so when there are none yet', async () => {
    billingApi();
    renderApp('/billing');
    expect(await screen.findByText('No invoices yet: each paid payment gets one.')).toBeTruthy();
  });
});

describe('billing details', () => {
  it('an owner saves the organization\'s legal name, address, tax id and email; field errors show under their fields', async () => {
    let attempt = 0;
    const api = billingApi({
      'PUT /dashboard/api/certificate/billing-details': (request) =>
        ++attempt === 1
          ? problem(422, 'validation_failed', 'Invalid request', [{ path: 'email', message: 'Invalid email address' }])
          : { body: { ...(request.body as object), updated_at: '2026-11-29T10:00:00Z' } },
    });
    const { user } = renderApp('/billing');
    const form = within(await screen.findByRole('form', { name: 'Billing details' }));
    await user.type(form.getByLabelText('Legal name'), 'Acme Learning Ltd');
    await user.type(form.getByLabelText('Address'), '12 Marina Road{enter}Lagos');
    await user.type(form.getByLabelText('Billing email'), 'accounts');
    await user.click(form.getByRole('button', { name: 'Save billing details' }));
    expect((await screen.findByTestId('error-email')).textContent).toBe('Invalid email address');
    await user.type(form.getByLabelText('Billing email'), '@acme.example');
    await user.type(form.getByLabelText('Tax ID (optional)'), 'TIN-1');
    await user.click(form.getByRole('button', { name: 'Save billing details' }));
    expect(await screen.findByTestId('billing-details-saved')).toBeTruthy();
    expect(api.calls('PUT /dashboard/api/certificate/billing-details').at(-1)!.body).toEqual({
      legal_name: 'Acme Learning Ltd',
      address: '12 Marina Road\nLagos',
      tax_id: 'TIN-1',
      email: 'accounts@acme.example',
    });
  });

  it('a member reads them and gets no form', async () => {
    billingApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme Learning', role: 'member' } }) },
      'GET /dashboard/api/certificate/billing-details': { body: { legal_name: 'Acme Learning Ltd', address: '12 Marina Road', tax_id: null, email: 'accounts@acme.example', updated_at: '2026-11-29T10:00:00Z' } },
    });
    renderApp('/billing');
    expect((await screen.findByTestId('billing-details')).textContent).toContain('Acme Learning Ltd');
    expect(screen.queryByRole('form', { name: 'Billing details' })).toBeNull();
  });
});
