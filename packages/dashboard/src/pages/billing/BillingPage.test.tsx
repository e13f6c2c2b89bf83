import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderApp, session } from '../../test/render';

const plans = {
  data: [
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
      'POST /dashboard/api/certificate/subscriptions/checkout': (request) => ({
        status: 201,
        body: { reference: 'pay_123', ...(request.body as object), amount: { amount: 2000000, currency: 'NGN' }, status: 'pending', failure_reason: null, created_at: '2026-11-26T10:00:00Z' },
      }),
    });
    const { user } = renderApp('/billing');
    expect((await screen.findByTestId('current-plan')).textContent).toBe('Free');
    expect(screen.getByText('certificate issued')).toBeTruthy();
    await user.selectOptions(await screen.findByLabelText('Plan'), 'growth');
    await user.selectOptions(screen.getByLabelText('Pay with'), 'gateway-b');
    await user.click(screen.getByRole('button', { name: 'Start checkout' }));
    expect((await screen.findByTestId('checkout-reference')).textContent).toBe('pay_123');
    expect(api.calls('POST /dashboard/api/certificate/subscriptions/checkout')[0]!.body).toEqual({ plan: 'growth', gateway: 'gateway-b' });
    expect(JSON.parse(sessionStorage.getItem('dashboard.pending-checkout')!)).toMatchObject({ reference: 'pay_123', plan: 'growth' });

    plan = 'growth'; // the payment webhook arrived
    await user.click(screen.getByRole('button', { name: 'Check now' }));
    expect((await screen.findByText(/Payment received/)).textContent).toContain('plan Growth is active');
    expect(screen.getByTestId('credit-balance').textContent).toBe('503');
  });

  it('keeps waiting for a checkout started before the user left for the payment page', async () => {
    sessionStorage.setItem('dashboard.pending-checkout', JSON.stringify({ reference: 'pay_9', plan: 'growth', previousPlan: 'free' }));
    fakeApi({
      'POST /dashboard/api/auth/sessions/refresh': { body: session() },
      'GET /dashboard/api/certificate/credits': { body: { organization: 'Acme Learning', balance: 503, plan: 'growth' } },
      'GET /dashboard/api/certificate/credits/ledger': { body: { data: [] } },
      'GET /dashboard/api/certificate/plans': { body: plans },
    });
    renderApp('/billing');
    expect((await screen.findByText(/Payment received/)).textContent).toContain('plan Growth is active');
  });
});
