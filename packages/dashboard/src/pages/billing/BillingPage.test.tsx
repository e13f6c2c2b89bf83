import { screen } from '@testing-library/react';
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

describe('credits and plan', () => {
  it('starts a checkout with gateway B and shows the activation once the plan changes', async () => {
    let plan = 'free';
    const api = fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/credits': () => ({ body: { organization: 'Acme Learning', balance: plan === 'free' ? 3 : 503, plan } }),
      'GET /dashboard/api/certificate/credits/ledger': { body: { data: [{ id: '41', amount: -1, reason: 'certificate_issued', reference: 'cert_1', balance_after: 3, created_at: '2026-11-20T10:00:00Z' }] } },
      'GET /dashboard/api/certificate/plans': { body: plans },
      'GET /dashboard/api/certificate/payment-gateways': { body: gateways },
      'GET /dashboard/api/certificate/payments': () => ({
        body: {
          data: plan === 'free' ? [] : [{ reference: 'pay_123', plan: 'growth', amount: { amount: 2000000, currency: 'NGN' }, gateway: 'gateway-b', gateway_name: 'Flutterwave', status: 'succeeded', failure_reason: null, created_at: '2026-11-26T10:00:00Z', activated_at: '2026-11-26T10:05:00Z', period: 'month', renews_at: '2026-12-26T10:05:00Z' }],
          has_more: false,
          next_cursor: null,
        },
      }),
      'POST /dashboard/api/certificate/subscriptions/checkout': (request) => ({
        status: 201,
        body: { reference: 'pay_123', ...(request.body as object), amount: { amount: 2000000, currency: 'NGN' }, status: 'pending', failure_reason: null, created_at: '2026-11-26T10:00:00Z', gateway_name: 'Flutterwave', checkout_url: 'https://pay.example/pay_123' },
      }),
    });
    const open = vi.spyOn(paymentPage, 'open').mockImplementation(() => undefined);
    const { user } = renderApp('/billing');
    expect((await screen.findByTestId('current-plan')).textContent).toBe('Free');
    // Plan cards: the current one marked and not offered; gateways by their configured names.
    expect((await screen.findByTestId('plan-free')).getAttribute('aria-current')).toBe('true');
    expect(screen.getByTestId('plan-free').textContent).toContain('Current plan');
    const offered = Array.from((await screen.findByLabelText('Plan')).querySelectorAll('option')).map((option) => option.getAttribute('value'));
    expect(offered).toEqual(['starter', 'growth']);
    expect(Array.from(screen.getByLabelText('Pay with').querySelectorAll('option')).map((option) => option.textContent)).toEqual(['Paystack', 'Flutterwave']);
    expect(screen.getByText('certificate issued')).toBeTruthy();
    await user.selectOptions(await screen.findByLabelText('Plan'), 'growth');
    await user.selectOptions(screen.getByLabelText('Pay with'), 'gateway-b');
    await user.click(screen.getByRole('button', { name: 'Start checkout' }));
    expect((await screen.findByTestId('checkout-reference')).textContent).toBe('pay_123');
    expect(api.calls('POST /dashboard/api/certificate/subscriptions/checkout')[0]!.body).toEqual({ plan: 'growth', gateway: 'gateway-b' });
    expect(JSON.parse(sessionStorage.getItem('dashboard.pending-checkout')!)).toMatchObject({ reference: 'pay_123', plan: 'growth' });
    expect(open).toHaveBeenCalledWith('https://pay.example/pay_123'); // to the gateway's hosted page
    expect(screen.getByTestId('checkout-status').textContent).toContain('via Flutterwave');

    plan = 'growth'; // the payment webhook arrived
    await user.click(screen.getByRole('button', { name: 'Check now' }));
    expect((await screen.findByText(/Payment received/)).textContent).toContain('plan Growth is active');
    expect(screen.getByTestId('credit-balance').textContent).toBe('503');
    // The paid plan's period, its renewal date, and the receipt.
    expect((await screen.findByTestId('renewal')).textContent).toMatch(/Growth is paid by the month: .* renews on /);
    expect(screen.getByTestId('payment-pay_123').textContent).toContain('via Flutterwave');
    expect(screen.getByRole('button', { name: 'Receipt (PDF)' })).toBeTruthy();
  });

  it('keeps waiting for a checkout started before the user left for the payment page', async () => {
    sessionStorage.setItem('dashboard.pending-checkout', JSON.stringify({ reference: 'pay_9', plan: 'growth', previousPlan: 'free' }));
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/credits': { body: { organization: 'Acme Learning', balance: 503, plan: 'growth' } },
      'GET /dashboard/api/certificate/credits/ledger': { body: { data: [] } },
      'GET /dashboard/api/certificate/plans': { body: plans },
      'GET /dashboard/api/certificate/payment-gateways': { body: gateways },
      'GET /dashboard/api/certificate/payments': { body: { data: [], has_more: false, next_cursor: null } },
    });
    renderApp('/billing');
    expect((await screen.findByText(/Payment received/)).textContent).toContain('plan Growth is active');
  });
});
