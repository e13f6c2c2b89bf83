import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paymentPage } from './billing-api';
import { fakeApi } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const gateways = { data: [{ id: 'gateway-a', name: 'Paystack', available: true }, { id: 'gateway-b', name: 'Flutterwave', available: true }] };

const plans = {
  data: [
    { id: 'free', name: 'Free', price: { amount: 0, currency: 'NGN' }, credits: 10 },
    { id: 'starter', name: 'Starter', price: { amount: 500000, currency: 'NGN' }, credits: 100 },
    { id: 'growth', name: 'Growth', price: { amount: 2000000, currency: 'NGN' }, credits: 500 },
  ],
  has_more: false,
  next_cursor: null,
};

const packs = {
  data: [
    { id: 'credits_100', name: '100 credits', credits: 100, price: { amount: 600000, currency: 'NGN' } },
    { id: 'credits_500', name: '500 credits', credits: 500, price: { amount: 2500000, currency: 'NGN' } },
  ],
  has_more: false,
  next_cursor: null,
};

const paid = { status: 'succeeded', failure_reason: null, created_at: '2026-11-26T10:00:00Z', activated_at: '2026-11-26T10:05:00Z' };
const growthPayment = { reference: 'pay_123', kind: 'plan_upgrade', plan: 'growth', credit_pack: null, credits: 500, amount: { amount: 2000000, currency: 'NGN' }, gateway: 'gateway-b', gateway_name: 'Flutterwave', ...paid, period: 'month', renews_at: '2026-12-26T10:05:00Z' };
const page = <T,>(data: T[]) => ({ data, has_more: false, next_cursor: null });

describe('credits and plan', () => {
  it('starts a checkout with gateway B and shows the activation once the plan changes', async () => {
    let plan = 'free';
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/credits': () => ({ body: { organization: 'Acme Learning', balance: plan === 'free' ? 3 : 503, plan } }),
      'GET /dashboard/api/certificate/credits/ledger': { body: { data: [{ id: '41', amount: -1, reason: 'certificate_issued', reference: 'cert_1', balance_after: 3, created_at: '2026-11-20T10:00:00Z' }] } },
      'GET /dashboard/api/certificate/plans': { body: plans },
      'GET /dashboard/api/certificate/credit-packs': { body: packs },
      'GET /dashboard/api/certificate/payment-gateways': { body: gateways },
      'GET /dashboard/api/certificate/payments': () => ({ body: page(plan === 'free' ? [] : [growthPayment]) }),
      'POST /dashboard/api/certificate/subscriptions/checkout': (request) => ({
        status: 201,
        body: { ...growthPayment, ...(request.body as object), status: 'pending', activated_at: null, period: null, renews_at: null, checkout_url: 'https://pay.example/pay_123' },
      }),
    });
    const open = vi.spyOn(paymentPage, 'open').mockImplementation(() => undefined);
    const { user } = renderApp('/billing');
    expect((await screen.findByTestId('current-plan')).textContent).toBe('Free');
    // Plan cards: the current one marked and not offered; gateways by their configured names.
    expect((await screen.findByTestId('plan-free')).getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('plan-free').textContent).toContain('Current plan');
    const upgrade = within(await screen.findByRole('form', { name: 'Upgrade plan' }));
    const offered = Array.from(upgrade.getByLabelText('Plan').querySelectorAll('option')).map((option) => option.getAttribute('value'));
    expect(offered).toEqual(['starter', 'growth']);
    expect(Array.from(upgrade.getByLabelText('Pay with').querySelectorAll('option')).map((option) => option.textContent)).toEqual(['Paystack', 'Flutterwave']);
    expect(screen.getByText('certificate issued')).toBeTruthy();
    await user.selectOptions(upgrade.getByLabelText('Plan'), 'growth');
    await user.selectOptions(upgrade.getByLabelText('Pay with'), 'gateway-b');
    await user.click(upgrade.getByRole('button', { name: 'Start checkout' }));
    expect((await screen.findByTestId('checkout-reference')).textContent).toBe('pay_123');
    expect(api.calls('POST /dashboard/api/certificate/subscriptions/checkout')[0]!.body).toEqual({ plan: 'growth', gateway: 'gateway-b' });
    expect(JSON.parse(sessionStorage.getItem('dashboard.pending-checkout')!)).toEqual({ reference: 'pay_123', kind: 'plan_upgrade', purchase: 'plan Growth' });
    expect(open).toHaveBeenCalledWith('https://pay.example/pay_123'); // to the gateway's hosted page
    expect(screen.getByTestId('checkout-status').textContent).toContain('via Flutterwave');

    plan = 'growth'; // the payment webhook arrived
    await user.click(screen.getByRole('button', { name: 'Check now' }));
    expect((await screen.findByText(/Payment received/)).textContent).toContain('plan Growth is active');
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('503'));
    expect(screen.getByTestId('current-plan').textContent).toBe('Growth');
    // The paid plan's period, its renewal date, and the receipt.
    expect((await screen.findByTestId('renewal')).textContent).toMatch(/Growth is paid by the month: .* renews on /);
    expect(screen.getByTestId('payment-pay_123').textContent).toContain('via Flutterwave');
    expect(screen.getByRole('button', { name: 'Receipt (PDF)' })).toBeTruthy();
  });

  it('keeps waiting for a checkout started before the user left for the payment page', async () => {
    sessionStorage.setItem('dashboard.pending-checkout', JSON.stringify({ reference: 'pay_9', kind: 'plan_upgrade', purchase: 'plan Growth' }));
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/credits': { body: { organization: 'Acme Learning', balance: 503, plan: 'growth' } },
      'GET /dashboard/api/certificate/credits/ledger': { body: { data: [] } },
      'GET /dashboard/api/certificate/plans': { body: plans },
      'GET /dashboard/api/certificate/credit-packs': { body: packs },
      'GET /dashboard/api/certificate/payment-gateways': { body: gateways },
      'GET /dashboard/api/certificate/payments': { body: page([{ ...growthPayment, reference: 'pay_9' }]) },
    });
    renderApp('/billing');
    expect((await screen.findByText(/Payment received/)).textContent).toContain('plan Growth is active');
  });

  it('buys a credit pack without a plan change: hosted page, then the credits added and the plan and renewal date kept', async () => {
    let topUpPaid = false;
    const topUp = { reference: 'pay_top', kind: 'credit_top_up', plan: null, credit_pack: 'credits_500', credits: 500, amount: { amount: 2500000, currency: 'NGN' }, gateway: 'gateway-a', gateway_name: 'Paystack' };
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/credits': () => ({ body: { organization: 'Acme Learning', balance: topUpPaid ? 603 : 103, plan: 'growth' } }),
      'GET /dashboard/api/certificate/credits/ledger': () => ({ body: { data: topUpPaid ? [{ id: '50', amount: 500, reason: 'credit_top_up', reference: 'pay_top', balance_after: 603, created_at: '2026-11-27T10:00:00Z' }] : [] } }),
      'GET /dashboard/api/certificate/plans': { body: plans },
      'GET /dashboard/api/certificate/credit-packs': { body: packs },
      'GET /dashboard/api/certificate/payment-gateways': { body: gateways },
      'GET /dashboard/api/certificate/payments': () => ({ body: page(topUpPaid ? [{ ...topUp, ...paid, period: null, renews_at: null }, growthPayment] : [growthPayment]) }),
      'POST /dashboard/api/certificate/credits/top-ups': {
        status: 201,
        body: { ...topUp, status: 'pending', failure_reason: null, created_at: '2026-11-27T10:00:00Z', checkout_url: 'https://pay.example/pay_top' },
      },
    });
    const open = vi.spyOn(paymentPage, 'open').mockImplementation(() => undefined);
    const { user } = renderApp('/billing');
    const form = within(await screen.findByRole('form', { name: 'Buy credits' }));
    expect(Array.from(form.getByLabelText('Credit pack').querySelectorAll('option')).map((option) => option.textContent)).toEqual([
      expect.stringMatching(/^100 credits — .*6,000\.00/),
      expect.stringMatching(/^500 credits — .*25,000\.00/),
    ]);
    await user.selectOptions(form.getByLabelText('Credit pack'), 'credits_500');
    await user.click(form.getByRole('button', { name: 'Buy credits' }));
    expect(api.calls('POST /dashboard/api/certificate/credits/top-ups')[0]!.body).toEqual({ pack: 'credits_500', gateway: 'gateway-a' });
    expect(open).toHaveBeenCalledWith('https://pay.example/pay_top');
    expect((await screen.findByTestId('checkout-status')).textContent).toContain('for 500 credits');

    topUpPaid = true; // the payment webhook arrived
    await user.click(screen.getByRole('button', { name: 'Check now' }));
    expect((await screen.findByText(/Payment received/)).textContent).toContain('500 credits added to the balance');
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('603'));
    expect(await screen.findByText('credit top up')).toBeTruthy();
    expect(screen.getByTestId('current-plan').textContent).toBe('Growth');
    expect(screen.getByTestId('payment-pay_top').textContent).toContain('Credit top-up: 500 credits');
    // The renewal date is still the plan's.
    expect(screen.getByTestId('renewal').textContent).toMatch(/^Growth is paid by the month/);
  });

  it('tells a member that owners buy credit packs, and shows a failed payment with its reason', async () => {
    sessionStorage.setItem('dashboard.pending-checkout', JSON.stringify({ reference: 'pay_bad', kind: 'credit_top_up', purchase: '100 credits' }));
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session({ organization: { id: 'org_1', name: 'Acme Learning', role: 'member' } }) },
      'GET /dashboard/api/certificate/credits': { body: { organization: 'Acme Learning', balance: 3, plan: 'free' } },
      'GET /dashboard/api/certificate/credits/ledger': { body: { data: [] } },
      'GET /dashboard/api/certificate/plans': { body: plans },
      'GET /dashboard/api/certificate/credit-packs': { body: packs },
      'GET /dashboard/api/certificate/payment-gateways': { body: gateways },
      'GET /dashboard/api/certificate/payments': {
        body: page([{ reference: 'pay_bad', kind: 'credit_top_up', plan: null, credit_pack: 'credits_100', credits: 100, amount: { amount: 600000, currency: 'NGN' }, gateway: 'gateway-a', gateway_name: 'Paystack', status: 'failed', failure_reason: 'transaction status is abandoned', created_at: '2026-11-27T10:00:00Z', activated_at: null, period: null, renews_at: null }]),
      },
    });
    renderApp('/billing');
    expect((await screen.findByText(/did not go through/)).textContent).toContain('100 credits did not go through (transaction status is abandoned)');
    expect(await screen.findByTestId('top-up-owners-only')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Buy credits' })).toBeNull();
  });
});
